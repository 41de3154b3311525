import type { ChainInfo, Token } from "@diginoor/api/chain";
import type { DevMailboxResponse } from "@diginoor/api/auth";
import type { Wallet } from "@diginoor/api/wallets";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { signRecoveryWithCode } from "@diginoor/contracts/recovery-code";
import { type Address, createPublicClient, createWalletClient, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { E2E_PASSWORD, signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { openCardCheckout } from "./support/checkout.ts";
import { addPlatformAuthenticator } from "./support/passkey.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";

/**
 * Issue 27, decision 171: a fan's second device. Each browser context is a device with its own virtual
 * WebAuthn authenticator (Chromium's DevTools protocol), signed in to the same account. The second device
 * makes a passkey and asks; the first compares the code and approves with its passkey (a user operation
 * through the real bundler, our paymaster paying); the second device's passkey then lists and removes a
 * listing alone; then, the second device lost, the first removes its passkey (removePasskey, sponsored). Then recovery: the fan asks for a link, opens it on a new device and makes a new passkey;
 * the wallet page shows the waiting period, and the surviving device cancels it.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `devices-${name}`);

async function device(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 } });
  const page = await context.newPage();
  const authenticator = await addPlatformAuthenticator(page);
  return { context, page, ...authenticator, watch: watchPage(page) };
}

async function signIn(page: Page, email: string) {
  const login = await page.request.post("/api/v1/auth/login", { data: { email, password: E2E_PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
}

test("a second device's passkey, approved by the first, lists and removes a listing alone; lost, the first removes it", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const info = await getJson<ChainInfo>(request, "/api/v1/chain");
  const chain = createPublicClient({ transport: http(info.rpcUrl as string) });
  const laptop = await device(browser, 1440);
  const phone = await device(browser, 390);
  try {
    const { email } = await signUpAndSignIn(laptop.page.request, "devices", "Two Devices Fan");
    // The laptop's passkey wallet, and a token in it bought by card.
    await laptop.page.goto("/wallet");
    await waitForData(laptop.page);
    await laptop.page.getByRole("button", { name: "Create my passkey wallet" }).click();
    await expect(laptop.page.getByText("Your passkey wallet is ready")).toBeVisible({ timeout: 15_000 });
    const nft = await fixedPriceNft(request, 5);
    const { card } = await openCardCheckout(laptop.page, nft);
    await card.click();
    await expect(laptop.page).toHaveURL(/\/sandbox\/checkout\//, { timeout: 20_000 });
    await laptop.page.getByRole("button", { name: /^Pay / }).click();
    await expect(laptop.page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });
    const orderId = laptop.page.url().split("/").pop()!;
    const { tokenId } = await getJson<{ tokenId: string }>(laptop.page.request, `/api/v1/orders/${orderId}`);
    const [wallet] = (await getJson<{ items: Wallet[] }>(laptop.page.request, "/api/v1/wallets")).items;
    const address = wallet!.address as Address;

    // ------------------------------------------------------------ the phone asks
    await signIn(phone.page, email);
    await phone.page.goto("/wallet");
    await waitForData(phone.page);
    const devices = phone.page.getByTestId("passkey-devices");
    await expect(devices.getByText("First passkey")).toBeVisible();
    await devices.getByRole("button", { name: "Add a passkey on this device" }).click();
    const code = (await phone.page.getByTestId("pairing-code").textContent())?.trim() ?? "";
    expect(code).toMatch(/^\d{3} \d{3}$/);
    await expect(phone.page.getByText("Waiting for your other device")).toBeVisible();
    await shots(phone.page, "1-phone-asks");

    // ------------------------------------------------------------ the laptop compares the code and approves
    await laptop.page.goto("/wallet");
    await waitForData(laptop.page);
    const request1 = laptop.page.getByTestId("passkey-request");
    await expect(request1).toContainText(code);
    await shots(laptop.page, "2-laptop-approves");
    await request1.getByRole("button", { name: "Approve with this device's passkey" }).click();
    await expect(
      laptop.page.getByText("The passkey of your other device was added to your wallet"),
    ).toBeVisible({
      timeout: 60_000,
    });
    await expect(phone.page.getByText("This device's passkey now signs for your wallet.")).toBeVisible({
      timeout: 15_000,
    });
    await expect(phone.page.getByTestId("passkey-devices").getByText("Passkey 2")).toBeVisible();
    await shots(phone.page, "3-phone-added");
    const [x, y] = await chain.readContract({
      address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "passkeys",
    });
    expect(x).toHaveLength(2);
    expect(y).toHaveLength(2);

    // ------------------------------------------------------------ the phone's passkey alone lists and removes
    const { credentials } = await phone.cdp.send("WebAuthn.getCredentials", {
      authenticatorId: phone.authenticatorId,
    });
    expect(credentials).toHaveLength(1);
    await phone.page.goto(`/nftshowcase/${tokenId}`);
    await waitForData(phone.page);
    await phone.page.getByRole("button", { name: "Put to Sale" }).click();
    const sale = phone.page.getByRole("dialog");
    await sale.getByLabel("Price (ETH)").fill("0.07");
    await sale.getByRole("button", { name: "Sell Instantly" }).click();
    await expect(phone.page.getByText("NFT Listed on Sale")).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${tokenId}`)).listing?.priceWei, {
        timeout: 15_000,
      })
      .toBe("70000000000000000");
    await phone.page.getByRole("button", { name: "Remove from marketplace" }).click();
    await phone.page
      .getByRole("dialog", { name: "Remove from marketplace" })
      .getByRole("button", { name: "Yes" })
      .click();
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${tokenId}`)).listing ?? null, {
        timeout: 60_000,
      })
      .toBeNull();
    // The phone's one credential signed: the laptop's authenticator was never asked on this page.
    const after = await phone.cdp.send("WebAuthn.getCredentials", { authenticatorId: phone.authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThanOrEqual(credentials[0]!.signCount + 2);
    expect(await chain.getBalance({ address })).toBe(0n);

    // ------------------------------------------------------------ the phone is lost: the laptop removes its passkey
    await laptop.page.goto("/wallet");
    await waitForData(laptop.page);
    const laptopDevices = laptop.page.getByTestId("passkey-devices");
    const rows = laptopDevices.getByTestId("passkey-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("This device");
    await expect(rows.nth(1)).toContainText(`code ${code}`);
    await expect(rows.nth(1)).not.toContainText("This device");
    await shots(laptop.page, "remove-1-passkeys");
    await laptopDevices.getByRole("button", { name: "Remove Passkey 2" }).click();
    const confirm = laptop.page.getByRole("dialog", { name: "Remove a passkey" });
    await expect(confirm).toContainText(`Passkey 2 (code ${code}`);
    await shots(laptop.page, "remove-2-confirm");
    await confirm.getByRole("button", { name: "Yes" }).click();
    await expect(laptop.page.getByText("The passkey was removed from your wallet")).toBeVisible({
      timeout: 60_000,
    });
    await expect(rows).toHaveCount(1);
    await expect(laptopDevices.getByTestId("only-passkey")).toContainText("only passkey");
    await expect(laptopDevices.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
    await shots(laptop.page, "remove-3-removed");
    const [xs] = await chain.readContract({
      address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "passkeys",
    });
    expect(xs).toHaveLength(1);
    // The server forgot it: the phone's page lists the laptop's passkey only.
    await phone.page.goto("/wallet");
    await waitForData(phone.page);
    await expect(phone.page.getByTestId("passkey-row")).toHaveCount(1);
    await expect(phone.page.getByTestId("passkey-row")).not.toContainText("This device");
    expectNoProblems(laptop.watch);
    expectNoProblems(phone.watch);
  } finally {
    await laptop.context.close();
    await phone.context.close();
  }
});

test("recovery: a link opened on a new device, the waiting period, cancelled from the surviving device", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const info = await getJson<ChainInfo>(request, "/api/v1/chain");
  const chain = createPublicClient({ transport: http(info.rpcUrl as string) });
  const phone = await device(browser, 1440);
  const newLaptop = await device(browser, 390);
  try {
    const { email } = await signUpAndSignIn(phone.page.request, "recover", "Recovering Fan");
    await phone.page.goto("/wallet");
    await waitForData(phone.page);
    await phone.page.getByRole("button", { name: "Create my passkey wallet" }).click();
    await expect(phone.page.getByText("Your passkey wallet is ready")).toBeVisible({ timeout: 15_000 });
    const recovery = phone.page.getByTestId("wallet-recovery");
    await shots(phone.page, "4-recovery-offer");
    // The recovery code (decision 185): made on this device, shown once; its key becomes the guardian.
    await recovery.getByRole("button", { name: "Make my recovery code" }).click();
    const words =
      (await recovery.getByTestId("recovery-code-words").textContent({ timeout: 60_000 }))?.trim() ?? "";
    expect(words.split(" ")).toHaveLength(12);
    await shots(phone.page, "4b-recovery-code");
    await recovery.getByRole("button", { name: "I have written them down" }).click();
    await expect(recovery.getByText("This wallet has a recovery code")).toBeVisible({ timeout: 15_000 });

    // ------------------------------------------------------------ every device lost: the link, on a new device
    await signIn(newLaptop.page, email);
    await newLaptop.page.goto("/wallet");
    await waitForData(newLaptop.page);
    await newLaptop.page
      .getByTestId("wallet-recovery")
      .getByRole("button", { name: "Recover this wallet" })
      .click();
    await expect(newLaptop.page.getByTestId("recovery-mailed")).toContainText(email);
    let link = "";
    await expect
      .poll(
        async () => {
          const body = (await (await request.get("/dev/mailbox/api")).json()) as DevMailboxResponse;
          link =
            body.messages
              .find((m) => m.to.toLowerCase().includes(email))
              ?.links.find((l) => l.includes("/wallet/recover/")) ?? "";
          return link;
        },
        { timeout: 15_000 },
      )
      .toContain("/wallet/recover/");
    await newLaptop.page.goto(new URL(link).pathname);
    await waitForData(newLaptop.page);
    await expect(newLaptop.page.getByRole("heading", { name: "Recover your passkey wallet" })).toBeVisible();
    await newLaptop.page.getByTestId("recovery-code").fill(words);
    await shots(newLaptop.page, "5-recover-link");
    await newLaptop.page.getByRole("button", { name: "Make my new passkey" }).click();
    await expect(newLaptop.page.getByTestId("recovery-confirmed")).toContainText("Recovery started", {
      timeout: 60_000,
    });
    await expect(newLaptop.page.getByTestId("recovery-confirmed")).toContainText(/takes over on/);
    await shots(newLaptop.page, "6-recovery-started");

    // ------------------------------------------------------------ the surviving device sees it and cancels
    const [wallet] = (await getJson<{ items: Wallet[] }>(phone.page.request, "/api/v1/wallets")).items;
    const address = wallet!.address as Address;
    const pending = () =>
      chain.readContract({ address, abi: diginoorPasskeyAccountAbi, functionName: "pendingRecovery" });
    expect((await pending()).executableAt).toBeGreaterThan(0);
    await phone.page.goto("/wallet");
    await waitForData(phone.page);
    await expect(recovery.getByTestId("recovery-live")).toContainText(/takes over on .*unless a passkey/);
    await shots(phone.page, "7-recovery-waiting");
    await recovery.getByRole("button", { name: "Cancel the recovery" }).click();
    await expect(recovery.getByTestId("recovery-cancelled")).toBeVisible({ timeout: 60_000 });
    expect((await pending()).executableAt).toBe(0);
    expect(await chain.getBalance({ address })).toBe(0n);
    const newPasskey = (
      await getJson<{ items: { newPasskey: { publicKey: string } | null; state: string }[] }>(
        phone.page.request,
        "/api/v1/wallets/recovery",
      )
    ).items[0]!.newPasskey!.publicKey;
    const stillOld = await chain.readContract({
      address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "isPasskey",
      args: [`0x${newPasskey.slice(2, 66)}` as Hex, `0x${newPasskey.slice(66)}` as Hex],
    });
    expect(stillOld).toBe(false);
    await shots(phone.page, "8-recovery-cancelled");

    // ------------------------------------------------------------ a proposal sent straight to the chain
    // Someone with the code (not through us) relays the guardian's signature themselves: the bell tells the fan.
    const stranger = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[9] as Hex),
      transport: http(info.rpcUrl as string),
    });
    const chainId = await chain.getChainId();
    const nonce = await chain.readContract({
      address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "recoveryNonce",
    });
    // The key proposed: the cancelled proposal's (the new laptop's passkey, a valid P-256 point).
    const signature = await signRecoveryWithCode({
      code: words,
      account: address,
      chainId,
      newPublicKey: newPasskey as Hex,
      nonce,
    });
    await chain.waitForTransactionReceipt({
      hash: await stranger.writeContract({
        chain: null,
        address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "proposeRecoveryWithSignature",
        args: [`0x${newPasskey.slice(2, 66)}` as Hex, `0x${newPasskey.slice(66)}` as Hex, signature],
      }),
    });
    // The chain watcher told of our relayed proposal already; this one is a second such notice.
    const chainNotices = phone.page
      .getByRole("region", { name: "Notifications" })
      .getByText(/A recovery of your passkey wallet .*was proposed/);
    const bell = phone.page.getByRole("button", { name: /^Notifications/ });
    await expect
      .poll(
        async () => {
          await phone.page.reload();
          await waitForData(phone.page);
          await bell.click();
          return chainNotices.count();
        },
        { timeout: 60_000, intervals: [1000] },
      )
      .toBe(2);
    await shots(phone.page, "9-bell-chain-proposal");
    expectNoProblems(phone.watch);
    expectNoProblems(newLaptop.watch);
  } finally {
    await phone.context.close();
    await newLaptop.context.close();
  }
});
