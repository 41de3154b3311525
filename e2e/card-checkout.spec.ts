import type { DevMailboxResponse } from "@diginoor/api/auth";
import { openCardCheckout } from "./support/checkout.ts";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import type { Token } from "@diginoor/api/chain";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoProblems, shotsAtBothWidths, watchPage } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * A fan pays by card with the sandbox provider (decision 141): sign in → link a wallet → Pay by card
 * in the checkout dialog → the sandbox's hosted page → Pay → the confirmation page follows the order
 * to "In your wallet" → the token is in the profile and on chain → the confirmation mail is in the
 * dev mailbox. Screenshots at 1440 px and 390 px.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `card-${name}`);

test("pay by card in the sandbox: minted to the linked wallet, shown in the profile, mailed", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const chain = await getJson<{ chainId: number; rpcUrl: string }>(request, "/api/v1/chain");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page);
  try {
    const { email } = await signUpAndSignIn(page.request, "card", "Card Fan");
    const wallet = await linkTestWallet(page, {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      privateKey: ANVIL_PRIVATE_KEYS[4] as `0x${string}`,
    });

    const nft = await fixedPriceNft(request, 1);
    const { card } = await openCardCheckout(page, nft);
    await shots(page, "1-checkout");
    await card.click();

    // The provider's hosted page (served by our server, like Stripe's would be by Stripe).
    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/, { timeout: 15_000 });
    await expect(page.getByTestId("sandbox-amount")).toContainText(/^₹[\d,.]+ · \$[\d,.]+$/);
    await shots(page, "2-sandbox-page");
    await page.getByRole("button", { name: /^Pay / }).click();

    await expect(page).toHaveURL(new RegExp(`/confirmation/${nft.id}/[0-9a-f-]{36}$`), { timeout: 15_000 });
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByText("Payment received", { exact: true })).toBeVisible();
    await expect(page.getByText("In your wallet", { exact: true })).toBeVisible();
    await shots(page, "3-confirmed");
    const orderId = page.url().split("/").pop()!;
    const order = await getJson<{ tokenId: string; state: string; provider: string }>(
      page.request,
      `/api/v1/orders/${orderId}`,
    );
    expect(order).toMatchObject({ state: "fulfilled", provider: "sandbox" });
    // Minted by Diginoor's minter key to the linked wallet: the browser wallet sent nothing.
    expect(wallet.calls).not.toContain("eth_sendTransaction");
    const token = await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`);
    expect(token.owner).toBe(wallet.address);

    await page.getByRole("link", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole("tab", { name: "Showcase" }).click();
    await expect(page.locator(`a[href="/nftshowcase/${order.tokenId}"]`)).toBeVisible({ timeout: 15_000 });
    await shots(page, "4-profile");

    await expect
      .poll(
        async () => {
          const res = await request.get("/dev/mailbox/api");
          const body = (await res.json()) as DevMailboxResponse;
          return body.messages.filter((m) => m.to === email && m.subject.includes(nft.title)).length;
        },
        { timeout: 15_000, message: "the confirmation mail" },
      )
      .toBe(1);
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});
