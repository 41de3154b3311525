import { type Locator, expect, type Page, test } from "@playwright/test";
import { getJson, type NftSummaryLite, verifiedAccount } from "./support/api.ts";
import { expectNoProblems, screenshot, waitForData, watchPage } from "./support/page.ts";

/** Issue 8, items 16 to 18: what a phone user sees first, and the small things a user feels. */

const phone = { width: 390, height: 844 };

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, "element has a box").not.toBeNull();
  return b!;
}
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function firstFixed(page: Page): Promise<NftSummaryLite> {
  return (await getJson<{ items: NftSummaryLite[] }>(page.request, "/api/v1/nfts?saleType=fixed&limit=1"))
    .items[0]!;
}

test("phone detail page: price and PURCHASE in the first screen; badge and buttons off the artwork", async ({
  page,
}) => {
  await page.setViewportSize(phone);
  const watch = watchPage(page);
  const nft = await firstFixed(page);
  await page.goto(`/nftdetail/${nft.id}`);
  await waitForData(page);
  await page.evaluate(() => document.fonts.ready);
  const purchase = await box(page.getByRole("button", { name: "Purchase" }));
  expect(purchase.y + purchase.height, "PURCHASE ends inside the first screen").toBeLessThanOrEqual(
    phone.height,
  );
  const price = await box(page.getByTestId("nft-price"));
  expect(price.y + price.height).toBeLessThanOrEqual(phone.height);
  await page.screenshot({ path: "e2e/screenshots/ux-detail-first-screen-390.png" });

  const art = await box(page.locator(".nft-media img"));
  for (const control of [
    page.getByRole("button", { name: /^Like( \d+ likes?)?$/ }),
    page.getByRole("button", { name: "Share this NFT" }),
    page.locator(".nft-head .tier-badge"),
  ]) {
    expect(overlaps(await box(control), art), "control does not cover the artwork").toBe(false);
  }
  // 'Buy now' names the sale type: plain text, not something that looks pressable.
  const saleType = page.locator(".nft-head").getByText("Buy now", { exact: true });
  const look = await saleType.evaluate((el) => {
    const s = getComputedStyle(el);
    return {
      border: s.borderStyle,
      background: s.backgroundColor,
      role: el.getAttribute("role"),
      tag: el.tagName,
    };
  });
  expect(look).toEqual({ border: "none", background: "rgba(0, 0, 0, 0)", role: null, tag: "SPAN" });

  // Cards: the tier badge and like/share sit below the art, not over it.
  const card = page.getByTestId("nft-card").first();
  await card.scrollIntoViewIfNeeded();
  const cardArt = await box(card.locator("img"));
  for (const control of [card.locator(".tier-badge"), card.getByRole("button", { name: /^Like / })]) {
    expect(overlaps(await box(control), cardArt)).toBe(false);
  }
  expectNoProblems(watch);
});

test("marketplace puts search and filters first; on a phone the filters open in a sheet", async ({
  page,
}) => {
  await page.setViewportSize(phone);
  const watch = watchPage(page);
  await page.goto("/marketplace");
  await waitForData(page);
  const search = await box(page.getByPlaceholder("search nfts..."));
  const auctions = await box(page.getByRole("heading", { name: "Top auctions" }));
  expect(search.y).toBeLessThan(auctions.y);
  expect(search.y + search.height).toBeLessThanOrEqual(phone.height);
  await expect(page.getByLabel("Rarity", { exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: "Filters" }).click();
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await expect(sheet).toBeVisible();
  await sheet.getByLabel("Rarity", { exact: true }).selectOption("rare");
  await expect(page).toHaveURL(/[?&]tier=rare/);
  await screenshot(page, "ux-marketplace-filter-sheet");
  await sheet.getByRole("button", { name: /^Show \d+\+? NFTs?$/ }).click();
  await expect(sheet).toBeHidden();
  await expect(page.getByRole("button", { name: "Filters (1)" })).toBeVisible();
  // With a filter on, the carousel steps aside: the first result is on the first screen.
  await expect(page.getByRole("heading", { name: "Top auctions" })).toHaveCount(0);
  const first = await box(
    page.locator("section[aria-labelledby='browse-title'] [data-testid='nft-card']").first(),
  );
  expect(first.y).toBeLessThan(phone.height);

  await page.getByPlaceholder("search nfts...").fill("kabali");
  await expect(page).toHaveURL(/[?&]q=kabali/);
  await waitForData(page);
  const hit = await box(
    page.locator("section[aria-labelledby='browse-title'] [data-testid='nft-card']").first(),
  );
  expect(hit.y, "search results are on screen").toBeLessThan(phone.height);
  expectNoProblems(watch);
});

test("desktop marketplace: search and the filter row above the carousel", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/marketplace");
  await waitForData(page);
  const rarity = await box(page.getByLabel("Rarity", { exact: true }));
  const auctions = await box(page.getByRole("heading", { name: "Top auctions" }));
  expect(rarity.y).toBeLessThan(auctions.y);
});

test("collections: Explore does not repeat the Top sellers cards", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const watch = watchPage(page);
  await page.goto("/collections");
  await waitForData(page);
  const titles = (section: string) =>
    page.locator(`section[aria-labelledby='${section}'] .nft-card-link`).allTextContents();
  const explore = await titles("explore-title");
  const top = await titles("top-title");
  expect(explore.length).toBeGreaterThan(0);
  expect(top.length).toBeGreaterThan(0);
  expect(explore.filter((t) => top.includes(t))).toEqual([]);
  expectNoProblems(watch);
});

test("sign-in explains its single message; sign-up's success card is not under the header", async ({
  page,
}) => {
  await page.setViewportSize(phone);
  await page.goto("/login");
  await expect(page.getByText(/never says whether an email has an account/)).toBeVisible();

  await page.goto("/signup");
  const form = page.getByRole("form", { name: "Sign up" });
  await form.getByLabel("Name").fill("Scroll Fan");
  await form.getByLabel("Email").fill(`e2e-scroll-${Date.now()}@example.com`);
  await form.getByLabel("Password", { exact: true }).fill("scroll-password-9");
  await form.getByLabel("Confirm Password").fill("scroll-password-9");
  await form.getByRole("button", { name: "SIGN UP" }).click();
  const card = page.getByRole("heading", { name: "Check your inbox" });
  await expect(card).toBeVisible();
  const header = await box(page.locator(".site-header"));
  const heading = await box(card);
  expect(heading.y, "success heading below the sticky header").toBeGreaterThanOrEqual(
    header.y + header.height,
  );
});

test("user menu: Escape gives focus back to its button; profile Share shares the public profile", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    // Record what the page hands to the system share sheet.
    Object.defineProperty(navigator, "share", {
      value: async (data: ShareData) => {
        (window as unknown as { shared: ShareData }).shared = data;
      },
    });
  });
  const account = await verifiedAccount(page.request);
  await page.goto("/login");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByRole("button", { name: "SIGN IN", exact: true }).click();
  const menuButton = page.locator(".user-menu-button");
  await expect(menuButton).toBeVisible();
  await menuButton.click();
  await expect(page.getByRole("link", { name: "Profile" })).toBeVisible();
  await page.getByRole("link", { name: "Profile" }).focus();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("link", { name: "Profile" })).toHaveCount(0);
  await expect(menuButton).toBeFocused();

  await page.goto("/profile");
  await page.getByRole("button", { name: "Share" }).click();
  const shared = await page.waitForFunction(() => (window as unknown as { shared?: ShareData }).shared);
  const url = (await shared.jsonValue()) as ShareData;
  // Own profile shares the public page (/u/<handle>): /profile would show each recipient their own.
  const me = (await (await page.request.get("/api/v1/me")).json()) as { user: { handle: string } };
  expect(new URL(url.url!).pathname).toBe(`/u/${me.user.handle}`);
});
