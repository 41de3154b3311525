import { webPagePaths } from "@diginoor/api/web-paths";
import { expect, type Page, test } from "@playwright/test";
import { getJson, type NftSummaryLite } from "./support/api.ts";
import { VIEWPORTS, waitForData, watchPage } from "./support/page.ts";

/**
 * No link leads to a 404. Starting from every public page (the server's list in @diginoor/api, equal to the app's routes),
 * each page is loaded, every same-site link on it (and, on a phone, in the opened menu) is queued
 * and loaded in turn until none is left. Every page must render without the not-found page, a
 * console error, a failed request or an HTTP error; links to server resources must answer < 400.
 */

/** Pages that need a signed-in user or a token from a mail: not public. */
const privatePages = new Set([
  "/profile",
  "/profile/edit_profile",
  "/edit_profile",
  "/verify-email",
  "/admin",
]);
/** Every public page the server knows, plus the spec's capitalised film paths. */
const publicPages = [
  ...webPagePaths.filter((p) => !p.includes(":") && !privatePages.has(p)),
  "/Kabali",
  "/Chandramukhi",
  "/PasumaiNayaganVivek",
];

/**
 * Pages served by the web app (everything else, e.g. /api/…, /media/… or a feed such as
 * /blog/rss.xml, is a server resource).
 */
const isAppPage = (pathname: string) =>
  !/^\/(api|media|dev|healthz|readyz)(\/|$)/.test(pathname) && !/\.(xml|txt)$/i.test(pathname);

/**
 * One visit per distinct page: the hash is dropped, and the sign-in pages are visited once whatever
 * `next` they carry (each page links to them with its own path as `next`).
 */
function visitKey(url: URL): string {
  if (/^\/(login|signup)$/i.test(url.pathname)) return url.pathname.toLowerCase();
  return url.pathname + url.search;
}

async function linksOn(page: Page, origin: string): Promise<string[]> {
  const hrefs = await page
    .locator("a[href]")
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  return hrefs.filter((h) => new URL(h).origin === origin);
}

test.describe.configure({ mode: "parallel" });

for (const viewport of VIEWPORTS) {
  test(`every internal link works at ${viewport.width}px`, async ({ page, baseURL }) => {
    test.setTimeout(420_000);
    await page.setViewportSize(viewport);
    const origin = new URL(baseURL as string).origin;
    const watch = watchPage(page);

    const nfts = await getJson<{ items: NftSummaryLite[] }>(page.request, "/api/v1/nfts?limit=50");
    const firstFixed = nfts.items.find((n) => n.saleType === "fixed");
    const firstAuction = nfts.items.find((n) => n.saleType === "auction");
    const seeds = [...publicPages, `/nftdetail/${firstFixed!.id}`, `/nftdetail/${firstAuction!.id}`];

    const queue: { url: URL; from: string }[] = seeds.map((p) => ({
      url: new URL(p, origin),
      from: "(start)",
    }));
    const seen = new Set<string>();
    const visited: string[] = [];
    let menuLinksRead = false;

    while (queue.length > 0) {
      const { url, from } = queue.shift()!;
      const key = visitKey(url);
      if (seen.has(key)) continue;
      seen.add(key);
      const label = `${url.pathname}${url.search} (linked from ${from})`;

      if (!isAppPage(url.pathname)) {
        const res = await page.request.get(url.href);
        expect(res.status(), label).toBeLessThan(400);
        continue;
      }

      await page.goto(url.href);
      await waitForData(page);
      await expect(page.getByTestId("not-found"), `${label} shows the 404 page`).toHaveCount(0);
      await expect(page.locator("h1").first(), `${label} has a heading`).toBeVisible();
      const found = await linksOn(page, origin);
      if (!menuLinksRead && viewport.width < 464) {
        // The phone menu (Contact, My Account, Wallet, …) lives in a dialog opened from the header.
        await page.getByRole("button", { name: "Open menu" }).click();
        const dialog = page.getByRole("dialog", { name: "Menu" });
        await expect(dialog).toBeVisible();
        found.push(...(await linksOn(page, origin)));
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
        menuLinksRead = true;
      }
      // Let images started by the page finish, so leaving it does not abort them.
      await page.waitForLoadState("networkidle");
      expect(watch.problems, `${label}:\n${watch.problems.join("\n")}`).toEqual([]);
      visited.push(key);
      for (const href of found) {
        const next = new URL(href);
        next.hash = "";
        if (!seen.has(visitKey(next))) queue.push({ url: next, from: url.pathname + url.search });
      }
    }

    // The crawl reached the pages the header, footer and guides link to, and many NFT pages.
    for (const must of ["/blog", "/wallet", "/how%20it%20works", "/contact?topic=jobs"]) {
      expect(visited, `${must} was visited`).toContain(must);
    }
    expect(visited.filter((v) => v.startsWith("/nftdetail/")).length).toBeGreaterThan(10);
    test.info().annotations.push({ type: "pages visited", description: String(visited.length) });
  });
}
