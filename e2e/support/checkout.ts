import { expect, type Page } from "@playwright/test";
import { waitForData } from "./page.ts";

/**
 * Opens an NFT's page, presses Purchase and waits for the checkout dialog's sandbox card button:
 * where the card checkout specs start.
 */
export async function openCardCheckout(page: Page, nft: { id: string; title: string }) {
  await page.goto(`/nftdetail/${nft.id}`);
  await waitForData(page);
  await page.getByRole("button", { name: "Purchase" }).click();
  const dialog = page.getByRole("dialog", { name: `Buy ${nft.title}` });
  const card = dialog.getByRole("button", { name: /Pay by card \(sandbox\)/ });
  await expect(card).toBeVisible();
  return { dialog, card };
}
