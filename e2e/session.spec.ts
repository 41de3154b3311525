import { expect, test } from "@playwright/test";
import { expectNoProblems, waitForData, watchPage } from "./support/page.ts";

/**
 * A signed-out visitor's pages ask who is signed in with GET /api/v1/session (200, user null) and
 * never with GET /api/v1/me (401 when signed out), so the console stays free of errors. Public pages
 * arrive rendered by the server, which asked in-process; a client-rendered page (the wallet) asks
 * from the browser.
 */
test("a visitor's session probe answers 200 and leaves no console error", async ({ page }) => {
  const watch = watchPage(page);
  const probes: { path: string; status: number }[] = [];
  page.on("response", (res) => {
    const { pathname } = new URL(res.url());
    if (pathname === "/api/v1/me" || pathname === "/api/v1/session")
      probes.push({ path: pathname, status: res.status() });
  });
  await page.goto("/");
  await waitForData(page);
  await expect(page.getByRole("link", { name: /log ?in|sign ?in/i }).first()).toBeVisible();
  await page.goto("/marketplace");
  await waitForData(page);
  const session = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/v1/session");
  await page.goto("/wallet");
  expect(await (await session).json()).toEqual({ user: null });
  await waitForData(page);
  expect(probes.length).toBeGreaterThan(0);
  expect(
    probes.every((p) => p.path === "/api/v1/session" && p.status === 200),
    JSON.stringify(probes),
  ).toBe(true);
  expectNoProblems(watch);
});
