import type { ChainInfo, Token } from "@diginoor/api/chain";
import type { Wallet } from "@diginoor/api/wallets";
import { expectRupeesFirst } from "./support/prices.ts";
import { openCardCheckout } from "./support/checkout.ts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Address, createPublicClient, createTestClient, http } from "viem";
import { entryPoint08Abi } from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { signUpAndSignIn } from "./support/accounts.ts";
import { addPlatformAuthenticator } from "./support/passkey.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";

/**
 * Issue 27: a fan with no wallet app buys, owns and sells (decision 160). Chromium's virtual WebAuthn
 * authenticator stands in for the phone's fingerprint: the fan signs up, is offered the passkey wallet,
 * gets it in the card checkout the first time it is needed, pays on the sandbox's hosted page, sees the
 * token in the showcase, owned on anvil by their ERC-4337 account; then lists it and removes the listing,
 * each a user operation signed by the passkey, sent through the real bundler (Alto) with our paymaster
 * paying: the account holds 0 ETH throughout. Screenshots at 1440 px and 390 px.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `passkey-${name}`);

/**
 * On a phone (390 px) everything in a dialog fits inside it: no element reaches past its
 * right edge (content cut off there, or scrolled sideways inside it).
 */
async function expectFitsOnAPhone(dialog: Locator) {
  const page = dialog.page();
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const past = await dialog.evaluate((d) => {
    const right = d.getBoundingClientRect().right;
    return Array.from(d.querySelectorAll("*"))
      .filter((e) => e.getBoundingClientRect().right > right + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent?.slice(0, 40)}"`);
  });
  if (before) await page.setViewportSize(before);
  expect(past, "elements past the dialog's right edge at 390 px").toEqual([]);
}

test("a fan without a wallet app: passkey wallet in the card checkout, showcase, gasless list and cancel", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const info = await getJson<ChainInfo>(request, "/api/v1/chain");
  expect(info.accountFactory, "the e2e server deploys the passkey wallet contracts").toBeTruthy();
  expect(info.bundlerUrl, "the e2e server starts the bundler").toBe("/api/v1/bundler");
  const chain = createPublicClient({ transport: http(info.rpcUrl as string) });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addPlatformAuthenticator(page);
  const watch = watchPage(page);
  try {
    await signUpAndSignIn(page.request, "passkey", "Passkey Fan");

    // ------------------------------------------------------------ no wallet app: the passkey wallet is offered
    await page.goto("/wallet");
    await waitForData(page);
    const passkeyCard = page.getByRole("region", { name: "Passkey wallet" });
    await expect(passkeyCard.getByRole("button", { name: "Create my passkey wallet" })).toBeVisible();
    await expect(page.getByText("No wallet app found")).toBeVisible();
    await expect(page.getByText(/Install MetaMask/)).toHaveCount(0);
    await shots(page, "1-wallet-offer");

    // ------------------------------------------------------------ the card checkout makes the wallet
    const nft = await fixedPriceNft(request, 3);
    const { dialog, card } = await openCardCheckout(page, nft);
    await expect(dialog.getByText(/No wallet yet\? Paying makes you one with a passkey/)).toBeVisible();
    await expect(dialog.getByText("Please Connect Wallet to Proceed")).toHaveCount(0);
    // Crypto is not this fan's way: the checkout says so and the card comes forward.
    await expect(dialog.getByTestId("crypto-hint")).toContainText("needs a wallet app");
    // The card is this fan's way: the filled button, its dollar price in the button's ink (not muted grey).
    await expect(card).toHaveClass(/btn-primary/);
    const ink = (l: Locator) => l.evaluate((e) => getComputedStyle(e).color);
    // (Polled: a button's colour is a short transition, read mid-way right after it became primary.)
    await expect
      .poll(async () => (await ink(card.locator(".price-alt").first())) === (await ink(card)))
      .toBe(true);
    await shots(page, "2-checkout");
    await expectFitsOnAPhone(dialog);
    await card.click();

    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/, { timeout: 20_000 });
    // One passkey on the device, and one wallet on the account: the passkey's smart account.
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    const { items } = await getJson<{ items: Wallet[] }>(page.request, "/api/v1/wallets");
    expect(items).toHaveLength(1);
    const wallet = items[0]!;
    expect(wallet).toMatchObject({ kind: "passkey", receivesPurchases: true });
    const account = wallet.address as Address;
    expect(await chain.getBalance({ address: account })).toBe(0n);
    await page.getByRole("button", { name: /^Pay / }).click();

    await expect(page).toHaveURL(new RegExp(`/confirmation/${nft.id}/[0-9a-f-]{36}$`), { timeout: 15_000 });
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });
    await shots(page, "3-confirmed");
    const orderId = page.url().split("/").pop()!;
    const order = await getJson<{ tokenId: string; state: string }>(
      page.request,
      `/api/v1/orders/${orderId}`,
    );
    expect(order.state).toBe("fulfilled");
    const tokenId = BigInt(order.tokenId);
    // Owned on chain by the fan's smart account, which does not exist yet (its first operation deploys it).
    expect((await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`)).owner.toLowerCase()).toBe(
      account.toLowerCase(),
    );
    const ownerOf = () =>
      chain.readContract({
        address: info.collectible as Address,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [tokenId],
      });
    expect((await ownerOf()).toLowerCase()).toBe(account.toLowerCase());

    // ------------------------------------------------------------ the showcase
    await page.getByRole("link", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole("tab", { name: "Showcase" }).click();
    const showcased = page.locator(`a[href="/nftshowcase/${order.tokenId}"]`);
    await expect(showcased).toBeVisible({ timeout: 15_000 });
    await shots(page, "4-showcase");

    // ------------------------------------------------------------ list it: a user operation, gas on us
    const deposit = () =>
      chain.readContract({
        address: info.entryPoint as Address,
        abi: entryPoint08Abi,
        functionName: "balanceOf",
        args: [info.paymaster as Address],
      });
    const depositBefore = await deposit();
    // The chain's clock runs ahead of ours (as once the auction tests have moved it): the paymaster's day
    // is the chain's, not the browser's.
    const anvil = createTestClient({ mode: "anvil", transport: http(info.rpcUrl as string) });
    await anvil.increaseTime({ seconds: 2 * 86_400 });
    await anvil.mine({ blocks: 1 });
    await showcased.click();
    await page.getByRole("button", { name: "Put to Sale" }).click();
    const sale = page.getByRole("dialog");
    await sale.getByLabel("Price (ETH)").fill("0.05");
    await sale.getByRole("button", { name: "Sell Instantly" }).click();
    await expect(page.getByText("NFT Listed on Sale")).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(
        async () => (await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`)).listing?.priceWei,
        {
          timeout: 15_000,
        },
      )
      .toBe("50000000000000000");
    await expect(page.getByTestId("listing-price")).toContainText("· 0.05 ETH", { timeout: 15_000 });
    await shots(page, "5-listed");
    // The account now exists (deployed by that operation), still holds no ETH, and the paymaster paid.
    expect(await chain.getCode({ address: account })).toMatch(/^0x[0-9a-f]+$/);
    expect(await chain.getBalance({ address: account })).toBe(0n);
    const depositAfterList = await deposit();
    expect(depositAfterList).toBeLessThan(depositBefore);

    // ------------------------------------------------------------ remove the listing, gas on us again
    await page.getByRole("button", { name: "Remove from marketplace" }).click();
    const remove = page.getByRole("dialog", { name: "Remove from marketplace" });
    await remove.getByRole("button", { name: "Yes" }).click();
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`)).listing ?? null, {
        timeout: 60_000,
      })
      .toBeNull();
    await expect(page.getByRole("button", { name: "Put to Sale" })).toBeVisible({ timeout: 15_000 });
    await shots(page, "6-cancelled");
    expect((await ownerOf()).toLowerCase()).toBe(account.toLowerCase());
    expect(await chain.getBalance({ address: account })).toBe(0n);
    expect(await deposit()).toBeLessThan(depositAfterList);

    // ------------------------------------------------------------ the profile's On Sale tab: list, reprice, remove
    const tokenPage = page.url();
    const listingPrice = async () =>
      (await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`)).listing?.priceWei ?? null;
    await page.getByRole("button", { name: "Put to Sale" }).click();
    await sale.getByLabel("Price (ETH)").fill("0.05");
    await sale.getByRole("button", { name: "Sell Instantly" }).click();
    await expect(page.getByText("NFT Listed on Sale").first()).toBeVisible({ timeout: 60_000 });
    await expect.poll(listingPrice, { timeout: 15_000 }).toBe("50000000000000000");
    await page.goto("/profile");
    // A tab clicked before the page hydrates reaches plain HTML and stays unselected (seen in a CI run).
    await waitForData(page);
    await page.getByRole("tab", { name: "On Sale" }).click();
    await expect(page.getByRole("tab", { name: "On Sale" })).toHaveAttribute("aria-selected", "true");
    const onSale = page
      .getByRole("tabpanel")
      .getByRole("listitem")
      .filter({ has: page.locator(`a[href="/nftshowcase/${order.tokenId}"]`) });
    await onSale.getByLabel("New price").fill("0.06");
    await onSale.getByRole("button", { name: "Change price" }).click();
    await expect(page.getByText("Price updated")).toBeVisible({ timeout: 60_000 });
    await expect.poll(listingPrice, { timeout: 15_000 }).toBe("60000000000000000");
    await shots(page, "6b-on-sale-repriced");
    await onSale.getByRole("button", { name: "Remove from marketplace" }).click();
    await page
      .getByRole("dialog", { name: "Remove from marketplace" })
      .getByRole("button", { name: "Yes" })
      .click();
    await expect.poll(listingPrice, { timeout: 60_000 }).toBeNull();

    // ------------------------------------------------------------ an auction, created and cancelled, gas on us
    await page.goto(tokenPage);
    await waitForData(page);
    await page.getByRole("button", { name: "Put to Sale" }).click();
    await sale.getByRole("button", { name: "Create Auction" }).click();
    const auctionDialog = page.getByRole("dialog", { name: "Create Auction" });
    await auctionDialog.getByLabel("Reserve price (ETH)").fill("0.01");
    await expectRupeesFirst(page, "auction dialog", auctionDialog);
    await auctionDialog.getByRole("button", { name: "Create Auction" }).click();
    await expect(page.getByText("Auction created")).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`)).auction?.seller, {
        timeout: 15_000,
      })
      .toBe(account);
    expect((await ownerOf()).toLowerCase()).toBe((info.marketplace as string).toLowerCase());
    const cancelAuction = page.getByRole("button", { name: "Cancel auction" });
    await expect(cancelAuction).toBeVisible({ timeout: 15_000 });
    // Her own auction: no bid buttons (the contract refuses a seller's bid), the reserve styled as a price.
    await expect(page.getByTestId("auction-own")).toBeVisible();
    await expect(page.getByRole("button", { name: "Place a bid" })).toHaveCount(0);
    await expect(page.getByText("Auction ends in")).toHaveCount(0);
    expect(
      await page.locator(".nft-price-grid").evaluate((grid) => getComputedStyle(grid).display),
      "the auction's prices are laid out by the shared styles on the token page",
    ).toBe("grid");
    await shots(page, "6c-auction");
    await cancelAuction.click();
    await expect(page.getByText("Auction cancelled")).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(async () => (await ownerOf()).toLowerCase(), { timeout: 15_000 })
      .toBe(account.toLowerCase());
    await expect(page.getByRole("button", { name: "Put to Sale" })).toBeVisible({ timeout: 15_000 });

    // ------------------------------------------------------------ "Send to my own wallet", confirmed, gas on us
    // Her own wallet app's address, linked to her account first (SIWE): our paymaster pays a transfer only
    // to a wallet of hers (decision 180).
    const ownKey = privateKeyToAccount(generatePrivateKey());
    const own = ownKey.address;
    {
      const n = await (await page.request.post("/api/v1/wallets/nonce")).json();
      const message = createSiweMessage({
        address: own,
        chainId: n.chainId,
        domain: n.domain,
        uri: n.uri,
        nonce: n.nonce,
        version: "1",
        issuedAt: new Date(),
      });
      const linked = await page.request.post("/api/v1/wallets", {
        data: { message, signature: await ownKey.signMessage({ message }) },
      });
      expect(linked.status(), await linked.text()).toBe(201);
    }
    await page.getByRole("button", { name: "Send to my own wallet" }).click();
    const send = page.getByRole("dialog", { name: "Send to my own wallet" });
    await send.getByLabel("Wallet address").fill(own.toLowerCase());
    await send.getByRole("button", { name: "Continue" }).click();
    await expect(send).toContainText(own);
    await shots(page, "6d-send-confirm");
    await expectFitsOnAPhone(send);
    await send.getByRole("button", { name: "Yes, send it" }).click();
    await expect(page.getByText("NFT sent to your wallet")).toBeVisible({ timeout: 60_000 });
    expect(await ownerOf()).toBe(own);
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${order.tokenId}`)).owner, {
        timeout: 15_000,
      })
      .toBe(own);
    await expect(page.getByRole("button", { name: "Put to Sale" })).toHaveCount(0);
    await shots(page, "6e-sent");
    expect(await chain.getBalance({ address: account })).toBe(0n);
    // Eight user operations of the account on the EntryPoint, each carried out and paid by our paymaster.
    const ops = await chain.getContractEvents({
      address: info.entryPoint as Address,
      abi: entryPoint08Abi,
      eventName: "UserOperationEvent",
      args: { sender: account },
      fromBlock: 0n,
    });
    expect(
      ops.map((o) => [o.args.paymaster, o.args.success]),
      "list, remove, list, reprice, remove, auction, cancel, send",
    ).toEqual(Array(8).fill([info.paymaster, true]));

    // ------------------------------------------------------------ the wallet page shows the passkey wallet
    await page.goto("/wallet");
    await waitForData(page);
    await expect(passkeyCard.getByTestId("passkey-address")).toHaveText(account);
    await expect(page.getByRole("list", { name: "Linked wallets" })).toContainText("Passkey wallet");
    await shots(page, "7-wallet");

    // ------------------------------------------------------------ crypto checkout: told what to do instead
    await page.goto(`/nftdetail/${nft.id}`);
    await waitForData(page);
    await page.getByRole("button", { name: "Purchase" }).click();
    await expect(dialog.getByTestId("crypto-hint")).toContainText("Your purchases go to your passkey wallet");
    await dialog.getByRole("button", { name: "Pay with wallet" }).click();
    await expect(dialog.getByRole("alert")).toContainText("pay by card");
    await expect(page).toHaveURL(new RegExp(`/nftdetail/${nft.id}$`));
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});

test("the wallet page makes the passkey wallet", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await addPlatformAuthenticator(page);
  const watch = watchPage(page);
  try {
    await signUpAndSignIn(page.request, "passkey-page", "Passkey Page Fan");
    await page.goto("/wallet");
    await waitForData(page);
    const passkeyCard = page.getByRole("region", { name: "Passkey wallet" });
    await passkeyCard.getByRole("button", { name: "Create my passkey wallet" }).click();
    await expect(page.getByText("Your passkey wallet is ready")).toBeVisible({ timeout: 15_000 });
    const address = (await passkeyCard.getByTestId("passkey-address").textContent()) ?? "";
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const { items } = await getJson<{ items: Wallet[] }>(page.request, "/api/v1/wallets");
    expect(items).toEqual([expect.objectContaining({ kind: "passkey", address, receivesPurchases: true })]);
    await shots(page, "8-wallet-created");
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});
