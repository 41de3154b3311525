import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
import { expectNoHorizontalScroll, VIEWPORTS } from "./support/page.ts";

/**
 * KYC (issue 25 point 3, decision 175) in the browser: Edit Profile's "Verify identity" sends the fan
 * to the sandbox provider's hosted page; Reject brings them back to a rejected state with the
 * provider's reason, Try again and Approve to verified. Screenshots at 390 and 1440 px.
 */
async function shot(page: Page, target: Locator, name: string) {
  const dir = process.env.E2E_SHOTS_DIR ?? path.join(import.meta.dirname, "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  await expectNoHorizontalScroll(page, name);
  await target.screenshot({
    path: path.join(dir, `${name}-${page.viewportSize()?.width}.png`),
    animations: "disabled",
  });
}

async function shots(page: Page, target: Locator, name: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await target.scrollIntoViewIfNeeded();
    await shot(page, target, name);
  }
}

test("Verify identity: the sandbox provider's rejection and approval both reach the profile", async ({
  page,
}) => {
  await signUpAndSignIn(page.request, "kyc", "Kyc Fan");
  await page.goto("/profile/edit_profile");
  const card = page.getByRole("region", { name: "Verify identity" });
  await expect(card.getByTestId("kyc-state")).toHaveText("Not started");
  await shots(page, card, "kyc-not-started");

  // To the sandbox provider's page, and Reject.
  await card.getByRole("button", { name: "VERIFY IDENTITY" }).click();
  await expect(page).toHaveURL(/\/sandbox\/kyc\/kyc_sandbox_[0-9a-f]{24}$/);
  await expect(page.getByRole("heading", { name: "Verify your identity" })).toBeVisible();
  await shots(page, page.locator("main"), "kyc-sandbox-page");
  await page.getByRole("button", { name: "Reject identity" }).click();
  await expect(page).toHaveURL(/\/profile\/edit_profile\?kyc=submitted#verify-identity$/);
  await expect(card.getByTestId("kyc-state")).toHaveText("Rejected");
  await expect(card.getByRole("alert")).toContainText("could not be read");
  await shots(page, card, "kyc-rejected");
  expect((await (await page.request.get("/api/v1/me/kyc")).json()).state).toBe("rejected");

  // Try again, Approve.
  await card.getByRole("button", { name: "TRY AGAIN" }).click();
  await expect(page).toHaveURL(/\/sandbox\/kyc\//);
  await page.getByRole("button", { name: "Approve identity" }).click();
  await expect(card.getByTestId("kyc-state")).toHaveText("Verified");
  await expect(card.getByRole("status")).toContainText("Your identity is verified");
  await expect(card.getByRole("button")).toHaveCount(0);
  await shots(page, card, "kyc-verified");
  const status = await (await page.request.get("/api/v1/me/kyc")).json();
  expect(status).toMatchObject({ state: "verified", provider: "sandbox" });
});
