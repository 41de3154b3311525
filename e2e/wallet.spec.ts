import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { walletMessages } from "@diginoor/api/wallets";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signUpAndSignIn } from "./support/accounts.ts";
import {
  expectNoHorizontalScroll,
  expectNoProblems,
  screenshot,
  VIEWPORTS,
  watchPage,
} from "./support/page.ts";
import { installTestWallet } from "./support/test-wallet.ts";

/**
 * The wallet page with a real (test) browser wallet on the e2e server's own anvil: connect through
 * EIP-6963, the chain guard and the network switch, the balance, linking with Sign-In with Ethereum,
 * and a second account refused the same address. Screenshots of every step at 390 px and 1440 px.
 */

interface ChainInfo {
  enabled: boolean;
  chainId: number;
  rpcUrl: string;
  chainName: string;
}

async function chainInfo(request: APIRequestContext): Promise<ChainInfo> {
  const res = await request.get("/api/v1/chain");
  const info = (await res.json()) as ChainInfo;
  expect(info.enabled, "the e2e server runs with its own anvil").toBe(true);
  expect(info.rpcUrl).toBeTruthy();
  return info;
}

async function shot(page: Page, name: string) {
  await expectNoHorizontalScroll(page, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `wallet-${name}`);
}

test.describe("wallet page", () => {
  test("visitors are sent to sign in and come back", async ({ page }) => {
    await page.goto("/wallet");
    await expect(page).toHaveURL(/\/login\?next=%2Fwallet$/);
    await expect(page.getByText("Please Login to Continue")).toBeVisible();
  });

  // Each width links its own anvil account (an address can be linked to one account only).
  for (const [i, viewport] of VIEWPORTS.entries()) {
    test(`connect, switch network, link with SIWE, refused for a second account (${viewport.width} px)`, async ({
      page,
      browser,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      const chain = await chainInfo(page.request);
      const key = ANVIL_PRIVATE_KEYS[8 + i] as `0x${string}`;
      const address = ANVIL_ADDRESSES[8 + i] as string;
      const watch = watchPage(page);
      await signUpAndSignIn(page.request, `wallet-a-${viewport.width}`);
      // The wallet starts on Polygon mainnet: the chain guard must catch it.
      const wallet = await installTestWallet(page, {
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        privateKey: key,
        startChainId: 137,
      });

      await page.goto("/wallet");
      const connectButton = page.getByRole("button", { name: "Diginoor Test Wallet" });
      await expect(connectButton).toBeVisible();
      await expect(page.getByText("No wallet is linked yet.")).toBeVisible();
      await shot(page, `1-connect-${viewport.width}`);

      await connectButton.click();
      await expect(page.getByRole("heading", { name: walletMessages.connected })).toBeVisible();
      await expect(page.getByText(walletMessages.connectedToast)).toBeVisible();
      await expect(page.getByTestId("wallet-address")).toHaveText(address);
      const guard = page.getByRole("alert").filter({ hasText: `Please Connect to ${chain.chainName}` });
      await expect(guard).toBeVisible();
      await shot(page, `2-wrong-chain-${viewport.width}`);

      await guard.getByRole("button", { name: `Switch to ${chain.chainName}` }).click();
      await expect(guard).toHaveCount(0);
      expect(wallet.calls).toContain("wallet_switchEthereumChain");
      // A fresh anvil account holds 10,000 ETH; the table rate is $3,000 per ETH.
      await expect(page.getByTestId("wallet-balance")).toHaveText(/^₹[\d,.]+ · \$[\d,.]+ · [\d,.]+ ETH$/);
      await shot(page, `3-connected-${viewport.width}`);

      await page.getByRole("button", { name: "Link this wallet" }).click();
      await expect(page.getByText(walletMessages.linked)).toBeVisible();
      await expect(page.getByTestId("wallet-linked")).toContainText("receives your purchases");
      const list = page.getByRole("list", { name: "Linked wallets" });
      await expect(list.getByRole("listitem")).toHaveCount(1);
      await expect(list.getByRole("listitem").first()).toContainText(address);
      await expect(list.getByRole("listitem").first()).toContainText("Receives purchases");
      expect(wallet.calls).toContain("personal_sign");
      await shot(page, `4-linked-${viewport.width}`);
      expectNoProblems(watch);

      // A second account, in its own browser, with the same wallet: refused with the server's message.
      const other = await browser.newContext({ viewport });
      try {
        const page2 = await other.newPage();
        const watch2 = watchPage(page2, [{ method: "POST", path: "/api/v1/wallets", status: 409 }]);
        await signUpAndSignIn(page2.request, `wallet-b-${viewport.width}`, "Second Fan");
        await installTestWallet(page2, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, privateKey: key });
        await page2.goto("/wallet");
        await page2.getByRole("button", { name: "Diginoor Test Wallet" }).click();
        await expect(page2.getByRole("heading", { name: walletMessages.connected })).toBeVisible();
        await page2.getByRole("button", { name: "Link this wallet" }).click();
        await expect(
          page2.getByRole("alert").filter({ hasText: walletMessages.linkedElsewhere }),
        ).toBeVisible();
        await expect(page2.getByText("No wallet is linked yet.")).toBeVisible();
        await shot(page2, `5-linked-elsewhere-${viewport.width}`);
        expectNoProblems(watch2);
      } finally {
        await other.close();
      }

      // Disconnect, and unlink from the first account.
      await page.getByRole("button", { name: "Disconnect" }).click();
      await expect(page.getByRole("button", { name: "Diginoor Test Wallet" })).toBeVisible();
      // Unlinking asks first (issue 35): the dialog names what the wallet holds.
      await page.getByRole("button", { name: `Unlink ${address}` }).click();
      const ask = page.getByRole("dialog", { name: "Unlink this wallet?" });
      await expect(ask).toBeVisible();
      await ask.getByRole("button", { name: "Unlink" }).click();
      await expect(page.getByText("No wallet is linked yet.")).toBeVisible();
      expectNoProblems(watch);
    });
  }
});
