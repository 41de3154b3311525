import { expect, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
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

/**
 * Signing out while the notification bell's event stream is still connecting: the stream closes
 * before the sign-out request, so it never reaches the server without a session (a 401 and a
 * console error). Here the stream's request is held back until the server has ended the session,
 * and the sign-out's answer is held back until the stream's request has been answered or cancelled.
 */
test("signing out while the live event stream connects leaves no 401 and no console error", async ({
  page,
}) => {
  await signUpAndSignIn(page.request, "signout-stream", "Stream Fan");
  const watch = watchPage(page);
  let releaseStream!: () => void;
  const streamReleased = new Promise<void>((resolve) => {
    releaseStream = resolve;
  });
  let streamSettled!: () => void;
  const streamDone = new Promise<void>((resolve) => {
    streamSettled = resolve;
  });
  const isStream = (url: string) => new URL(url).pathname === "/api/v1/events";
  page.on("response", (res) => isStream(res.url()) && streamSettled());
  page.on("requestfailed", (req) => isStream(req.url()) && streamSettled());
  let held = 0;
  await page.route("**/api/v1/events", async (route) => {
    held++;
    await streamReleased;
    await route.continue().catch(() => undefined); // cancelled by the page meanwhile
  });
  await page.route("**/api/v1/auth/logout", async (route) => {
    const response = await route.fetch(); // the server ends the session; the page has no answer yet
    releaseStream();
    await streamDone;
    await route.fulfill({ response });
  });
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: "Stream Fan", level: 1 })).toBeVisible();
  await expect.poll(() => held).toBeGreaterThan(0);
  await page.locator(".user-menu-button").click();
  await page.locator(".user-menu-list").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Login", exact: true }).first()).toBeVisible();
  expectNoProblems(watch);
});
