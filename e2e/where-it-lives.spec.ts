import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import type { ChainInfo } from "@diginoor/api/chain";
import { expect, type Page, test } from "@playwright/test";
import { type Address, createPublicClient, http } from "viem";
import { signInAsAdmin, signUpAndSignIn } from "./support/accounts.ts";
import { fixedPriceNft, getJson } from "./support/api.ts";
import { openCardCheckout } from "./support/checkout.ts";
import { expectNoProblems, settle, shotsAtBothWidths, waitForData, watchPage } from "./support/page.ts";
import { linkTestWallet } from "./support/test-wallet.ts";

/**
 * "Where it lives" (issue 25): a fan buys by card (the token minted to their linked wallet, anvil account
 * 3), and the token page says where it is: the chain, the contract and token id the chain has, the
 * owner's wallet, the metadata URL, no explorer on the local chain. An NFT none of whose editions is
 * minted says it is not on chain yet. The console's Chain section shows the base URI and asks before the
 * exit to IPFS (cancelled here: the exit would move every token's metadata for the other specs).
 */
const shots = (page: Page, name: string) => shotsAtBothWidths(page, `where-${name}`);

test("a minted token's page says where it lives, as the chain has it", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const info = await getJson<ChainInfo>(request, "/api/v1/chain");
  const chain = createPublicClient({ transport: http(info.rpcUrl as string) });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page);
  try {
    await signUpAndSignIn(page.request, "where", "Where Fan");
    const wallet = await linkTestWallet(page, {
      rpcUrl: info.rpcUrl as string,
      chainId: info.chainId as number,
      privateKey: ANVIL_PRIVATE_KEYS[3] as `0x${string}`,
    });

    const nft = await fixedPriceNft(request, 9);
    const { card } = await openCardCheckout(page, nft);
    await card.click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//, { timeout: 15_000 });
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByRole("heading", { name: "Your NFT is in your wallet!" })).toBeVisible({
      timeout: 60_000,
    });
    const orderId = page.url().split("/").pop()!;
    const { tokenId } = await getJson<{ tokenId: string }>(page.request, `/api/v1/orders/${orderId}`);

    // What the chain itself says about the token.
    const collectible = info.collectible as Address;
    const [owner, tokenUri] = await Promise.all([
      chain.readContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [BigInt(tokenId)],
      }),
      chain.readContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "tokenURI",
        args: [BigInt(tokenId)],
      }),
    ]);
    expect(owner).toBe(wallet.address);

    await page.goto(`/nftshowcase/${tokenId}`);
    await waitForData(page);
    const region = page.getByRole("region", { name: "Where it lives" });
    await expect(region).toBeVisible();
    // The technical facts are folded under "Details" (issue 35): closed at first, then opened.
    await expect(region.locator("dt", { hasText: "Contract address" })).toBeHidden();
    await region.locator("summary", { hasText: "Details" }).click();
    const fact = (label: string) =>
      region.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
    await expect(fact("Chain")).toHaveText(`Local chain (chain id ${info.chainId})`);
    await expect(fact("Contract address")).toHaveText(collectible);
    await expect(fact("Token id")).toHaveText(tokenId);
    await expect(fact("Owner's wallet")).toContainText(owner);
    await expect(fact("Metadata (tokenURI)")).toContainText(tokenUri);
    // The local chain has no explorer: said, not linked.
    await expect(fact("Block explorer")).toContainText("no public block explorer");
    await expect(region.getByTestId("explorer-link")).toHaveCount(0);
    await settle(page);
    await shots(page, "1-token");

    // An NFT nobody has bought an edition of: not on chain yet.
    const unminted = await fixedPriceNft(request, 10);
    await page.goto(`/nftdetail/${unminted.id}`);
    await waitForData(page);
    await expect(page.getByTestId("not-on-chain")).toContainText("Not on chain yet");
    await settle(page);
    await shots(page, "2-unminted-nft");
    expectNoProblems(watch);
  } finally {
    await context.close();
  }
});

test("the console's Chain section shows where token URIs point and asks before the exit to IPFS", async ({
  page,
}) => {
  await signInAsAdmin(page.request);
  const watch = watchPage(page);
  await page.goto("/admin/chain");
  await waitForData(page);
  await expect(page.getByText("Collectible contract")).toBeVisible();
  await page.getByRole("button", { name: "Exit to IPFS" }).click();
  const field = page.getByLabel(/^Root CID/);
  // The packages/api schema refuses what is not a CID before anything is sent.
  await field.fill("not-a-cid");
  await page.getByRole("button", { name: "Point metadata at IPFS" }).click();
  await expect(page.getByText("Enter the root CID the export printed (bafy…)")).toBeVisible();
  await shots(page, "3-console-exit-form");
  const root = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";
  await field.fill(root);
  await page.getByRole("button", { name: "Point metadata at IPFS" }).click();
  const dialog = page.getByRole("dialog", { name: "Point every token's metadata at IPFS?" });
  await expect(dialog).toContainText(`ipfs://${root}/metadata/…`);
  await shots(page, "4-console-exit-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  expectNoProblems(watch);
});
