// @vitest-environment happy-dom
// The token page's owner actions (also on the profile's On Sale tab): change a listing's price, remove it
// after the Yes / No question, and send a token from the passkey wallet to the fan's own wallet after a
// confirmation naming the address in full. What reaches the chain actions is checked exactly (wei, the
// checksummed address), and nothing reaches them without the fan's confirmation.
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderPage } from "../../test/fake-api.tsx";
import { OwnerListing } from "./OwnerListing.tsx";
import { SendToOwnWallet } from "./SendToOwnWallet.tsx";

afterEach(cleanup);

describe("the owner's listing controls", () => {
  it("Change price sends the new price in wei and clears the field; a bad price is refused in place", async () => {
    const onChangePrice = vi.fn(async (_wei: bigint) => {});
    const onRemove = vi.fn(async () => {});
    const user = userEvent.setup();
    renderPage(<OwnerListing onChangePrice={onChangePrice} onRemove={onRemove} busy={false} />);

    for (const bad of ["0", "-1", "abc", "1.2.3"]) {
      await user.clear(screen.getByLabelText("New price"));
      await user.type(screen.getByLabelText("New price"), bad);
      await user.click(screen.getByRole("button", { name: "Change price" }));
      expect(await screen.findByText("Enter a price greater than 0")).toBeTruthy();
    }
    expect(onChangePrice).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText("New price"));
    await user.type(screen.getByLabelText("New price"), "0.015");
    await user.click(screen.getByRole("button", { name: "Change price" }));
    await waitFor(() => expect(onChangePrice).toHaveBeenCalledWith(15_000_000_000_000_000n));
    await waitFor(() => expect((screen.getByLabelText("New price") as HTMLInputElement).value).toBe(""));
    expect(onRemove).not.toHaveBeenCalled();
  });

  it("Remove asks first: No keeps the listing, Yes removes it", async () => {
    const onRemove = vi.fn(async () => {});
    const user = userEvent.setup();
    renderPage(<OwnerListing onChangePrice={vi.fn()} onRemove={onRemove} busy={false} />);

    await user.click(screen.getByRole("button", { name: "Remove from marketplace" }));
    expect(screen.getByText("Do you want to remove the nft from marketplace ?")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "No" }));
    expect(onRemove).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Remove from marketplace" }));
    await user.click(screen.getByRole("button", { name: "Yes" }));
    expect(onRemove).toHaveBeenCalledTimes(1);
  });

  it("while a transaction runs, nothing else can be started", () => {
    renderPage(<OwnerListing onChangePrice={vi.fn()} onRemove={vi.fn()} busy />);
    expect(
      (screen.getByRole("button", { name: "Remove from marketplace" }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});

describe("Send to my own wallet", () => {
  const lower = "0x52908400098527886e0f7030069857d2e4169ee7";
  const checksummed = "0x52908400098527886E0F7030069857D2E4169EE7";

  it("refuses what is not an address, then names the address in full before sending", async () => {
    const onSend = vi.fn(async (_to: `0x${string}`) => {});
    const user = userEvent.setup();
    renderPage(<SendToOwnWallet title="Kabali: Neruppu Da #3" busy={false} onSend={onSend} />);

    await user.click(screen.getByRole("button", { name: "Send to my own wallet" }));
    await user.type(screen.getByLabelText("Wallet address"), "0x1234");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText("Enter a wallet address: 0x followed by 40 hexadecimal characters")).toBeTruthy();

    await user.clear(screen.getByLabelText("Wallet address"));
    await user.type(screen.getByLabelText("Wallet address"), ` ${lower} `);
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(screen.getByText(checksummed)).toBeTruthy();
    expect(screen.getByText(/a transfer cannot be undone/)).toBeTruthy();
    expect(onSend).not.toHaveBeenCalled();

    // Back returns to the address; confirming sends to the checksummed address once.
    await user.click(screen.getByRole("button", { name: "Back" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await user.click(screen.getByRole("button", { name: "Yes, send it" }));
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith(checksummed);
  });
});
