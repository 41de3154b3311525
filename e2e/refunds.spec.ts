// A fresh key per fan: card checkouts need a wallet to mint to, never its ETH, and a shared anvil key
// would be linked to another spec's account at the same time (and keys 6 to 8 are the server's).
import { generatePrivateKey } from "viem/accounts";
import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * The console's Refund (decision 144): a fan pays by card (sandbox) and the token is minted; an
 * administrator presses Refund in the console's orders section; the fan's order page says
 * "Refunded" (the token stays theirs) and My orders shows "Refunded". Screenshots at 1440 and 390 px.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `refund-${name}`);

test("an administrator refunds a card order from the console; the fan sees it refunded", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const chain = await getJson<{ chainId: number; rpcUrl: string }>(request, "/api/v1/chain");
  const fanContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await fanContext.newPage();
  const watch = watchPage(page);
  const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const admin = await adminContext.newPage();
  try {
    await signUpAndSignIn(page.request, "refund", "Refund Fan");
    await linkTestWallet(page, {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      privateKey: generatePrivateKey(),
    });
    const nft = await fixedPriceNft(request, 2);
    await page.goto(`/nftdetail/${nft.id}`);
    await waitForData(page);
    await page.getByRole("button", { name: "Purchase" }).click();
    await page
      .getByRole("dialog", { name: `Buy ${nft.title}` })
      .getByRole("button", { name: /Pay by card \(sandbox\)/ })
      .click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//, { timeout: 15_000 });
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });
    const orderId = page.url().split("/").pop()!;
    const order = await getJson<{ edition: number }>(page.request, `/api/v1/orders/${orderId}`);

    // The administrator's console: the order's row has Refund (a confirm first).
    await signInAsAdmin(admin.request);
    await admin.goto("/admin/orders");
    const row = admin.getByRole("row").filter({ hasText: `${nft.title} #${order.edition}` });
    const refund = row.getByRole("button", { name: "Refund" });
    await expect(refund).toBeVisible({ timeout: 15_000 });
    admin.once("dialog", (d) => void d.accept());
    await refund.click();
    await expect(admin.getByText("The refund is on its way to the payment provider")).toBeVisible();

    // The refund job asks the sandbox, whose signed refund.succeeded webhook confirms it.
    await expect
      .poll(async () => (await getJson<{ state: string }>(page.request, `/api/v1/orders/${orderId}`)).state, {
        timeout: 30_000,
      })
      .toBe("refunded");
    // The fan's open order page follows it (the event stream's order.updated), no reload: Refunded,
    // and the token stays theirs.
    await expect(page.getByRole("heading", { name: "Refunded" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("The token in your wallet stays yours.", { exact: false })).toBeVisible();
    await shots(page, "1-order-page");
    await page.goto("/profile");
    await page.getByRole("tab", { name: "My orders" }).click();
    await expect(page.getByText("Refunded", { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    await shots(page, "2-my-orders");
    expectNoProblems(watch);
  } finally {
    await fanContext.close();
    await adminContext.close();
  }
});
