import fs from "node:fs";
import path from "node:path";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import type { EarningsStatement } from "@diginoor/api/earnings";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { signInAsAdmin, signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoHorizontalScroll, VIEWPORTS } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * The console's Earnings (decision 174) in the browser: after a sandbox card sale, the administrator
 * opens the studio's statement: totals and months show the sale in rupees, the CSV exports it.
 * Screenshots at 390 and 1440 px.
 */
async function shots(page: Page, target: Locator, name: string) {
  const dir = process.env.E2E_SHOTS_DIR ?? path.join(import.meta.dirname, "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectNoHorizontalScroll(page, name);
    await target.screenshot({
      path: path.join(dir, `${name}-${viewport.width}.png`),
      animations: "disabled",
    });
  }
}

test("the console shows a studio its earnings by month and exports them", async ({ page, request }) => {
  test.setTimeout(180_000);
  const chain = await getJson<{ chainId: number; rpcUrl: string }>(request, "/api/v1/chain");
  await signUpAndSignIn(page.request, "earnings", "Earnings Fan");
  await linkTestWallet(page, {
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    privateKey: ANVIL_PRIVATE_KEYS[5] as `0x${string}`,
  });
  const nft = await fixedPriceNft(request, 3);
  const made = await page.request.post("/api/v1/orders", { data: { nftId: nft.id, provider: "sandbox" } });
  expect(made.status(), await made.text()).toBe(201);
  const order = (await made.json()) as { orderId: string; checkoutUrl: string; payAmountMinor: number };
  await page.goto(order.checkoutUrl);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect
    .poll(
      async () => (await getJson<{ state: string }>(page.request, `/api/v1/orders/${order.orderId}`)).state,
      {
        timeout: 60_000,
      },
    )
    .toBe("fulfilled");

  await signInAsAdmin(page.request);
  const studios = await getJson<{ items: { id: number; name: string }[] }>(
    page.request,
    "/api/v1/admin/studios",
  );
  let house: { id: number; name: string } | undefined;
  for (const s of studios.items) {
    const st = await getJson<EarningsStatement>(page.request, `/api/v1/admin/studios/${s.id}/earnings`);
    if (st.lines.some((l) => l.reference === order.orderId)) house = s;
  }
  expect(house, "the house of the NFT sold").toBeTruthy();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/admin/earnings");
  const section = page.getByRole("region", { name: "Earnings" });
  await section.getByLabel("Production house").selectOption(String(house!.id));
  await expect(section.getByRole("table")).toContainText(house!.name);
  await expect(section.getByTestId("earned")).toContainText("₹");
  await expect(section.getByRole("button", { name: "Record payout" })).toBeVisible();
  await shots(page, section, "earnings-console");
  const csv = await page.request.get(`/api/v1/admin/studios/${house!.id}/earnings.csv`);
  expect(csv.status()).toBe(200);
  // A text cell starting like a formula (an NFT id may start with "-") is written neutralised.
  const idCell = /^[=+\-@]/.test(nft.id) ? `'${nft.id}` : nft.id;
  expect(await csv.text()).toContain(
    `primary_fiat,inr,${order.payAmountMinor},0,${order.payAmountMinor},true,${idCell}`,
  );
});
