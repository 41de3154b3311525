import { expect, type Locator, type Page } from "@playwright/test";
import { VIEWPORTS } from "./page.ts";

/**
 * Every visible amount of money on the page (or inside `within`), checked against issue 28's rule:
 * a price reads rupees first, then dollars, then the crypto amount where crypto is paid, in the one
 * format of packages/api's money module ("₹1,26,750 · $1,500 · 0.5 ETH"). Returns one line per
 * problem: a price element or an amount in a sentence that does not start with ₹ (a bare "$12" or
 * "0.5 ETH"), or one in another format. A sentence that states what is charged in the charged currency
 * ("Charged in rupees: ₹1,014.") is marked `data-price-note` and is not a price of its own.
 */
export async function priceProblems(page: Page, where: string, within?: Locator): Promise<string[]> {
  const root = within ? await within.elementHandle() : null;
  const found = await page.evaluate((scope) => {
    const out: { kind: "bare" | "price"; text: string }[] = [];
    const money = /₹\s?\d|\$\s?\d|\d\s?(ETH|MATIC|POL)\b/;
    const base = (scope as Element | null) ?? document.body;
    const walker = document.createTreeWalker(base, NodeFilter.SHOW_TEXT);
    const prices = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? "";
      if (!money.test(text)) continue;
      const el = n.parentElement;
      if (!el?.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      if (el.closest("[data-price-note], input, textarea, script, style")) continue;
      const price = el.closest("[data-price]");
      if (price) prices.add(price);
      else
        out.push({
          kind: "bare",
          text: (el.closest("p, li, dd, div, button, span") ?? el).textContent ?? "",
        });
    }
    for (const p of prices) out.push({ kind: "price", text: p.textContent ?? "" });
    return out;
  }, root);
  const amount = {
    inr: "₹\\d{1,3}(?:,\\d{2})*(?:,\\d{3})?(?:\\.\\d{2})?",
    usd: "\\$\\d{1,3}(?:,\\d{3})*(?:\\.\\d{2})?",
    native: "\\d{1,3}(?:,\\d{3})*(?:\\.\\d+)? [A-Z]{2,6}",
  };
  const format = new RegExp(`^${amount.inr}(?: · ${amount.usd})?(?: · ${amount.native})?$`);
  // A run of amounts joined by " · " inside a sentence ("Paid ₹1,690 · $20 by card").
  const any = "(?:₹[\\d,]+(?:\\.\\d+)?|\\$[\\d,]+(?:\\.\\d+)?|\\d[\\d,]*(?:\\.\\d+)? (?:ETH|MATIC|POL))";
  const runs = new RegExp(`${any}(?: · ${any})*`, "g");
  const problems: string[] = [];
  for (const f of found) {
    const text = f.text.replace(/\s+/g, " ").trim();
    if (f.kind === "price") {
      if (!text.startsWith("₹")) problems.push(`${where}: a price that is not rupees first: "${text}"`);
      else if (!format.test(text)) problems.push(`${where}: a price in another format: "${text}"`);
      continue;
    }
    for (const run of text.match(runs) ?? []) {
      if (!format.test(run))
        problems.push(`${where}: "${run}" is not a rupees-first price (in "${text.slice(0, 120)}")`);
    }
  }
  return problems;
}

/** How many prices the page (or `within`) shows: a check that found nothing to check proves nothing. */
export async function priceCount(page: Page, within?: Locator): Promise<number> {
  return (within ?? page.locator("body")).locator("[data-price]").count();
}

/**
 * At 390 and then 1440 px (where the specs go on): there are prices to check, and `priceProblems`
 * finds none.
 */
export async function expectRupeesFirst(page: Page, where: string, within?: Locator) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const at = `${where} ${viewport.width}px`;
    await expect((within ?? page.locator("body")).locator("[data-price]").first(), at).toBeVisible();
    // Polled: a price first shows its crypto amount alone while the exchange rates are still loading.
    await expect.poll(() => priceProblems(page, at, within)).toEqual([]);
  }
}
