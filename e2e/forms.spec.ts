import { authMessages } from "@diginoor/api/auth";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectNoProblems, screenshot, VIEWPORTS, watchPage } from "./support/page.ts";

/**
 * The form kit (apps/web/src/lib/form.ts, decision 072) in a real browser, on the sign-up form: the
 * shared schema's messages on their fields, the keyboard focus on the first invalid field, and the
 * API's `validation_failed` details shown on the fields they name.
 */

const signupForm = (page: Page) => page.getByRole("form", { name: "Sign up" });

async function fill(
  form: Locator,
  v: { name: string; phone?: string; email: string; password: string; confirm: string },
) {
  await form.getByLabel("Name").fill(v.name);
  if (v.phone) await form.getByLabel("Phone").fill(v.phone);
  await form.getByLabel("Email").fill(v.email);
  await form.getByLabel("Password", { exact: true }).fill(v.password);
  await form.getByLabel("Confirm Password").fill(v.confirm);
}

test("client checks: the schema's messages, focus on the first invalid field", async ({ page }) => {
  const watch = watchPage(page);
  await page.goto("/signup");
  const form = signupForm(page);
  await form.getByRole("button", { name: "SIGN UP" }).click();
  await expect(form.getByLabel("Name")).toBeFocused();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("Email is required")).toBeVisible();
  await expect(form.getByText("Confirm Password is required")).toBeVisible();

  await fill(form, {
    name: "Meena Iyer",
    email: "not-an-email",
    password: "long-enough-1",
    confirm: "long-enough-2",
  });
  await form.getByRole("button", { name: "SIGN UP" }).click();
  // The name is fine now: the focus goes to the email, the first field still wrong.
  await expect(form.getByLabel("Email")).toBeFocused();
  await expect(form.getByText(authMessages.invalidEmail)).toBeVisible();
  await expect(form.getByLabel("Name")).not.toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText(authMessages.confirmMismatch)).toBeVisible();
  expectNoProblems(watch);
});

test("server checks: validation_failed details on their fields, the first one focused", async ({ page }) => {
  const watch = watchPage(page, [{ method: "POST", path: "/api/v1/auth/signup", status: 400 }]);
  let sent = 0;
  await page.route("**/api/v1/auth/signup", async (route) => {
    sent++;
    await route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        error: {
          code: "validation_failed",
          message: "Invalid request",
          details: [
            { path: ["password"], message: "Password is on a list of leaked passwords" },
            { path: ["phone"], message: "This number cannot receive messages" },
          ],
        },
      }),
    });
  });
  await page.goto("/signup");
  const form = signupForm(page);
  await fill(form, {
    name: "Meena Iyer",
    phone: "+919876543210",
    email: "meena@example.com",
    password: "long-enough-1",
    confirm: "long-enough-1",
  });
  await form.getByRole("button", { name: "SIGN UP" }).click();

  await expect(form.getByText("This number cannot receive messages")).toBeVisible();
  await expect(form.getByText("Password is on a list of leaked passwords")).toBeVisible();
  // Phone comes before the password in the form, so it gets the focus.
  await expect(form.getByLabel("Phone")).toBeFocused();
  await expect(form.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(sent).toBe(1);
  expectNoProblems(watch);
});

for (const viewport of VIEWPORTS) {
  test(`sign-up errors at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/signup");
    await signupForm(page).getByRole("button", { name: "SIGN UP" }).click();
    await expect(signupForm(page).getByLabel("Name")).toBeFocused();
    await screenshot(page, "form-kit-signup-errors");
  });
}
