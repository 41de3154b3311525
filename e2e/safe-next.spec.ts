import { expect, test } from "@playwright/test";
import { verifiedAccount } from "./support/api.ts";
import { expectNoProblems, watchPage } from "./support/page.ts";

/**
 * Issue 23, point 7: a `next` that the URL parser or a decoder turns into "//host" (dot segments,
 * percent escapes) must not reach the router, which would refuse the navigation and leave the fan on
 * an error. Signing in with such a `next` lands on the home page, with no page error.
 */
const UNSAFE_NEXTS = [
  "/.//evil.example/",
  "/%2e//evil.example",
  "/a/..//evil.example",
  "/%2F%2Fevil.example",
];

test("an unsafe next after sign-in falls back to the home page", async ({ page }) => {
  const watch = watchPage(page);
  const { email, password } = await verifiedAccount(page.request);
  const form = page.getByRole("form", { name: "Sign in" });
  for (const [i, next] of UNSAFE_NEXTS.entries()) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    if (i === 0) {
      // The sign-up link does not carry the unsafe path on either.
      await expect(form.getByLabel("Email")).toBeVisible();
      await expect(page.locator('a[href^="/signup"]').first()).toHaveAttribute("href", "/signup");
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(password);
      await form.getByRole("button", { name: "SIGN IN", exact: true }).click();
    }
    // Signed in (or already signed in, for the later ones): the home page, on this site.
    await expect(page).toHaveURL((url) => url.pathname === "/" && url.host === new URL(page.url()).host, {
      timeout: 15_000,
    });
    expect(new URL(page.url()).pathname, next).toBe("/");
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expect(page.getByText(/Something went wrong|Unexpected Application Error/i)).toHaveCount(0);
  }
  // A safe `next` is still followed.
  await page.goto(`/login?next=${encodeURIComponent("/./marketplace")}`);
  await expect(page).toHaveURL(/\/marketplace$/, { timeout: 15_000 });
  expectNoProblems(watch);
});
