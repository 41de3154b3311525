import { type APIRequestContext, expect, test } from "@playwright/test";
import { getJson, type NftSummaryLite, verifiedAccount } from "./support/api.ts";
import { expectNoProblems, screenshot, waitForData, watchPage } from "./support/page.ts";

/**
 * PURCHASE and Place a bid for buyers without a wallet: a visitor is sent to sign in with a line saying
 * why ('Sign in to buy Kabali Da!') and comes back to the NFT after; a signed-in buyer sees today's
 * price in the chain's token and, on paying, is sent to link a wallet first ('Please Connect Wallet to
 * Proceed'), with nothing reserved or charged. The whole purchase with a wallet is e2e/commerce.spec.ts.
 */

async function nftTitled(request: APIRequestContext, title: string): Promise<NftSummaryLite> {
  const list = await getJson<{ items: NftSummaryLite[] }>(
    request,
    `/api/v1/nfts?q=${encodeURIComponent(title)}&limit=10`,
  );
  const nft = list.items.find((n) => n.title === title);
  expect(nft, `seeded NFT ${title}`).toBeTruthy();
  return nft!;
}

async function signIn(page: import("@playwright/test").Page, account: { email: string; password: string }) {
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByRole("button", { name: "SIGN IN", exact: true }).click();
}

test("a visitor pressing PURCHASE signs in with the reason shown, comes back, sees the price and is asked for a wallet", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const watch = watchPage(page);
  const nft = await nftTitled(page.request, "Kabali Da!");
  const account = await verifiedAccount(page.request);

  await page.goto(`/nftdetail/${nft.id}`);
  await waitForData(page);
  await expect(page.getByText(/email you/i)).toHaveCount(0);
  await page.getByRole("button", { name: "Purchase" }).click();

  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText("Sign in to buy Kabali Da!")).toBeVisible();
  await screenshot(page, "login-reason");
  await signIn(page, account);

  await expect(page).toHaveURL(new RegExp(`/nftdetail/${nft.id}$`));
  await waitForData(page);
  await page.getByRole("button", { name: "Purchase" }).click();
  const dialog = page.getByRole("dialog", { name: "Buy Kabali Da!" });
  await expect(dialog.getByTestId("checkout-price")).toContainText(/\d ETH/);
  await expect(dialog.getByTestId("checkout-price")).toContainText(/^₹[\d,.]+ · \$/);
  await screenshot(page, "checkout-price-390");
  await dialog.getByRole("button", { name: "Pay with wallet" }).click();

  await expect(page).toHaveURL(/\/wallet\?next=/);
  await expect(page.getByText("Please Connect Wallet to Proceed")).toBeVisible();
  const orders = await getJson<{ items: unknown[] }>(page.request, "/api/v1/orders");
  expect(orders.items).toHaveLength(0);
  await expect(page.getByText(/we'll email/i)).toHaveCount(0);
  expectNoProblems(watch);
});

test("a visitor is asked to sign in to bid; a signed-in bidder without a wallet is sent to link one", async ({
  page,
}) => {
  const watch = watchPage(page);
  const list = await getJson<{ items: NftSummaryLite[] }>(
    page.request,
    "/api/v1/nfts?saleType=auction&limit=1",
  );
  const auction = list.items[0]!;
  // The server opens its primary auctions on the chain when it starts.
  await expect
    .poll(async () => (await page.request.get(`/api/v1/nfts/${auction.id}/auction`)).status(), {
      timeout: 60_000,
    })
    .toBe(200);
  await page.goto(`/nftdetail/${auction.id}`);
  await waitForData(page);
  await page.getByRole("button", { name: "Place a bid" }).click();
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText(`Sign in to bid on ${auction.title}`)).toBeVisible();

  const account = await verifiedAccount(page.request);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/nftdetail/${auction.id}$`));
  await waitForData(page);
  await page.getByRole("button", { name: "Place a bid" }).click();
  const dialog = page.getByRole("dialog", { name: "Place a bid" });
  await dialog.getByRole("button", { name: "Proceed to bid" }).click();
  await expect(page).toHaveURL(/\/wallet\?next=/);
  await expect(page.getByText("Please Connect Wallet to Proceed")).toBeVisible();
  expectNoProblems(watch);
});
