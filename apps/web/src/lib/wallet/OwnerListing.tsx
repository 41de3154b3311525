import { useState } from "react";
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
}: {
  onChangePrice: (wei: bigint) => Promise<void>;
  onRemove: () => Promise<void>;
  busy: boolean;
}) {
  const [price, setPrice] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  return (
    <div className="trade">
      <form
        className="trade-row"
        onSubmit={(e) => {
          e.preventDefault();
          const wei = parseNative(price);
          if (wei === null) return setError("Enter a price greater than 0");
          setError(null);
          void onChangePrice(wei).then(() => setPrice(""));
        }}
        noValidate
      >
        <TextField
          label="New price"
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={error}
        />
        <Button type="submit" variant="secondary" loading={busy}>
          Change price
        </Button>
      </form>
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
