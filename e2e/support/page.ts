import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

export interface Allowed {
  method: string;
  /** Path (no query) of a response allowed to fail with `status`. */
  path: string | RegExp;
  status: number;
}

export interface PageWatch {
  problems: string[];
}

/** Whether a failed response (method, path, status) is one the test expects. */
function isAllowed(rules: Allowed[], method: string, pathname: string, status: number): boolean {
  return rules.some(
    (r) =>
      r.method === method &&
      r.status === status &&
      (typeof r.path === "string" ? r.path === pathname : r.path.test(pathname)),
  );
}

/**
 * Records console errors, uncaught exceptions, failed requests and HTTP errors. Visitors make no
 * failing request (the session probe GET /api/v1/session answers 200); Chromium logs every 4xx as a
 * console error "Failed to load resource", which is forgiven only for a response in `allowed`.
 */
export function watchPage(page: Page, allowed: Allowed[] = []): PageWatch {
  const watch: PageWatch = { problems: [] };
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (msg.text().startsWith("Failed to load resource: the server responded with a status of")) {
      const status = Number(/status of (\d+)/.exec(msg.text())?.[1]);
      const where = msg.location().url;
      const pathname = where ? new URL(where).pathname : "";
      if (allowed.some((r) => isAllowed([r], r.method, pathname, status))) return;
    }
    watch.problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => watch.problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) => {
    const failure = req.failure()?.errorText ?? "failed";
    const url = new URL(req.url());
    // Queries cancelled by the app (unmount, superseded filter) abort their fetch on purpose.
    if (failure.includes("ERR_ABORTED") && url.pathname.startsWith("/api/")) return;
    // So are images of cards a new filter replaced before they finished loading.
    if (failure.includes("ERR_ABORTED") && req.resourceType() === "image") return;
    // And the page's own scripts, styles and fonts still loading (a lazy chunk, a web font) when the
    // test navigates away.
    if (
      failure.includes("ERR_ABORTED") &&
      url.pathname.startsWith("/assets/") &&
      ["script", "stylesheet", "font"].includes(req.resourceType())
    )
      return;
    // And the page's icon, still loading when the page navigates away (e.g. to a payment provider's page).
    if (failure.includes("ERR_ABORTED") && /^\/favicon\.(svg|ico|png)$/.test(url.pathname)) return;
    // And a wallet's chain read (a JSON-RPC POST to the node) still in flight when the page navigates.
    if (failure.includes("ERR_ABORTED") && req.method() === "POST" && req.postData()?.includes('"jsonrpc"'))
      return;
    watch.problems.push(`request failed: ${req.method()} ${url.pathname}${url.search} (${failure})`);
  });
  page.on("response", (res) => {
    if (res.status() < 400) return;
    const url = new URL(res.url());
    const method = res.request().method();
    const ok = isAllowed(allowed, method, url.pathname, res.status());
    if (!ok) watch.problems.push(`${method} ${url.pathname} answered ${res.status()}`);
  });
  return watch;
}

/** Waits until no skeleton or loading placeholder is left on the page. */
export async function waitForData(page: Page) {
  // A server-rendered page shows no skeleton before it hydrates; typing or clicking into it then
  // reaches plain HTML, so the app's mark (App.tsx) comes first.
  await expect(page.locator("html[data-app='ready']")).toHaveCount(1, { timeout: 20_000 });
  await expect(page.locator("[data-skeleton], [data-loading], .page-fallback")).toHaveCount(0, {
    timeout: 20_000,
  });
}

/** Scrolls through the page so lazy images load, waits for them, and returns to the top. */
export async function settle(page: Page) {
  await page.evaluate(async () => {
    // Carousel slides off to the side never enter the viewport; load them too for the screenshot.
    for (const img of Array.from(document.images)) img.loading = "eager";
    const step = Math.max(200, Math.floor(window.innerHeight * 0.8));
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo({ top: y, behavior: "instant" });
      await new Promise((r) => setTimeout(r, 60));
    }
    window.scrollTo({ top: 0, behavior: "instant" });
  });
  await page.waitForFunction(
    () =>
      Array.from(document.images).every((img) => img.complete && (img.naturalWidth > 0 || !img.currentSrc)),
    undefined,
    // A picture's rendition not made within RENDITION_WAIT_MS comes as the original (decision 163's
    // addendum); before that, CI's whole browser suite asking at once once took over 30 s here.
    // Checked on a timer, not on animation frames: a CI run timed out here with every picture served
    // (200, whole bodies, within 0.4 s) while the other worker's lottery test kept both cores busy.
    { timeout: 30_000, polling: 250 },
  );
  await page.evaluate(() => document.fonts.ready);
}

export async function expectNoHorizontalScroll(page: Page, label = page.url()) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label} must not scroll sideways`).toBeLessThanOrEqual(innerWidth);
}

/** Full-page screenshot in e2e/screenshots/<name>-<width>.png. */
export async function screenshot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  const dir = path.join(import.meta.dirname, "..", "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  const safe = name.replace(/[^a-z0-9-]+/gi, "-").replace(/^-+|-+$/g, "") || "home";
  await page.screenshot({
    path: path.join(dir, `${safe}-${width}.png`),
    fullPage: true,
    animations: "disabled",
  });
}

export function expectNoProblems(watch: PageWatch) {
  expect(watch.problems, watch.problems.join("\n")).toEqual([]);
}

/** A step's screenshots at both widths (1440 px, then a phone at 390 px), checking for sideways scroll. */
export async function shotsAtBothWidths(page: Page, name: string) {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expectNoHorizontalScroll(page, `${name}-${viewport.width}`);
    await screenshot(page, name);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * Serves `pathname` as the server does when it could not render the page (its data failed, or took
 * longer than the renderer waits): index.html with an empty #root and no data, so the app renders
 * and fetches in the browser, where `page.route` can answer its API calls.
 */
export async function withoutServerRendering(page: Page, pathname: string) {
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      if (route.request().resourceType() !== "document") return route.fallback();
      const response = await route.fetch();
      const html = await response.text();
      const rendered =
        /<div id="root">[\s\S]*?<script type="application\/json" id="__diginoor_state">[\s\S]*?<\/script>/;
      expect(html, "the server rendered the page").toMatch(rendered);
      await route.fulfill({ response, body: html.replace(rendered, '<div id="root"></div>') });
    },
  );
}
