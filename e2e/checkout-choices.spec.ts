import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import type { CheckoutOptions } from "@diginoor/api/orders";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * The checkout choices of decision 142 in the browser. The e2e server offers only the sandbox card
 * provider, so the one GET /api/v1/checkout/options call is answered here as a server with Cashfree
 * and an on-ramp would answer it, and Cashfree's "phone required" answer to the order is the server's
 * message (tested against a local Cashfree in cashfree-checkout.test.ts). Then a real sandbox card
 * order is followed on the providers' return page /paymentstatus/…, on /Nft_conformation/:nftId and in
 * the profile's My orders tab. Screenshots at 1440 px and 390 px.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `choices-${name}`);

test("checkout offers card, rupees and buy crypto; the return pages and My orders follow the order", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const chain = await getJson<{ chainId: number; rpcUrl: string }>(request, "/api/v1/chain");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page, [{ method: "POST", path: "/api/v1/orders", status: 400 }]);
  try {
    await signUpAndSignIn(page.request, "choices", "Choice Fan");
    const wallet = await linkTestWallet(page, {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      privateKey: ANVIL_PRIVATE_KEYS[6] as `0x${string}`,
    });

    const real = await getJson<CheckoutOptions>(request, "/api/v1/checkout/options");
    expect(real).toMatchObject({ card: "sandbox", rupees: null, onrampUrl: null });
    await page.route("**/api/v1/checkout/options", (route) =>
      route.fulfill({
        json: {
          ...real,
          rupees: "cashfree",
          providers: [...real.providers, "cashfree"],
          onrampUrl: "https://onramp.example/buy?address={address}&amount={amount}",
        } satisfies CheckoutOptions,
      }),
    );
    await page.route("**/api/v1/orders", async (route) => {
      const body = route.request().postDataJSON() as { provider?: string } | null;
      if (route.request().method() !== "POST" || body?.provider !== "cashfree") return route.fallback();
      return route.fulfill({
        status: 400,
        json: {
          error: {
            code: "bad_request",
            message:
              "Paying in rupees needs your mobile number (Cashfree sends the payment confirmation to it): please enter an Indian mobile number",
            details: { reason: "phone_required" },
          },
        },
      });
    });

    const nft = await fixedPriceNft(request, 2);
    await page.goto(`/nftdetail/${nft.id}`);
    await waitForData(page);
    await expect(page.getByTestId("nft-price")).toContainText(/^₹[\d,.]+ · \$/);
    await page.getByRole("button", { name: "Purchase" }).click();
    const dialog = page.getByRole("dialog", { name: `Buy ${nft.title}` });
    await expect(dialog.getByRole("button", { name: /Pay by card \(sandbox\)/ })).toBeVisible();
    const rupees = dialog.getByRole("button", { name: /Pay in rupees · ₹/ });
    await expect(rupees).toBeVisible();
    const buy = dialog.getByRole("link", { name: "Buy crypto" });
    await expect(buy).toHaveAttribute("href", new RegExp(`address=${wallet.address}&amount=\\d+\\.\\d{2}$`));
    await shots(page, "1-dialog");
    await rupees.click();
    await expect(dialog.getByRole("alert")).toContainText("needs your mobile number");
    await expect(dialog.getByLabel("Mobile number")).toBeVisible();
    await shots(page, "2-phone");

    // A real card order through the sandbox, then its pages.
    await page.unroute("**/api/v1/orders");
    await dialog.getByRole("button", { name: /Pay by card \(sandbox\)/ }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/, { timeout: 15_000 });
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page).toHaveURL(new RegExp(`/confirmation/${nft.id}/[0-9a-f-]{36}$`), { timeout: 15_000 });
    const orderId = page.url().split("/").pop()!;
    // The confirmation page has loaded (navigating away mid-load would abort its assets).
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.goto(`/paymentstatus/${nft.id}/${orderId}/return`);
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });
    await shots(page, "3-paymentstatus");
    await page.goto(`/Nft_conformation/${nft.id}`);
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible();

    await page.goto("/profile");
    await waitForData(page);
    await page.getByRole("tab", { name: "My orders" }).click();
    const row = page.locator(".my-order").filter({ hasText: nft.title });
    await expect(row).toContainText("In your wallet");
    await expect(row).toContainText("Card (sandbox)");
    await expect(row.getByRole("link")).toHaveAttribute("href", `/confirmation/${nft.id}/${orderId}`);
    await shots(page, "4-my-orders");
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});
