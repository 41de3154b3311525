import { expect, test } from "@playwright/test";
import { signInAsAdmin, signUpAndSignIn } from "./support/accounts.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { expectRupeesFirst } from "./support/prices.ts";

/**
 * Lotteries (issue 24): a fan enters a contest from /lottery and opens PURCHASE TICKETS: 'Number of
 * Tickets?' with minus, plus and a typed count, the total rupees first, the region and the rules.
 * Screenshots at 1440 and 390 px.
 */
test("a fan enters a contest from /lottery and picks 3 tickets; the total is in rupees first", async ({
  browser,
  request,
}) => {
  await signInAsAdmin(request);
  const now = Date.now();
  const name = `Premiere night draw ${now.toString(36)}`;
  const created = await request.post("/api/v1/admin/lotteries", {
    data: {
      name,
      ticketPriceCents: 250,
      minTickets: 3,
      opensAt: new Date(now - 60_000).toISOString(),
      closesAt: new Date(now + 3600_000).toISOString(),
      prize: { kind: "pool", amountCents: 50_000 },
      rules: "One winner; every ticket is refunded if fewer than 3 are sold.",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lottery = (await created.json()) as { id: string };

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page);
  try {
    await signUpAndSignIn(page.request, "lottery", "Lottery Fan");
    await page.goto("/lottery");
    await waitForData(page);
    const card = page.locator("article, li").filter({ hasText: name }).first();
    await card.getByRole("link", { name: "ENTER CONTEST" }).click();
    await expect(page).toHaveURL(new RegExp(`/lottery/${lottery.id}$`));
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expectRupeesFirst(page, "lottery page");
    await shotsAtBothWidths(page, "lottery-1-page");

    await page.getByRole("button", { name: "PURCHASE TICKETS" }).click();
    const dialog = page.getByRole("dialog", { name: "Number of Tickets?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "One ticket more" }).click();
    await dialog.getByRole("button", { name: "One ticket more" }).click();
    await expect(dialog.getByLabel("Number of tickets")).toHaveValue("3");
    await expect(dialog.getByTestId("tickets-total")).toContainText("$7.50");
    await expectRupeesFirst(page, "tickets dialog", dialog);
    // The card checkout waits for the region and the rules.
    const pay = dialog.getByRole("button", { name: /Pay by card/ });
    await expect(pay).toBeDisabled();
    await dialog.getByLabel("Your region").fill("IN-MH");
    await dialog.getByRole("checkbox").check();
    await expect(pay).toBeEnabled();
    await dialog.getByLabel("Number of tickets").fill("0");
    await expect(dialog.getByRole("alert")).toContainText("At least one ticket");
    await expect(pay).toBeDisabled();
    await dialog.getByLabel("Number of tickets").fill("3");
    await shotsAtBothWidths(page, "lottery-2-tickets-dialog");
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});
