/**
 * Regression tests for the third contracts audit (issue 22): one describe per finding. Each test failed on the
 * contracts before the fixes, for the finding's reason (run against them with the old voucher type; the failures
 * are listed in docs/decisions/109-contract-keys-and-roles.md), and passes now.
 */
import { createPublicClient, http } from "viem";
import { describe, expect, it } from "vitest";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { startAnvil } from "../src/anvil.js";
import { deployAll, MINTER_ROLE } from "../src/deploy.js";
import { toOrderId } from "../src/voucher.js";
import {
  advance,
  approveMarketplace,
  balance,
  col,
  ETH,
  eventOf,
  expectRevert,
  type Fixture,
  makeVoucher,
  minterMint,
  mp,
  now,
  readCol,
  readMp,
  SIGNER_ADDRESS,
  SIGNER_KEY,
  setPrimaryTerms,
  send,
  useFixture,
  type Wallet,
} from "./fixture.js";

let f: Fixture;
let seller: Wallet;
let alice: Wallet;
let bob: Wallet;
let tokenId: bigint;
const DAY = 86_400n;
const WEEK = 7n * DAY;

useFixture(async (chain) => {
  f = chain;
  seller = f.wallets[3] as Wallet;
  alice = f.wallets[4] as Wallet;
  bob = f.wallets[5] as Wallet;
  tokenId = (await minterMint(f, seller.account.address)).tokenId;
  await approveMarketplace(f, seller);
});

const buyVoucher = (w: Wallet, v: Awaited<ReturnType<typeof makeVoucher>>) =>
  mp(f, w, "purchase", [v.voucher, v.signature], v.voucher.priceWei);

describe("finding 1: the signer key alone cannot mint below the catalogue's price, redirect money or take order ids", () => {
  it("a voucher below the item's floor is refused: no mint for nothing", async () => {
    await setPrimaryTerms(f, 42n, f.productionHouse, ETH);
    const v = await makeVoucher(f, alice.account.address, { priceWei: 0n });
    await expectRevert(buyVoucher(alice, v), "PriceBelowFloor");
    const under = await makeVoucher(f, alice.account.address, { priceWei: ETH - 1n });
    await expectRevert(buyVoucher(alice, under), "PriceBelowFloor");
    const r = await buyVoucher(alice, await makeVoucher(f, alice.account.address, { priceWei: ETH }));
    expect(eventOf(r, "PrimaryPurchase").price).toBe(ETH);
  });

  it("the payee and royalty receiver are the item's, whatever the signer would like", async () => {
    const before = await readMp<bigint>(f, "pendingWithdrawals", [f.productionHouse]);
    const r = await buyVoucher(alice, await makeVoucher(f, alice.account.address, { priceWei: ETH }));
    // The payee (PrimaryPurchase's proceeds) is the item's royalty receiver, named by CollectibleMinted.
    expect(eventOf(r, "CollectibleMinted").royaltyReceiver).toBe(f.productionHouse);
    // Its proceeds are credited to the item's payee (withdrawable by it alone), never to the signer's choice.
    const net = ETH - (ETH * 250n) / 10_000n;
    expect(await readMp(f, "pendingWithdrawals", [f.productionHouse])).toBe(before + net);
    expect(await readMp(f, "pendingWithdrawals", [SIGNER_ADDRESS])).toBe(0n);
    // An item without terms cannot be sold by voucher at all.
    const unknown = await makeVoucher(f, alice.account.address, { catalogueNftId: 999n });
    await expectRevert(buyVoucher(alice, unknown), "NoPrimaryTerms");
  });

  it("the signer cannot set terms; the minter and the admin can", async () => {
    const signerWallet = f.wallets[0] as Wallet; // stand-in caller check uses the signer's key below
    void signerWallet;
    const { createWalletClient } = await import("viem");
    const { privateKeyToAccount } = await import("viem/accounts");
    const signer = createWalletClient({
      account: privateKeyToAccount(SIGNER_KEY),
      chain: f.chain,
      transport: http(f.anvil.rpcUrl),
    });
    await f.testClient.setBalance({ address: SIGNER_ADDRESS, value: ETH });
    await expectRevert(
      send(f, signer as Wallet, {
        address: f.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "setPrimaryTerms",
        args: [42n, SIGNER_ADDRESS, 0n],
      }),
      "AccessControlUnauthorizedAccount",
    );
    await col(f, f.admin, "setPrimaryTerms", [42n, ANVIL_ADDRESSES[6], 5n]);
    expect(await readCol(f, "primaryTerms", [42n])).toEqual([ANVIL_ADDRESSES[6], 5n]);
  });

  it("a voucher cannot take the order id of a card order (ids below 2^64), nor the minter a voucher's", async () => {
    const cardOrder = toOrderId(1234n);
    const v = await makeVoucher(f, alice.account.address, { orderId: cardOrder });
    await expectRevert(buyVoucher(alice, v), "NotVoucherOrderId");
    // The card order is still minted to its buyer.
    await minterMint(f, bob.account.address, { orderId: cardOrder });
    expect(await readCol(f, "ownerOf", [1234n])).toBe(bob.account.address);
    const w = await makeVoucher(f, alice.account.address);
    await expectRevert(
      minterMint(f, bob.account.address, { orderId: w.voucher.orderId }),
      "NotMinterOrderId",
    );
  });

  it("only the marketplace mints primary sales", async () => {
    await expectRevert(
      col(f, f.minter, "mintPrimary", [alice.account.address, 42n, 1, toOrderId(2n ** 64n + 1n), 0n]),
      "NotMarketplace",
    );
  });
});

describe("finding 2: a primary fee decrease does not break vouchers in flight", () => {
  it("a voucher signed at 250 bps is redeemed after the fee drops to 100, until it expires", async () => {
    const v = await makeVoucher(f, alice.account.address, { platformFeeBps: 250 });
    await mp(f, f.admin, "setPrimaryFeeBps", [100]);
    await mp(f, f.admin, "setPrimaryFeeBps", [50]); // a second decrease keeps the first one's grace
    const r = await buyVoucher(alice, v);
    expect(eventOf(r, "PrimaryPurchase").platformFee).toBe((v.voucher.priceWei * 250n) / 10_000n);
  });

  it("but a voucher above the old fee, or living past the grace, is refused", async () => {
    await mp(f, f.admin, "setPrimaryFeeBps", [100]);
    const higher = await makeVoucher(f, alice.account.address, { platformFeeBps: 251 });
    await expectRevert(buyVoucher(alice, higher), "VoucherFeeTooHigh");
    const long = await makeVoucher(f, alice.account.address, {
      platformFeeBps: 250,
      expiry: (await now(f)) + 2n * DAY,
    });
    await expectRevert(buyVoucher(alice, long), "VoucherFeeTooHigh");
    await advance(f, DAY + 1n);
    const late = await makeVoucher(f, alice.account.address, { platformFeeBps: 250 });
    await expectRevert(buyVoucher(alice, late), "VoucherFeeTooHigh");
    await buyVoucher(alice, await makeVoucher(f, alice.account.address, { platformFeeBps: 100 }));
  });
});

describe("finding 3: cancellation is per voucher, and a redeemed order cannot be cancelled", () => {
  it("a repriced order's new voucher is accepted after the old one was cancelled", async () => {
    const old = await makeVoucher(f, alice.account.address, { priceWei: ETH });
    const c = await mp(f, f.admin, "cancelVoucher", [old.voucher]);
    expect(eventOf(c, "VoucherCancelled").orderId).toBe(old.voucher.orderId);
    await expectRevert(buyVoucher(alice, old), "VoucherIsCancelled");
    const repriced = await makeVoucher(f, alice.account.address, {
      priceWei: ETH / 2n,
      orderId: old.voucher.orderId,
    });
    await buyVoucher(alice, repriced);
  });

  it("cancelling a redeemed order is refused (no misleading VoucherCancelled)", async () => {
    const v = await makeVoucher(f, alice.account.address);
    await buyVoucher(alice, v);
    await expectRevert(mp(f, f.admin, "cancelVoucher", [v.voucher]), "VoucherAlreadyRedeemed");
  });
});

describe("finding 4: deployments refuse one hot key; the admin is the multisig from the constructors", () => {
  it("a non-development chain with one key is refused, saying what to pass", async () => {
    const anvil = await startAnvil({ chainId: 137 });
    try {
      await expect(deployAll({ rpcUrl: anvil.rpcUrl, metadataBaseUri: "https://x.test/" })).rejects.toThrow(
        /--admin <multisig address>.*--minter.*--signer.*--treasury/,
      );
      // Minter = signer is refused too.
      await expect(
        deployAll({
          rpcUrl: anvil.rpcUrl,
          metadataBaseUri: "https://x.test/",
          adminAddress: ANVIL_ADDRESSES[8],
          minterAddress: ANVIL_ADDRESSES[1],
          signerAddress: ANVIL_ADDRESSES[1],
          treasury: ANVIL_ADDRESSES[9],
        }),
      ).rejects.toThrow(/signer is the same address as the minter/);
      const pc = createPublicClient({ transport: http(anvil.rpcUrl) });
      expect(await pc.getTransactionCount({ address: ANVIL_ADDRESSES[0] })).toBe(0); // nothing was sent
    } finally {
      await anvil.stop();
    }
  });

  it("the collectible's admin is the multisig from its constructor; the deployer holds no role", async () => {
    const multisig = ANVIL_ADDRESSES[8];
    const anvil = await startAnvil({ chainId: 137 });
    try {
      const d = await deployAll({
        rpcUrl: anvil.rpcUrl,
        metadataBaseUri: "https://x.test/",
        adminAddress: multisig,
        minterAddress: ANVIL_ADDRESSES[1],
        signerAddress: SIGNER_ADDRESS,
        treasury: ANVIL_ADDRESSES[9],
      });
      const pc = createPublicClient({ transport: http(anvil.rpcUrl) });
      const read = (functionName: string, args: readonly unknown[] = []) =>
        pc.readContract({ address: d.collectible, abi: diginoorCollectibleAbi, functionName, args } as never);
      expect(await read("defaultAdmin")).toBe(multisig);
      expect(await read("hasRole", [MINTER_ROLE, d.marketplace])).toBe(true);
      expect(await read("hasRole", [MINTER_ROLE, ANVIL_ADDRESSES[1]])).toBe(true);
      expect(await read("hasRole", [MINTER_ROLE, ANVIL_ADDRESSES[0]])).toBe(false);
      expect(await read("marketplace")).toBe(d.marketplace);
      expect(await pc.getTransactionCount({ address: ANVIL_ADDRESSES[0] })).toBe(2); // two deployments only
    } finally {
      await anvil.stop();
    }
  });
});

describe("finding 5: the post-pause end is visible at once", () => {
  it("auctionEndsAt and the Unpaused event show the post-pause end right after the unpause", async () => {
    await mp(f, seller, "createAuction", [tokenId, ETH, 1]);
    await mp(f, alice, "bid", [tokenId], ETH);
    const end = BigInt((await readMp<{ endTime: number }>(f, "getAuction", [tokenId])).endTime);
    await f.testClient.setNextBlockTimestamp({ timestamp: end - 300n });
    const p = await mp(f, f.admin, "pause");
    expect(eventOf(p, "Paused").endsBy).toBe(end - 300n + WEEK);
    // During the pause: the latest it can be.
    expect(await readMp(f, "auctionEndsAt", [tokenId])).toBe(end - 300n + WEEK + 900n);
    await f.testClient.setNextBlockTimestamp({ timestamp: end - 200n });
    const u = await mp(f, f.admin, "unpause");
    const unpausedAt = end - 200n;
    expect(eventOf(u, "Unpaused")).toMatchObject({ pausedAt: end - 300n, biddingUntil: unpausedAt + 900n });
    expect(await readMp(f, "auctionEndsAt", [tokenId])).toBe(unpausedAt + 900n);
    // Bidding really is open until then (past the stored end).
    await f.testClient.setNextBlockTimestamp({ timestamp: unpausedAt + 899n });
    await mp(f, bob, "bid", [tokenId], 2n * ETH);
  });
});

describe("finding 6: the marketplace never becomes a royalty receiver", () => {
  it("not even after its minter role is revoked", async () => {
    await col(f, f.admin, "revokeRole", [MINTER_ROLE, f.marketplace]);
    await expectRevert(
      col(f, f.admin, "setTokenRoyalty", [tokenId, f.marketplace, 1000]),
      "InvalidRoyaltyReceiver",
    );
    await expectRevert(
      minterMint(f, alice.account.address, { royaltyReceiver: f.marketplace }),
      "InvalidRoyaltyReceiver",
    );
    await expectRevert(setPrimaryTerms(f, 42n, f.marketplace, 0n), "InvalidRoyaltyReceiver");
    // Nor a minter (its role lets it mint, and the marketplace pays royalties to a receiver that can withdraw).
    await expectRevert(setPrimaryTerms(f, 42n, f.minter.account.address, 0n), "InvalidRoyaltyReceiver");
  });
});

describe("platform fees accrue and go to the treasury (gas: one storage write instead of a payment)", () => {
  it("a sale credits the fee; anyone sends it to the treasury, once", async () => {
    await mp(f, seller, "list", [tokenId, 10_000n]);
    await mp(f, alice, "buy", [tokenId, 10_000n], 10_000n);
    expect(await readMp(f, "accruedFees")).toBe(250n);
    const b0 = await balance(f, f.treasury);
    const w = await mp(f, bob, "withdrawFees");
    expect(eventOf(w, "FeesWithdrawn")).toEqual({ treasury: f.treasury, amount: 250n });
    expect(await balance(f, f.treasury)).toBe(b0 + 250n);
    expect(await readMp(f, "accruedFees")).toBe(0n);
    await expectRevert(mp(f, bob, "withdrawFees"), "NothingToWithdraw");
  });

  it("a new treasury starts from zero: the previous one is paid what accrued under it", async () => {
    await buyVoucher(alice, await makeVoucher(f, alice.account.address, { priceWei: 10_000n }));
    const b0 = await balance(f, f.treasury);
    await mp(f, f.admin, "setTreasury", [ANVIL_ADDRESSES[6]]);
    expect(await balance(f, f.treasury)).toBe(b0 + 250n);
    expect(await readMp(f, "accruedFees")).toBe(0n);
  });
});

describe("finding 7: admin changes apply to trades agreed afterwards; announced increases lapse", () => {
  it("a live auction keeps its minimum increment", async () => {
    await mp(f, seller, "createAuction", [tokenId, 10_000n, 1]);
    await mp(f, alice, "bid", [tokenId], 10_000n);
    await mp(f, f.admin, "setMinIncrementBps", [5000]);
    expect(await readMp(f, "minimumBid", [tokenId])).toBe(10_500n);
    await mp(f, bob, "bid", [tokenId], 10_500n);
  });

  it("an announced fee increase lapses when not applied within its window", async () => {
    await mp(f, f.admin, "setFeeBps", [500]);
    await mp(f, f.admin, "setPrimaryFeeBps", [500]);
    await advance(f, 2n * WEEK + 1n);
    await expectRevert(mp(f, bob, "applyFeeIncreases"), "NoFeeIncreaseDue");
    expect(await readMp(f, "feeBps")).toBe(250);
    expect(await readMp(f, "primaryFeeBps")).toBe(250);
  });

  it("an increase applied within its window still applies", async () => {
    await mp(f, f.admin, "setFeeBps", [500]);
    // An hour before the window closes: anvil's clock also moves with the wall clock between blocks,
    // and at exactly 2 weeks a CI run's next block came a second after the window had closed.
    await advance(f, 2n * WEEK - 3600n);
    await mp(f, bob, "applyFeeIncreases");
    expect(await readMp(f, "feeBps")).toBe(500);
  });

  it("redirecting a token's royalty ends its live listing, and waits for its auction", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    await col(f, f.admin, "setTokenRoyalty", [tokenId, ANVIL_ADDRESSES[7], 1000]);
    await expectRevert(mp(f, alice, "buy", [tokenId, ETH], ETH), "ListingStale");
    await mp(f, seller, "createAuction", [tokenId, ETH, 1]);
    await expectRevert(
      col(f, f.admin, "setTokenRoyalty", [tokenId, f.productionHouse, 1000]),
      "TokenInEscrow",
    );
  });
});

void ANVIL_PRIVATE_KEYS;
