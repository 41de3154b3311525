import type { ChainInfo, Token } from "@diginoor/api/chain";
import type { Order } from "@diginoor/api/orders";
import type { Wallet } from "@diginoor/api/wallets";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { expect, type Page, test } from "@playwright/test";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { expectNoProblems, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { expectRupeesFirst } from "./support/prices.ts";
import { addPlatformAuthenticator } from "./support/passkey.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * Issue 27 point 4 (decision 165): a fan with no wallet app buys another fan's resale listing by card.
 * The seller (a third fan, with a wallet app) bought a token and listed it on chain. The buyer opens the
 * token's page, sees the card checkout beside the crypto "Buy NFT" (rupees first), gets a passkey wallet
 * in the checkout (Chromium's virtual WebAuthn authenticator), pays on the sandbox's hosted page; our
 * buyer key buys the listing on chain and sends the token to the buyer's smart account, which holds 0 ETH.
 * Screenshots at 1440 px and 390 px.
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `passkey-resale-${name}`);

test("a fan without a wallet app buys another fan's listing by card and receives the token", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const info = await getJson<ChainInfo>(request, "/api/v1/chain");
  const rpcUrl = info.rpcUrl as string;
  const chain = createPublicClient({ transport: http(rpcUrl) });
  const anvil = createTestClient({ mode: "anvil", transport: http(rpcUrl) });
  const nft = await fixedPriceNft(request, 7);
  const price = parseEther("0.01");

  // ------------------------------------------------------------ the seller: a fan with a wallet app lists a token
  const sellerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const sellerPage = await sellerContext.newPage();
  const sellerKey = generatePrivateKey();
  const seller = privateKeyToAccount(sellerKey);
  let tokenId: bigint;
  try {
    await signUpAndSignIn(sellerPage.request, "reseller", "Reseller Fan");
    await anvil.setBalance({ address: seller.address, value: parseEther("1") });
    await linkTestWallet(sellerPage, { rpcUrl, chainId: info.chainId as number, privateKey: sellerKey });
    const created = await sellerPage.request.post("/api/v1/orders", {
      data: { nftId: nft.id, provider: "sandbox" },
    });
    expect(created.status(), await created.text()).toBe(201);
    const bought = (await created.json()) as Order;
    const paid = await sellerPage.request.post(`${bought.checkoutUrl}/pay`, { maxRedirects: 0 });
    expect(paid.status()).toBe(302);
    await expect
      .poll(
        async () => (await getJson<Order>(sellerPage.request, `/api/v1/orders/${bought.orderId}`)).state,
        {
          timeout: 60_000,
        },
      )
      .toBe("fulfilled");
    tokenId = BigInt(bought.tokenId);
    const wallet = createWalletClient({ account: seller, transport: http(rpcUrl) });
    const send = async (hash: Promise<Hex>) =>
      expect((await chain.waitForTransactionReceipt({ hash: await hash })).status).toBe("success");
    await send(
      wallet.writeContract({
        chain: null,
        address: info.collectible as Address,
        abi: diginoorCollectibleAbi,
        functionName: "setApprovalForAll",
        args: [info.marketplace as Address, true],
      }),
    );
    await send(
      wallet.writeContract({
        chain: null,
        address: info.marketplace as Address,
        abi: diginoorMarketplaceAbi,
        functionName: "list",
        args: [tokenId, price],
      }),
    );
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${tokenId}`)).listing?.priceWei, {
        timeout: 15_000,
      })
      .toBe(price.toString());
  } finally {
    await sellerContext.close();
  }
  const sellerBalance = await chain.getBalance({ address: seller.address });

  // ------------------------------------------------------------ the buyer: no wallet app, a passkey on the device
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await addPlatformAuthenticator(page);
  const watch = watchPage(page);
  try {
    await signUpAndSignIn(page.request, "resale-buyer", "Resale Fan");
    await page.goto(`/nftshowcase/${tokenId}`);
    await waitForData(page);
    const checkout = page.getByTestId("resale-checkout");
    const card = checkout.getByRole("button", { name: /Pay by card \(sandbox\)/ });
    await expect(card).toBeVisible();
    await expect(checkout.getByText(/No wallet yet\? Paying makes you one with a passkey/)).toBeVisible();
    await expectRupeesFirst(page, "the resale card checkout", checkout);
    await shots(page, "1-listing");
    await card.click();

    await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/, { timeout: 20_000 });
    const { items } = await getJson<{ items: Wallet[] }>(page.request, "/api/v1/wallets");
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "passkey", receivesPurchases: true });
    const account = items[0]!.address as Address;
    await page.getByRole("button", { name: /^Pay / }).click();

    await expect(page).toHaveURL(new RegExp(`/confirmation/${nft.id}/[0-9a-f-]{36}$`), { timeout: 15_000 });
    const orderId = page.url().split("/").pop()!;
    await expect
      .poll(async () => (await getJson<Order>(page.request, `/api/v1/orders/${orderId}`)).state, {
        timeout: 60_000,
      })
      .toBe("fulfilled");
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 30_000,
    });
    await shots(page, "2-confirmed");
    const order = await getJson<Order>(page.request, `/api/v1/orders/${orderId}`);
    expect(order).toMatchObject({ kind: "resale", tokenId: tokenId.toString(), priceWei: price.toString() });

    // Owned on anvil by the buyer's smart account, which holds no ETH; the seller was paid on chain.
    const owner = await chain.readContract({
      address: info.collectible as Address,
      abi: diginoorCollectibleAbi,
      functionName: "ownerOf",
      args: [tokenId],
    });
    expect(owner.toLowerCase()).toBe(account.toLowerCase());
    expect(await chain.getBalance({ address: account })).toBe(0n);
    expect(await chain.getBalance({ address: seller.address })).toBeGreaterThan(sellerBalance);
    await expect
      .poll(async () => (await getJson<Token>(request, `/api/v1/tokens/${tokenId}`)).owner.toLowerCase(), {
        timeout: 15_000,
      })
      .toBe(account.toLowerCase());

    // The token page now says it is theirs to sell.
    await page.goto(`/nftshowcase/${tokenId}`);
    await waitForData(page);
    await expect(page.getByRole("button", { name: "Put to Sale" })).toBeVisible({ timeout: 15_000 });
    await shots(page, "3-owned");
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});
