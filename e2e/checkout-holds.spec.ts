import type { Order, OrderList } from "@diginoor/api/orders";
// A fresh key per fan: card checkouts need a wallet to mint to, never its ETH, and a shared anvil key
// would be linked to another spec's account at the same time (and keys 6 to 8 are the server's).
import { generatePrivateKey } from "viem/accounts";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * A forgiving checkout (issue 28 point 2; decision 143) with the sandbox card provider: the
 * browser's Back and the sandbox's Abandon cancel the order at once and say "Cancelled, nothing was
 * charged"; a decline offers "Try again", and the new attempt pays; two tabs paying for one NFT give
 * one order, the second tab showing it, which warns when it is about to expire. Screenshots of the
 * cancelled, declined and open-order states at 1440 px and 390 px.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `holds-${name}`);

type Nft = Awaited<ReturnType<typeof fixedPriceNft>>;

async function fanOnNft(browser: Browser, request: APIRequestContext, tag: string, key: `0x${string}`) {
  const chain = await getJson<{ chainId: number; rpcUrl: string }>(request, "/api/v1/chain");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signUpAndSignIn(page.request, tag, "Hold Fan");
  await linkTestWallet(page, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, privateKey: key });
  return { context, page };
}

/** NFT page → Purchase → Pay by card: the sandbox's hosted page. */
async function payByCard(page: Page, nft: Nft) {
  await page.goto(`/nftdetail/${nft.id}`);
  await waitForData(page);
  await page.getByRole("button", { name: "Purchase" }).click();
  await page
    .getByRole("dialog", { name: `Buy ${nft.title}` })
    .getByRole("button", { name: /Pay by card \(sandbox\)/ })
    .click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/, { timeout: 15_000 });
}

const editionsOf = async (request: APIRequestContext, nft: Nft) =>
  (await getJson<{ editionsAvailable: number }>(request, `/api/v1/nfts/${nft.id}`)).editionsAvailable;

test("Back and Abandon cancel at once; a decline offers Try again, and it pays", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await fanOnNft(browser, request, "holds", generatePrivateKey());
  const watch = watchPage(page);
  try {
    const nft = await fixedPriceNft(request, 5);
    const before = await editionsOf(request, nft);

    // The browser's Back from the payment page.
    await payByCard(page, nft);
    expect(await editionsOf(request, nft)).toBe(before - 1);
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/paymentstatus/${nft.id}/[0-9a-f-]{36}/cancelled$`));
    await expect(page.getByRole("heading", { name: "Cancelled, nothing was charged" })).toBeVisible();
    expect(await editionsOf(request, nft)).toBe(before);

    // Abandon on the provider's page, after Try again.
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/, { timeout: 15_000 });
    await page.getByRole("button", { name: "Abandon" }).click();
    await expect(page).toHaveURL(new RegExp(`/paymentstatus/${nft.id}/[0-9a-f-]{36}/cancelled$`));
    await expect(page.getByRole("heading", { name: "Cancelled, nothing was charged" })).toBeVisible();
    await expect(page.getByText(/edition \d+ was released/)).toBeVisible();
    expect(await editionsOf(request, nft)).toBe(before);
    await shots(page, "1-cancelled");

    // Declined, then Try again, and this time it pays.
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/, { timeout: 15_000 });
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText("The payment was declined. Nothing was charged.")).toBeVisible();
    expect(await editionsOf(request, nft)).toBe(before);
    await shots(page, "2-declined");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/, { timeout: 15_000 });
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });

    const mine = (await getJson<OrderList>(page.request, "/api/v1/orders")).items.filter(
      (o) => o.nftId === nft.id,
    );
    expect(mine.map((o) => o.state)).toEqual(["fulfilled", "failed", "cancelled", "cancelled"]);
    expect(await editionsOf(request, nft)).toBe(before - 1);
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});

test("two tabs paying for one NFT give one order; the second tab shows it", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { context, page } = await fanOnNft(browser, request, "tabs", generatePrivateKey());
  const second = await context.newPage();
  const allowed = [{ method: "POST", path: "/api/v1/orders", status: 409 }];
  const watch = [watchPage(page, allowed), watchPage(second, allowed)];
  try {
    const nft = await fixedPriceNft(request, 6);
    const before = await editionsOf(request, nft);
    const dialogs = [];
    for (const tab of [page, second]) {
      await tab.goto(`/nftdetail/${nft.id}`);
      await waitForData(tab);
      await tab.getByRole("button", { name: "Purchase" }).click();
      const card = tab
        .getByRole("dialog", { name: `Buy ${nft.title}` })
        .getByRole("button", { name: /Pay by card \(sandbox\)/ });
      await expect(card).toBeVisible();
      dialogs.push(card);
    }
    // Both at once: one goes to the payment page, the other shows that same open order.
    await Promise.all(dialogs.map((d) => d.click()));
    const onPayment = /\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/;
    const onOrder = new RegExp(`/confirmation/${nft.id}/([0-9a-f-]{36})$`);
    await expect
      .poll(() => [page.url(), second.url()].filter((u) => onPayment.test(u) || onOrder.test(u)).length, {
        timeout: 15_000,
      })
      .toBe(2);
    const [paying, showing] = onPayment.test(page.url()) ? [page, second] : [second, page];
    expect(paying.url()).toMatch(onPayment);
    expect(showing.url()).toMatch(onOrder);
    const mine = (await getJson<OrderList>(page.request, "/api/v1/orders")).items.filter(
      (o) => o.nftId === nft.id,
    );
    expect(mine).toHaveLength(1);
    expect(showing.url()).toContain(mine[0]!.orderId);
    expect(await editionsOf(request, nft)).toBe(before - 1);

    await expect(showing.getByRole("heading", { name: "Your NFT is on its way" })).toBeVisible();
    await expect(showing.getByRole("button", { name: "Continue to payment" })).toBeVisible();
    await expect(showing.getByText(/is held for you until/)).toBeVisible();
    // Three minutes before the hold ends, the page says the order is about to expire.
    const order = await getJson<Order>(page.request, `/api/v1/orders/${mine[0]!.orderId}`);
    await showing.clock.setFixedTime(Date.parse(order.reservedUntil) - 3 * 60_000);
    await expect(showing.getByText(/This order expires in 3 minutes: pay before/)).toBeVisible();
    await shots(showing, "3-open-order-expiring");
    await showing.clock.setFixedTime(Date.now());

    await showing.getByRole("button", { name: "Cancel order" }).click();
    await expect(showing.getByRole("heading", { name: "Cancelled, nothing was charged" })).toBeVisible();
    expect(await editionsOf(request, nft)).toBe(before);
    // The payment page of the cancelled order is closed.
    await paying.reload();
    await expect(paying.getByText("This checkout is closed (order cancelled).")).toBeVisible();
    for (const w of watch) expectNoProblems(w);
  } finally {
    await context.close();
  }
});
