import { expect, type Page, test } from "@playwright/test";
import { E2E_PASSWORD, signUpAndSignIn } from "./support/accounts.ts";
import { expectNoHorizontalScroll, VIEWPORTS } from "./support/page.ts";
import fs from "node:fs";
import path from "node:path";

/**
 * Data rights (issue 25 point 2, decision 170) in the browser: Edit Profile's "Download my data" mails
 * a one-time link to the archive, and "Delete my account" (a dialog asking for the password) erases the
 * account: the fan is signed out and cannot sign in again. Screenshots at 390 and 1440 px.
 */
interface DevMailboxResponse {
  messages: { to: string; subject: string; links: string[] }[];
}

async function shot(page: Page, target: ReturnType<Page["locator"]>, name: string) {
  const dir = path.join(import.meta.dirname, "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  await expectNoHorizontalScroll(page, name);
  await target.screenshot({
    path: path.join(dir, `${name}-${page.viewportSize()?.width}.png`),
    animations: "disabled",
  });
}

test("Download my data mails a one-time link; Delete my account erases the account", async ({ page }) => {
  const { email } = await signUpAndSignIn(page.request, "rights", "Rights Fan");
  await page.goto("/profile/edit_profile");
  const card = page.getByRole("region", { name: "Your data" });
  await expect(card).toBeVisible();

  // The newsletter consent: given and withdrawn with one switch.
  const newsletter = page.getByRole("switch", { name: /Diginoor newsletter/ });
  await newsletter.click();
  await expect(newsletter).toBeChecked();
  await expect(page.getByText(/subscribed since/)).toBeVisible();
  await newsletter.click();
  await expect(newsletter).not.toBeChecked();

  await card.getByRole("button", { name: "DOWNLOAD MY DATA" }).click();
  await expect(card.getByRole("status")).toContainText("A download link will arrive by email");
  let link: string | undefined;
  await expect
    .poll(async () => {
      const body = (await (await page.request.get("/dev/mailbox/api")).json()) as DevMailboxResponse;
      link = body.messages
        .find((m) => m.to.includes(email))
        ?.links.find((l) => l.includes("/api/v1/me/export/"));
      return link;
    })
    .toBeTruthy();
  const download = await page.request.get(new URL(link!).pathname);
  expect(download.status()).toBe(200);
  const archive = await download.json();
  expect(archive.parts.account.profile.email).toBe(email);
  expect((await page.request.get(new URL(link!).pathname)).status()).toBe(410);

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await card.scrollIntoViewIfNeeded();
    await shot(page, card, "data-rights-card");
  }

  await card.getByRole("button", { name: "DELETE MY ACCOUNT" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  // A wrong password is refused on the field.
  await dialog.getByLabel("Password").fill("not-my-password");
  await dialog.getByRole("button", { name: "DELETE MY ACCOUNT" }).click();
  await expect(dialog.getByText(/password/i).last()).toBeVisible();
  await expect(dialog.locator("[aria-invalid='true']")).toHaveCount(1);
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize(viewport);
    await shot(page, dialog, "data-rights-delete-dialog");
  }

  await dialog.getByLabel("Password").fill(E2E_PASSWORD);
  await dialog.getByRole("button", { name: "DELETE MY ACCOUNT" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await (await page.request.get("/api/v1/session")).json()).user).toBeNull();
  const login = await page.request.post("/api/v1/auth/login", { data: { email, password: E2E_PASSWORD } });
  expect(login.status()).toBe(401);
});
