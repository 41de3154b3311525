import { describe, expect, it } from "vitest";
import { ANVIL_ADDRESSES } from "../src/anvil-accounts.js";
import { saleSplit } from "../src/proceeds.js";
import {
  advance,
  approveMarketplace,
  attack,
  balance,
  col,
  deployAttacker,
  ETH,
  eventOf,
  expectRevert,
  type Fixture,
  gasCost,
  minterMint,
  mp,
  readCol,
  readMp,
  useFixture,
  type Wallet,
  zeroAddress,
  heldBalance,
  treasuryFunds,
} from "./fixture.js";

let f: Fixture;
let tokenId: bigint;
let seller: Wallet;
let buyer: Wallet;
useFixture(async (chain) => {
  f = chain;
  seller = f.wallets[3] as Wallet;
  buyer = f.wallets[4] as Wallet;
  tokenId = (await minterMint(f, seller.account.address)).tokenId;
  await approveMarketplace(f, seller);
});

const listing = (id: bigint) =>
  readMp<{ seller: string; price: bigint; feeBps: number; royaltyBps: number }>(f, "getListing", [id]);
const terms = { feeBps: 250, royaltyBps: 1000 };

describe("list", () => {
  it("lists without taking custody and emits Listed", async () => {
    const r = await mp(f, seller, "list", [tokenId, ETH]);
    expect(eventOf(r, "Listed")).toEqual({ tokenId, seller: seller.account.address, price: ETH, ...terms });
    expect(await listing(tokenId)).toEqual({ seller: seller.account.address, price: ETH, ...terms });
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(seller.account.address);
  });

  it("accepts a single-token approval", async () => {
    const other = f.wallets[5] as Wallet;
    const t = (await minterMint(f, other.account.address)).tokenId;
    await expectRevert(mp(f, other, "list", [t, ETH]), "MarketplaceNotApproved");
    await col(f, other, "approve", [f.marketplace, t]);
    await mp(f, other, "list", [t, ETH]);
  });

  it("reverts: zero price, not owner, not approved, already listed, on auction, paused", async () => {
    await expectRevert(mp(f, seller, "list", [tokenId, 0n]), "InvalidPrice");
    await expectRevert(mp(f, buyer, "list", [tokenId, ETH]), "NotTokenOwner");
    await expectRevert(mp(f, seller, "list", [tokenId + 999n, ETH]), "NotTokenOwner");
    await col(f, seller, "setApprovalForAll", [f.marketplace, false]);
    await expectRevert(mp(f, seller, "list", [tokenId, ETH]), "MarketplaceNotApproved");
    await col(f, seller, "setApprovalForAll", [f.marketplace, true]);
    await mp(f, seller, "list", [tokenId, ETH]);
    await expectRevert(mp(f, seller, "list", [tokenId, 2n * ETH]), "AlreadyListed");
    await mp(f, seller, "cancelListing", [tokenId]);
    await mp(f, seller, "createAuction", [tokenId, ETH, 1]);
    await expectRevert(mp(f, seller, "list", [tokenId, ETH]), "TokenOnAuction");
    await mp(f, seller, "cancelAuction", [tokenId]);
    await mp(f, f.admin, "pause");
    await expectRevert(mp(f, seller, "list", [tokenId, ETH]), "EnforcedPause");
  });

  it("a stale listing (token transferred away) is overwritten by the new owner", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    await col(f, seller, "transferFrom", [seller.account.address, buyer.account.address, tokenId]);
    // The stale listing cannot be bought, whether or not the new owner approved the marketplace...
    await expectRevert(mp(f, f.wallets[6] as Wallet, "buy", [tokenId, ETH], ETH), "ListingStale");
    await approveMarketplace(f, buyer);
    await expectRevert(mp(f, f.wallets[6] as Wallet, "buy", [tokenId, ETH], ETH), "ListingStale");
    // ...and the new owner can list; the dead listing's removal is announced.
    const r = await mp(f, buyer, "list", [tokenId, 3n * ETH]);
    expect(eventOf(r, "ListingCancelled")).toEqual({ tokenId, seller: zeroAddress });
    expect(await listing(tokenId)).toEqual({ seller: buyer.account.address, price: 3n * ETH, ...terms });
  });
});

describe("zombie listings", () => {
  it("a listing dies when the token moves, even if it comes back to the seller", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    expect(await readMp(f, "isListingLive", [tokenId])).toBe(true);
    await col(f, seller, "transferFrom", [seller.account.address, buyer.account.address, tokenId]);
    await col(f, buyer, "transferFrom", [buyer.account.address, seller.account.address, tokenId]);
    // The seller owns the token again and still approves the marketplace, but the old price is dead.
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(seller.account.address);
    expect(await readMp(f, "isListingLive", [tokenId])).toBe(false);
    await expectRevert(mp(f, f.wallets[6] as Wallet, "buy", [tokenId, ETH], ETH), "ListingStale");
    // The seller can list again (not AlreadyListed), and that listing is live.
    await mp(f, seller, "list", [tokenId, 2n * ETH]);
    expect(await readMp(f, "isListingLive", [tokenId])).toBe(true);
    expect(await listing(tokenId)).toEqual({ seller: seller.account.address, price: 2n * ETH, ...terms });
    // Revoking the approval cancels it for good: approving again does not bring it back.
    await col(f, seller, "setApprovalForAll", [f.marketplace, false]);
    expect(await readMp(f, "isListingLive", [tokenId])).toBe(false);
    await col(f, seller, "setApprovalForAll", [f.marketplace, true]);
    expect(await readMp(f, "isListingLive", [tokenId])).toBe(false);
    expect((await listing(tokenId)).seller).toBe(zeroAddress);
    expect(await readMp(f, "isListingLive", [tokenId + 1n])).toBe(false);
  });
});

describe("updatePrice and cancelListing", () => {
  it("updates the price and emits ListingPriceUpdated", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    const r = await mp(f, seller, "updatePrice", [tokenId, 2n * ETH]);
    expect(eventOf(r, "ListingPriceUpdated")).toEqual({
      tokenId,
      seller: seller.account.address,
      previousPrice: ETH,
      newPrice: 2n * ETH,
    });
    expect((await listing(tokenId)).price).toBe(2n * ETH);
  });

  it("updatePrice reverts: not listed, not seller, zero price, paused", async () => {
    await expectRevert(mp(f, seller, "updatePrice", [tokenId, ETH]), "NotListed");
    await mp(f, seller, "list", [tokenId, ETH]);
    await expectRevert(mp(f, buyer, "updatePrice", [tokenId, ETH]), "NotListingSeller");
    await expectRevert(mp(f, seller, "updatePrice", [tokenId, 0n]), "InvalidPrice");
    await mp(f, f.admin, "pause");
    await expectRevert(mp(f, seller, "updatePrice", [tokenId, 2n * ETH]), "EnforcedPause");
  });

  it("cancels (also while paused) and emits ListingCancelled", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    await mp(f, f.admin, "pause");
    const r = await mp(f, seller, "cancelListing", [tokenId]);
    expect(eventOf(r, "ListingCancelled")).toEqual({ tokenId, seller: seller.account.address });
    expect((await listing(tokenId)).seller).toBe(zeroAddress);
  });

  it("cancelListing reverts: not listed, not seller", async () => {
    await expectRevert(mp(f, seller, "cancelListing", [tokenId]), "NotListed");
    await mp(f, seller, "list", [tokenId, ETH]);
    await expectRevert(mp(f, buyer, "cancelListing", [tokenId]), "NotListingSeller");
  });
});

describe("buy", () => {
  it("pays seller, royalty and platform fee and transfers the token", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    const [s0, ph0, tr0, b0] = await Promise.all([
      balance(f, seller.account.address),
      balance(f, f.productionHouse),
      treasuryFunds(f),
      balance(f, buyer.account.address),
    ]);
    const r = await mp(f, buyer, "buy", [tokenId, ETH], ETH);
    const royalty = ETH / 10n;
    const fee = (ETH * 250n) / 10_000n;
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(buyer.account.address);
    expect(await balance(f, seller.account.address)).toBe(s0 + ETH - royalty - fee);
    expect(await balance(f, f.productionHouse)).toBe(ph0 + royalty);
    expect(await treasuryFunds(f)).toBe(tr0 + fee);
    expect(await balance(f, buyer.account.address)).toBe(b0 - ETH - gasCost(r));
    expect(await heldBalance(f)).toBe(0n);
    expect(eventOf(r, "Sale")).toEqual({
      tokenId,
      seller: seller.account.address,
      buyer: buyer.account.address,
      price: ETH,
      royaltyReceiver: f.productionHouse,
      royaltyAmount: royalty,
      platformFee: fee,
      sellerProceeds: ETH - royalty - fee,
    });
    expect((await listing(tokenId)).seller).toBe(zeroAddress);
  });

  it("uses the admin fee and the token royalty at their maximums: royalty + fee < price", async () => {
    await mp(f, f.admin, "setFeeBps", [1000]);
    await advance(f, 7 * 24 * 3600);
    await mp(f, buyer, "applyFeeIncreases");
    await col(f, f.admin, "setTokenRoyalty", [tokenId, f.productionHouse, 1500]);
    await mp(f, seller, "list", [tokenId, 10_000n]);
    const r = await mp(f, buyer, "buy", [tokenId, 10_000n], 10_000n);
    const sale = eventOf(r, "Sale");
    expect([sale.royaltyAmount, sale.platformFee, sale.sellerProceeds]).toEqual([1500n, 1000n, 7500n]);
  });

  it("pays the seller what saleSplit (the sell dialogs' 'You receive') says, at awkward prices", async () => {
    const royaltyBps = (await readCol<{ royaltyBps: number }>(f, "tokenInfo", [tokenId])).royaltyBps;
    const feeBps = await readMp<number>(f, "feeBps");
    let owner = seller;
    let next = buyer;
    for (const price of [1n, 9_999n, 12_345_678_901_234_567n, ETH / 3n, 7n * ETH + 1n]) {
      await approveMarketplace(f, owner);
      await mp(f, owner, "list", [tokenId, price]);
      const sale = eventOf(await mp(f, next, "buy", [tokenId, price], price), "Sale");
      expect(sale).toMatchObject(saleSplit(price, feeBps, royaltyBps));
      [owner, next] = [next, owner];
    }
  });

  it("a seller cannot buy their own listing", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    await expectRevert(mp(f, seller, "buy", [tokenId, ETH], ETH), "BuyerIsSeller");
    expect(await readMp(f, "isListingLive", [tokenId])).toBe(true);
  });

  it("expected-price guard: a front-run price change makes the buy revert", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    await mp(f, seller, "updatePrice", [tokenId, 5n * ETH]); // seller front-runs
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], ETH), "PriceMismatch");
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], 5n * ETH), "PriceMismatch");
  });

  it("reverts: not listed, wrong payment, paused, approval revoked", async () => {
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], ETH), "NotListed");
    await mp(f, seller, "list", [tokenId, ETH]);
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], ETH - 1n), "WrongPayment");
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], ETH + 1n), "WrongPayment");
    await mp(f, f.admin, "pause");
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], ETH), "EnforcedPause");
    await mp(f, f.admin, "unpause");
    await col(f, seller, "setApprovalForAll", [f.marketplace, false]);
    await expectRevert(mp(f, buyer, "buy", [tokenId, ETH], ETH), "ListingStale");
  });

  it("a buyer contract that cannot receive ERC-721 cannot buy (safe transfer)", async () => {
    await mp(f, seller, "list", [tokenId, ETH]);
    const w = await deployAttacker(f, buyer);
    await attack(f, buyer, w, "configure", [false, true, zeroAddress, 0n, "0x"]);
    const { encodeFunctionData } = await import("viem");
    const { diginoorMarketplaceAbi } = await import("../generated/diginoorMarketplace.js");
    const data = encodeFunctionData({
      abi: diginoorMarketplaceAbi,
      functionName: "buy",
      args: [tokenId, ETH],
    });
    await expectRevert(attack(f, buyer, w, "execute", [f.marketplace, ETH, data], ETH), "Error");
  });

  it("a seller or royalty receiver that rejects ETH is credited, the sale goes through", async () => {
    const w = await deployAttacker(f, seller);
    await attack(f, seller, w, "configure", [true, false, zeroAddress, 0n, "0x"]);
    await col(f, f.admin, "setTokenRoyalty", [tokenId, w, 1000]);
    await mp(f, seller, "list", [tokenId, ETH]);
    await mp(f, buyer, "buy", [tokenId, ETH], ETH);
    expect(await readMp(f, "pendingWithdrawals", [w])).toBe(ETH / 10n);
    expect(await heldBalance(f)).toBe(ETH / 10n);
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(buyer.account.address);
  });
});

void ANVIL_ADDRESSES;
