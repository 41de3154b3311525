import { type APIRequestContext, expect, test } from "@playwright/test";
import { signInAsAdmin, signUpAndSignIn } from "./support/accounts.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { expectRupeesFirst } from "./support/prices.ts";

/**
 * As an administrator: an open lottery of $2.50 tickets, activated at 3, with a $500 pool, closing
 * `closesInMs` from now; its name is `title` and a unique suffix.
 */
async function createLottery(request: APIRequestContext, title: string, closesInMs: number) {
  await signInAsAdmin(request);
  const now = Date.now();
  const name = `${title} ${now.toString(36)}`;
  const created = await request.post("/api/v1/admin/lotteries", {
    data: {
      name,
      ticketPriceCents: 250,
      minTickets: 3,
      opensAt: new Date(now - 60_000).toISOString(),
      closesAt: new Date(now + closesInMs).toISOString(),
      prize: { kind: "pool", amountCents: 50_000 },
      rules: "One winner; every ticket is refunded if fewer than 3 are sold.",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { name, lottery: (await created.json()) as { id: string } };
}

/**
 * Lotteries (issue 24): a fan enters a contest from /lottery and opens PURCHASE TICKETS: 'Number of
 * Tickets?' with minus, plus and a typed count, the total rupees first, the region and the rules.
 * Screenshots at 1440 and 390 px.
 */
test("a fan enters a contest from /lottery and picks 3 tickets; the total is in rupees first", async ({
  browser,
  request,
}) => {
  const { name, lottery } = await createLottery(request, "Premiere night draw", 3600_000);

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

/**
 * The whole way (issue 24's browser check): a fan buys 3 tickets with the sandbox card and sees the
 * confirmation; a second fan's open page sees the progress move without a reload (the event stream);
 * after the closing time the draw runs (the server's every-minute job; the quiet development chain's
 * blocks are mined here) and the first fan's Tickets tab and the verify page show the result.
 */
test("a fan buys 3 tickets by sandbox card; another fan's page follows; after the draw the result shows", async ({
  browser,
  request,
}) => {
  test.setTimeout(420_000);
  const { lottery } = await createLottery(request, "Box office draw", 100_000);
  const chain = (await (await request.get("/api/v1/chain")).json()) as { rpcUrl: string };
  const fan = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await fan.newPage();
  const watcher = await other.newPage();
  try {
    await signUpAndSignIn(page.request, "lottery-buyer", "Ticket Fan");
    await watcher.goto(`/lottery/${lottery.id}`);
    await expect(watcher.getByTestId("tickets-sold")).toHaveText("0");
    await page.goto(`/lottery/${lottery.id}`);
    await waitForData(page);
    await page.getByRole("button", { name: "PURCHASE TICKETS" }).click();
    const dialog = page.getByRole("dialog", { name: "Number of Tickets?" });
    await dialog.getByLabel("Number of tickets").fill("3");
    await dialog.getByLabel("Your region").fill("IN-MH");
    await dialog.getByRole("checkbox").check();
    await dialog.getByRole("button", { name: /Pay by card/ }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//, { timeout: 15_000 });
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(
      page.getByRole("heading", { name: "Your order for the purchase of 3 tickets has been confirmed!" }),
    ).toBeVisible({ timeout: 60_000 });
    await shotsAtBothWidths(page, "lottery-3-confirmed");
    // The other fan's page, never reloaded, follows the sale.
    await expect(watcher.getByTestId("tickets-sold")).toHaveText("3", { timeout: 15_000 });
    await expect(watcher.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "3");
    await shotsAtBothWidths(watcher, "lottery-4-other-fan-live");

    // The closing time passes; the every-minute job closes it; blocks are mined; the next run draws.
    const mine = () =>
      fetch(chain.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
      });
    await expect
      .poll(
        async () => {
          const l = (await (await request.get(`/api/v1/lotteries/${lottery.id}`)).json()) as {
            state: string;
          };
          if (l.state === "closed") await mine();
          return l.state;
        },
        { timeout: 300_000, intervals: [5_000] },
      )
      .toBe("drawn");
    await page.goto("/profile#tickets");
    await page.getByRole("tab", { name: "Tickets" }).click();
    await expect(page.getByTestId("ticket-result")).toContainText("You won!", { timeout: 15_000 });
    await expect(page.getByTestId("ticket-prize")).toContainText("Your prize will be paid to you.");
    await shotsAtBothWidths(page, "lottery-5-tickets-tab");
    await page.goto(`/lottery/${lottery.id}/verify`);
    await expect(page.locator(".verify-checks li")).toHaveCount(5, { timeout: 20_000 });
    await expect(page.locator('.verify-checks li[data-ok="false"]')).toHaveCount(0);
    await shotsAtBothWidths(page, "lottery-6-verify");
  } finally {
    await fan.close();
    await other.close();
  }
});
