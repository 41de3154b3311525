import type { DevMailboxResponse } from "@diginoor/api/auth";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import {
  expectNoHorizontalScroll,
  expectNoProblems,
  screenshot,
  VIEWPORTS,
  watchPage,
} from "./support/page.ts";

/**
 * The life of an account in the browser: sign up, verify by following the mailed link from
 * /dev/mailbox, sign in, edit the profile, upload an avatar, change the password (which signs out),
 * sign in again with the new password. Also: wrong password and mismatched confirmation messages,
 * and screenshots of the accounts pages at phone and desktop widths.
 */

/**
 * This test navigates with page.goto while the previous page may still be fetching (its favicon, an
 * image): Chromium cancels those GETs with ERR_ABORTED. That is the test leaving, not a failure.
 */
function expectNoProblemsBesidesNavigationAborts(watch: { problems: string[] }) {
  expectNoProblems({
    problems: watch.problems.filter((p) => !/^request failed: GET .*\(net::ERR_ABORTED\)$/.test(p)),
  });
}

function uniqueEmail(tag: string) {
  return `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

async function latestMailLink(request: APIRequestContext, to: string, pathPart: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get("/dev/mailbox/api");
        expect(res.ok()).toBe(true);
        const body = (await res.json()) as DevMailboxResponse;
        const mail = body.messages.find((m) => m.to.toLowerCase().includes(to.toLowerCase()));
        link = mail?.links.find((l) => l.includes(pathPart));
        return link;
      },
      { message: `mail with ${pathPart} to ${to}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return link as string;
}

// The footer has its own email field (newsletter), so every lookup is scoped to the page's form.
const signupForm = (page: Page) => page.getByRole("form", { name: "Sign up" });
const loginForm = (page: Page) => page.getByRole("form", { name: "Sign in" });

async function signUp(page: Page, user: { name: string; email: string; phone: string; password: string }) {
  const form = signupForm(page);
  await form.getByLabel("Name").fill(user.name);
  await form.getByLabel("Phone").fill(user.phone);
  await form.getByLabel("Email").fill(user.email);
  await form.getByLabel("Password", { exact: true }).fill(user.password);
  await form.getByLabel("Confirm Password").fill(user.password);
  await form.getByRole("button", { name: "SIGN UP" }).click();
}

async function signIn(page: Page, email: string, password: string) {
  const form = loginForm(page);
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: "SIGN IN", exact: true }).click();
}

async function smallPng(): Promise<Buffer> {
  // A small poster-like picture (gradient and a ring) so the screenshot shows a real image.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#e9b949"/><stop offset="1" stop-color="#ff5a4e"/></linearGradient></defs>
    <rect width="160" height="160" fill="url(#g)"/>
    <circle cx="80" cy="68" r="30" fill="#1d1403" opacity="0.8"/>
    <rect x="34" y="108" width="92" height="40" rx="20" fill="#1d1403" opacity="0.8"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Full-page screenshots at phone and desktop width, checking that nothing scrolls sideways. */
async function screenshotAtWidths(page: Page, name: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectNoHorizontalScroll(page);
    // The header is sticky: shoot from the top so it is drawn where a visitor sees it.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `accounts-${name}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe("accounts", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("sign up, verify by mail, sign in, edit profile, upload avatar, change password", async ({ page }) => {
    test.setTimeout(120_000);
    const watch = watchPage(page, [
      { method: "POST", path: "/api/v1/auth/login", status: 403 }, // not verified yet
      { method: "POST", path: "/api/v1/auth/login", status: 401 }, // the old password after the change
      { method: "POST", path: "/api/v1/auth/verify-email", status: 400 }, // the link used twice
    ]);
    const email = uniqueEmail("life");
    const password = "first-pass-123";
    const newPassword = "second-pass-456";

    // Sign up.
    await page.goto("/signup");
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await expect(signupForm(page).getByLabel("Phone")).toHaveAttribute(
      "placeholder",
      "Phone Number with country code",
    );
    await expect(signupForm(page).getByLabel("Password", { exact: true })).toHaveAttribute(
      "placeholder",
      "min 9 characters",
    );
    await screenshotAtWidths(page, "signup");
    await signUp(page, { name: "Meena Iyer", email, phone: "+91 98765 43210", password });
    await expect(page.getByText("Verification Email Sent, Please check your Inbox")).toBeVisible();
    await expect(page.getByText("Redirecting to Login Page").first()).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

    // An unverified account cannot sign in yet, and is offered a new link.
    await signIn(page, email, password);
    await expect(page.getByText("Please verify your email address")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();

    // Follow the verification link from the dev mailbox.
    const link = await latestMailLink(page.request, email, "/verify-email?token=");
    await page.goto("/dev/mailbox");
    const mailboxLink = page.locator(`a[href="${link}"]`).first();
    await expect(mailboxLink).toBeVisible();
    const href = new URL((await mailboxLink.getAttribute("href")) as string);
    expect(href.pathname).toBe("/verify-email");
    await page.goto(`${href.pathname}${href.search}`);
    await expect(page.getByRole("heading", { name: "Email verified" })).toBeVisible();
    // The link works once: opening it again is refused.
    await page.goto(`${href.pathname}${href.search}`);
    await expect(page.getByText("This link is invalid or has expired")).toBeVisible();

    // A visitor who opens the profile is sent to sign in, then brought back.
    await page.goto("/profile");
    await expect(page.getByText("Please Login to Continue")).toBeVisible();
    await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
    await screenshotAtWidths(page, "login");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: "Meena Iyer", level: 1 })).toBeVisible();
    // The sign-in prompt does not linger once the user is signed in.
    await expect(page.getByText("Please Login to Continue")).toHaveCount(0);
    await expect(page.getByText("No wallet connected")).toBeVisible();
    // The header shows the user menu with Profile and Sign out.
    const menuButton = page.locator(".user-menu-button");
    await expect(menuButton).toContainText("Meena Iyer");
    await menuButton.click();
    await expect(page.locator(".user-menu-list").getByRole("link", { name: "Profile" })).toBeVisible();
    await expect(page.locator(".user-menu-list").getByRole("button", { name: "Sign out" })).toBeVisible();
    await menuButton.click();
    // Tabs with honest empty states, reachable by keyboard.
    await page.getByRole("tab", { name: "Bids" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Showcase" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("Your showcase is empty")).toBeVisible();
    await screenshotAtWidths(page, "profile");

    // Edit the profile: name and phone.
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await expect(page).toHaveURL(/\/profile\/edit_profile$/);
    const personal = page.getByRole("form", { name: "Personal info" });
    await personal.getByLabel("Name").fill("Meena R. Iyer");
    await personal.getByLabel("Phone").fill("+44 7700 900123");
    await personal.getByRole("button", { name: "SAVE CHANGES" }).click();
    await expect(page.getByText("Horray..! User Updated Successfully!")).toBeVisible();
    await expect(menuButton).toContainText("Meena R. Iyer");
    await expect(personal.getByLabel("Phone")).toHaveValue("+447700900123");

    // A renamed text file is refused before upload; a real PNG is uploaded and shown from /media.
    await page.locator('input[name="cover"]').setInputFiles({
      name: "cover.png",
      mimeType: "image/png",
      buffer: Buffer.from("this is not an image"),
    });
    await expect(page.getByText("Only JPEG or PNG images are allowed").first()).toBeVisible();
    await page.locator('input[name="avatar"]').setInputFiles({
      name: "avatar.png",
      mimeType: "image/png",
      buffer: await smallPng(),
    });
    await expect(page.getByText("Profile picture updated")).toBeVisible();
    const avatar = page.getByRole("img", { name: "Meena R. Iyer's profile picture" });
    await expect(avatar).toHaveAttribute("src", /\/media\//);
    // The picture loads and decodes (polled: the src is set before the image has arrived).
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await screenshotAtWidths(page, "edit-profile");

    // The new values survive a reload (saved on the server, not in local storage).
    await page.reload();
    await expect(page.getByRole("form", { name: "Personal info" }).getByLabel("Name")).toHaveValue(
      "Meena R. Iyer",
    );

    // Change the password: a mismatch is refused with the spec's text, then the real change signs out.
    const security = page.getByRole("form", { name: "Security" });
    await security.getByLabel("Current password").fill(password);
    await security.getByLabel("New password").fill(newPassword);
    await security.getByLabel("Confirm Password").fill(`${newPassword}x`);
    await security.getByRole("button", { name: "UPDATE PASSWORD" }).click();
    await expect(security.getByText("OMG..! Confirm Password Not Matched !")).toBeVisible();
    await security.getByLabel("Confirm Password").fill(newPassword);
    await security.getByRole("button", { name: "UPDATE PASSWORD" }).click();
    await expect(page.getByText("Wow..! Password Updated")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("link", { name: "Login", exact: true }).first()).toBeVisible();

    // The old password no longer works; the new one does.
    await signIn(page, email, password);
    await expect(page.getByText("Invalid email or password", { exact: true })).toBeVisible();
    await signIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/$/);
    await expect(menuButton).toContainText("Meena R. Iyer");

    expectNoProblemsBesidesNavigationAborts(watch);
  });

  test("wrong password and mismatched confirmation show the right messages", async ({ page }) => {
    const watch = watchPage(page, [{ method: "POST", path: "/api/v1/auth/login", status: 401 }]);

    // Mismatched confirmation on sign-up: refused in the browser with the spec's text, nothing sent.
    await page.goto("/signup");
    let signupPosts = 0;
    page.on("request", (req) => {
      if (req.method() === "POST" && new URL(req.url()).pathname === "/api/v1/auth/signup") signupPosts++;
    });
    const form = signupForm(page);
    await form.getByLabel("Name").fill("Ravi");
    await form.getByLabel("Email").fill(uniqueEmail("mismatch"));
    await form.getByLabel("Password", { exact: true }).fill("long-enough-1");
    await form.getByLabel("Confirm Password").fill("long-enough-2");
    await form.getByRole("button", { name: "SIGN UP" }).click();
    await expect(form.getByText("OMG..! Confirm Password Not Matched !")).toBeVisible();
    await expect(form.getByLabel("Confirm Password")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Confirm Password")).toBeFocused();
    // A short password and a bad phone are named too.
    await form.getByLabel("Password", { exact: true }).fill("short");
    await form.getByLabel("Phone").fill("98765");
    await form.getByRole("button", { name: "SIGN UP" }).click();
    await expect(form.getByText("Password must be at least 9 characters")).toBeVisible();
    await expect(form.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
    expect(signupPosts).toBe(0);
    await screenshotAtWidths(page, "signup-errors");

    // Invalid email and wrong password on sign-in.
    await page.goto("/login");
    await signIn(page, "not-an-email", "whatever-123");
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await signIn(page, uniqueEmail("nobody"), "wrong-password-1");
    const alert = page.getByRole("alert").filter({ hasText: "Invalid email or password" });
    await expect(alert).toBeVisible();
    await expect(loginForm(page).getByRole("button", { name: "SIGN IN", exact: true })).toBeEnabled();

    // Google sign-in: the button appears only when the server has it configured, and keeps `next`.
    await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveCount(0);
    await page.route("**/api/v1/auth/providers", (route) => route.fulfill({ json: { google: true } }));
    await page.goto("/login?next=%2Fprofile&error=google");
    await expect(page.getByText("Google sign-in did not complete")).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveAttribute(
      "href",
      "/api/v1/auth/google/start?next=%2Fprofile",
    );
    // An unsafe `next` is dropped, never passed on.
    await page.goto("/login?next=%2F%2Fevil.example%2F");
    await expect(page.getByRole("link", { name: "Continue with Google" })).toHaveAttribute(
      "href",
      "/api/v1/auth/google/start",
    );
    await screenshotAtWidths(page, "login-google");
    await page.unroute("**/api/v1/auth/providers");

    // Reset request always answers the same way.
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/resetpass$/);
    await page
      .getByRole("form", { name: "Request a reset link" })
      .getByLabel("Email")
      .fill(uniqueEmail("reset"));
    await page.getByRole("button", { name: "SEND RESET LINK" }).click();
    await expect(page.getByText("Password reset link sent email").first()).toBeVisible();

    expectNoProblemsBesidesNavigationAborts(watch);
  });

  test("reset the password by mail, change the email with re-verification, signed-in redirects", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const watch = watchPage(page, [
      { method: "POST", path: "/api/v1/auth/password-reset/confirm", status: 400 }, // the link used twice
      { method: "POST", path: "/api/v1/me/email", status: 400 }, // a wrong current password
    ]);
    const email = uniqueEmail("reset");
    const newEmail = uniqueEmail("moved");
    const password = "forgotten-pass-1";
    const newPassword = "remembered-pass-2";

    // Sign up, then forget the password before ever verifying.
    await page.goto("/signup");
    await signUp(page, { name: "Arjun Das", email, phone: "", password });
    await expect(page.getByText("Verification Email Sent, Please check your Inbox")).toBeVisible();

    await page.goto("/resetpass");
    const request = page.getByRole("form", { name: "Request a reset link" });
    await request.getByLabel("Email").fill(email.toUpperCase());
    await request.getByRole("button", { name: "SEND RESET LINK" }).click();
    await expect(page.getByText("Password reset link sent email").first()).toBeVisible();
    await screenshotAtWidths(page, "resetpass");

    // Follow the reset link; a mismatch is refused, then the new password is set.
    const resetLink = new URL(await latestMailLink(page.request, email, "/resetpass?token="));
    await page.goto(`${resetLink.pathname}${resetLink.search}`);
    const choose = page.getByRole("form", { name: "Choose a new password" });
    await choose.getByLabel("New password").fill(newPassword);
    await choose.getByLabel("Confirm Password").fill("something-else-3");
    await choose.getByRole("button", { name: "SAVE NEW PASSWORD" }).click();
    await expect(choose.getByText("OMG..! Confirm Password Not Matched !")).toBeVisible();
    await choose.getByLabel("Confirm Password").fill(newPassword);
    await choose.getByRole("button", { name: "SAVE NEW PASSWORD" }).click();
    await expect(page.getByText("Password changed. Sign in with your new password.")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    // The reset link works once.
    await page.goto(`${resetLink.pathname}${resetLink.search}`);
    await choose.getByLabel("New password").fill("yet-another-pass-4");
    await choose.getByLabel("Confirm Password").fill("yet-another-pass-4");
    await choose.getByRole("button", { name: "SAVE NEW PASSWORD" }).click();
    await expect(page.getByText("This link is invalid or has expired")).toBeVisible();
    await expect(page.getByRole("link", { name: "Ask for a new reset link" })).toBeVisible();

    // The reset proved the address, so signing in works and returns to the page asked for.
    await page.goto("/login?next=%2Fedit_profile");
    await signIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/edit_profile$/);
    await expect(page.getByRole("heading", { name: "Edit profile" })).toBeVisible();

    // Signed-in users have nothing to do on the sign-in and reset pages.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/resetpass");
    await expect(page).toHaveURL(/\/$/);

    // Change the email: the current password is checked, and the change waits for the new address.
    await page.goto("/profile/edit_profile");
    const emailForm = page.getByRole("form", { name: "Email", exact: true });
    await emailForm.getByLabel("New email").fill(newEmail);
    await emailForm.getByLabel("Current password").fill("not-my-password");
    await emailForm.getByRole("button", { name: "SEND VERIFICATION LINK" }).click();
    await expect(emailForm.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await emailForm.getByLabel("Current password").fill(newPassword);
    await emailForm.getByRole("button", { name: "SEND VERIFICATION LINK" }).click();
    await expect(page.getByText(`A verification link was sent to ${newEmail}`)).toBeVisible();
    await expect(page.getByText(`You sign in with ${email}`)).toBeVisible();

    const verifyLink = new URL(await latestMailLink(page.request, newEmail, "/verify-email?token="));
    await page.goto(`${verifyLink.pathname}${verifyLink.search}`);
    await expect(page.getByRole("heading", { name: "Email verified" })).toBeVisible();
    await expect(page.getByText(newEmail)).toBeVisible();

    // Sign out from the header while on the profile: home, without a "Please Login" warning.
    await page.getByRole("link", { name: "Sign in" }).click(); // the verified page's button
    await expect(page).toHaveURL(/\/$/); // already signed in: the sign-in page sends home
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "Arjun Das", level: 1 })).toBeVisible();
    await page.locator(".user-menu-button").click();
    await page.locator(".user-menu-list").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Login", exact: true }).first()).toBeVisible();
    await expect(page.getByText("Please Login to Continue")).toHaveCount(0);
    await page.goto("/login");
    await signIn(page, newEmail, newPassword);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator(".user-menu-button")).toContainText("Arjun Das");

    expectNoProblemsBesidesNavigationAborts(watch);
  });
});
