import { type APIRequestContext, expect, test } from "@playwright/test";
import { getJson, type NftSummaryLite, verifiedAccount } from "./support/api.ts";
import { expectNoProblems, screenshot, waitForData, watchPage } from "./support/page.ts";

/**
 * PURCHASE and Place a bid are honest until checkout exists: a visitor is sent to sign in with a
 * line saying why ('Sign in to buy Kabali Da!') and comes back to the NFT after; a signed-in buyer
 * is told plainly that checkout is not open yet, with no promise of an email.
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

test("a visitor pressing PURCHASE signs in with the reason shown, comes back, and is told checkout is not open", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const watch = watchPage(page);
  const nft = await nftTitled(page.request, "Kabali Da!");
  const account = await verifiedAccount(page.request);

  await page.goto(`/nftdetail/${nft.id}`);
  await waitForData(page);
  await expect(page.getByText("Checkout is not open yet.", { exact: false }).first()).toBeVisible();
  await expect(page.getByText(/email you/i)).toHaveCount(0);
  await page.getByRole("button", { name: "Purchase" }).click();

  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText("Sign in to buy Kabali Da!")).toBeVisible();
  await screenshot(page, "login-reason");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByRole("button", { name: "SIGN IN", exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/nftdetail/${nft.id}$`));
  await waitForData(page);
  await page.getByRole("button", { name: "Purchase" }).click();
  const status = page.getByRole("status").filter({ hasText: "Checkout is not open yet" });
  await expect(status).toBeVisible();
  await expect(status).toContainText("No order was placed and nothing was charged.");
  await expect(page.getByText(/we'll email/i)).toHaveCount(0);
  expectNoProblems(watch);
});

test("a signed-in bidder is told bidding is not open yet; a visitor is asked to sign in to bid", async ({
  page,
}) => {
  const watch = watchPage(page);
  const list = await getJson<{ items: NftSummaryLite[] }>(
    page.request,
    "/api/v1/nfts?saleType=auction&limit=1",
  );
  const auction = list.items[0]!;
  await page.goto(`/nftdetail/${auction.id}`);
  await waitForData(page);
  await page.getByRole("button", { name: "Place a bid" }).click();
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText(`Sign in to bid on ${auction.title}`)).toBeVisible();

  const account = await verifiedAccount(page.request);
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByRole("button", { name: "SIGN IN", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/nftdetail/${auction.id}$`));
  await waitForData(page);
  await page.getByRole("button", { name: "Place a bid" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Bidding is not open yet" })).toBeVisible();
  expectNoProblems(watch);
});
