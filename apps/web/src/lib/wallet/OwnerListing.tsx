import { type ReactNode, useState } from "react";
import { fieldProps, useAppForm } from "../form.ts";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { TextField } from "../../ui/TextField.tsx";
import { parseNative } from "./amounts.ts";

/**
 * The owner's controls of a fixed-price listing (the token page and the profile's On Sale tab):
 * change the price, or remove it from the marketplace after the spec's Yes / No question.
 */
export function OwnerListing({
  onChangePrice,
  onRemove,
  busy,
  priceNotice,
}: {
  onChangePrice: (wei: bigint) => Promise<void>;
  onRemove: () => Promise<void>;
  busy: boolean;
  /** What a sale at the new price means for the seller (the token page shows the TDS; decision 176). */
  priceNotice?: (wei: bigint | null) => ReactNode;
}) {
  const form = useAppForm({ defaultValues: { price: "" } });
  const typed = form.watch("price");
  const [confirm, setConfirm] = useState(false);
  const onSubmit = form.handleSubmit(({ price }) => {
    void onChangePrice(parseNative(price) as bigint).then(() => form.reset());
  });
  return (
    <div className="trade">
      <form className="trade-row" onSubmit={onSubmit} noValidate>
        <TextField
          label="New price"
          inputMode="decimal"
          {...fieldProps(form, "price", {
            validate: (price) => parseNative(price) !== null || "Enter a price greater than 0",
          })}
        />
        <Button type="submit" variant="secondary" loading={busy}>
          Change price
        </Button>
      </form>
      {priceNotice && typed ? priceNotice(parseNative(typed)) : null}
      <Button variant="ghost" onClick={() => setConfirm(true)} disabled={busy}>
        Remove from marketplace
      </Button>
      <Dialog open={confirm} onClose={() => setConfirm(false)} title="Remove from marketplace">
        <p>Do you want to remove the nft from marketplace ?</p>
        <div className="trade-row">
          <Button
            onClick={() => {
              setConfirm(false);
              void onRemove();
            }}
          >
            Yes
          </Button>
          <Button variant="secondary" onClick={() => setConfirm(false)}>
            No
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
