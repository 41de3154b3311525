import { describe, expect, it } from "vitest";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import {
  advance,
  approveMarketplace,
  attack,
  balance,
  col,
  deployAttacker,
  encodeFunctionData,
  ETH,
  eventOf,
  events,
  expectRevert,
  type Fixture,
  gasCost,
  minterMint,
  mp,
  now,
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
let alice: Wallet;
let bob: Wallet;
const DAY = 86_400n;

useFixture(async (chain) => {
  f = chain;
  seller = f.wallets[3] as Wallet;
  alice = f.wallets[4] as Wallet;
  bob = f.wallets[5] as Wallet;
  tokenId = (await minterMint(f, seller.account.address)).tokenId;
  await approveMarketplace(f, seller);
});

type Auction = {
  seller: string;
  endTime: number;
  durationDays: number;
  highestBidder: string;
  amount: bigint;
};
const auction = (id = tokenId) => readMp<Auction>(f, "getAuction", [id]);
const create = (reserve = ETH, days = 1) => mp(f, seller, "createAuction", [tokenId, reserve, days]);
const bid = (w: Wallet, value: bigint, id = tokenId) => mp(f, w, "bid", [id], value);

describe("createAuction", () => {
  it("escrows the token and records the auction", async () => {
    const r = await create(ETH, 3);
    expect(eventOf(r, "AuctionCreated")).toEqual({
      tokenId,
      seller: seller.account.address,
      reservePrice: ETH,
      durationDays: 3,
      feeBps: 250,
      royaltyBps: 1000,
      minIncrementBps: 500,
    });
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(f.marketplace);
    expect(await auction()).toEqual({
      seller: seller.account.address,
      endTime: 0,
      durationDays: 3,
      feeBps: 250,
      royaltyBps: 1000,
      minIncrementBps: 500,
      highestBidder: zeroAddress,
      amount: ETH,
    });
    expect(await readMp(f, "minimumBid", [tokenId])).toBe(ETH);
  });

  it("reverts: zero reserve, bad duration, not owner, already listed, on auction, not approved, paused", async () => {
    await expectRevert(create(0n), "InvalidPrice");
    await expectRevert(create(ETH, 0), "InvalidDuration");
    await expectRevert(create(ETH, 31), "InvalidDuration");
    await expectRevert(mp(f, alice, "createAuction", [tokenId, ETH, 1]), "NotTokenOwner");
    await mp(f, seller, "list", [tokenId, ETH]);
    await expectRevert(create(), "AlreadyListed");
    await mp(f, seller, "cancelListing", [tokenId]);
    await create();
    await expectRevert(create(), "TokenOnAuction");
    await mp(f, seller, "cancelAuction", [tokenId]);
    await col(f, seller, "setApprovalForAll", [f.marketplace, false]);
    await expectRevert(create(), "ERC721InsufficientApproval");
    await col(f, seller, "setApprovalForAll", [f.marketplace, true]);
    await mp(f, f.admin, "pause");
    await expectRevert(create(), "EnforcedPause");
  });

  it("accepts the maximum duration of 30 days", async () => {
    await create(ETH, 30);
    await bid(alice, ETH);
    const t = await now(f);
    expect(BigInt((await auction()).endTime)).toBe(t + 30n * DAY);
  });
});

describe("bid", () => {
  it("first bid at the reserve starts the clock", async () => {
    await create(ETH, 2);
    await expectRevert(bid(alice, ETH - 1n), "BidBelowReserve");
    const r = await bid(alice, ETH);
    const t = await now(f);
    expect(eventOf(r, "BidPlaced")).toEqual({
      tokenId,
      bidder: alice.account.address,
      amount: ETH,
      endTime: t + 2n * DAY,
      previousBidder: zeroAddress,
      previousBid: 0n,
    });
    expect(await auction()).toMatchObject({
      highestBidder: alice.account.address,
      amount: ETH,
      endTime: Number(t + 2n * DAY),
    });
    expect(await heldBalance(f)).toBe(ETH);
  });

  it("later bids must beat the highest by the minimum increment; the outbid bidder is refunded at once", async () => {
    await create();
    await bid(alice, ETH);
    const min = ETH + ETH / 20n;
    expect(await readMp(f, "minimumBid", [tokenId])).toBe(min);
    await expectRevert(bid(bob, min - 1n), "BidTooLow");
    const a0 = await balance(f, alice.account.address);
    const r = await bid(bob, min);
    expect(await balance(f, alice.account.address)).toBe(a0 + ETH);
    expect(eventOf(r, "BidPlaced")).toMatchObject({
      bidder: bob.account.address,
      amount: min,
      previousBidder: alice.account.address,
      previousBid: ETH,
    });
    expect(await heldBalance(f)).toBe(min);
    // A bidder may raise their own bid; they get their previous bid back.
    const b0 = await balance(f, bob.account.address);
    const next = (min * 105n) / 100n + 1n;
    const r2 = await bid(bob, next);
    expect(await balance(f, bob.account.address)).toBe(b0 - next + min - gasCost(r2));
  });

  it("the increment is admin-set and is at least 1 wei", async () => {
    await mp(f, f.admin, "setMinIncrementBps", [1000]);
    await mp(f, seller, "createAuction", [tokenId, 10n, 1]);
    await bid(alice, 10n);
    expect(await readMp(f, "minimumBid", [tokenId])).toBe(11n);
    await expectRevert(bid(bob, 10n), "BidTooLow");
    await bid(bob, 11n);
    expect(await readMp(f, "minimumBid", [tokenId])).toBe(12n);
    // 5% of 19 wei rounds down to 0: a bid must still beat the highest by 1 wei.
    const tiny = (await minterMint(f, seller.account.address)).tokenId;
    await mp(f, f.admin, "setMinIncrementBps", [500]);
    await mp(f, seller, "createAuction", [tiny, 19n, 1]);
    await bid(alice, 19n, tiny);
    await expectRevert(bid(bob, 19n, tiny), "BidTooLow");
    await bid(bob, 20n, tiny);
  });

  it("a bid in the last 15 minutes extends the end to 15 minutes after it; bids after the end revert", async () => {
    await create(ETH, 1);
    await bid(alice, ETH);
    const end = BigInt((await auction()).endTime);
    // A bid 20 minutes before the end does not extend.
    await f.testClient.setNextBlockTimestamp({ timestamp: end - 1200n });
    await bid(bob, 2n * ETH);
    expect(BigInt((await auction()).endTime)).toBe(end);
    // A bid 10 minutes before the end extends to bid time + 15 minutes.
    await f.testClient.setNextBlockTimestamp({ timestamp: end - 600n });
    const r = await bid(alice, 3n * ETH);
    expect(BigInt((await auction()).endTime)).toBe(end + 300n);
    expect(eventOf(r, "BidPlaced").endTime).toBe(end + 300n);
    await f.testClient.setNextBlockTimestamp({ timestamp: end + 300n });
    await expectRevert(bid(bob, 4n * ETH), "AuctionEnded");
  });

  it("reverts: no auction, seller bids, paused, amount above uint96", async () => {
    await expectRevert(bid(alice, ETH), "AuctionNotFound");
    await create();
    await expectRevert(bid(seller, ETH), "SellerCannotBid");
    await f.testClient.setBalance({ address: bob.account.address, value: 2n ** 97n });
    await expectRevert(bid(bob, 2n ** 96n), "BidTooHigh");
    await mp(f, f.admin, "pause");
    await expectRevert(bid(alice, ETH), "EnforcedPause");
    await expectRevert(readMp(f, "minimumBid", [tokenId + 1n]), "AuctionNotFound");
  });
});

describe("boundaries (each test kills an off-by-one mutant)", () => {
  const at = (t: bigint) => f.testClient.setNextBlockTimestamp({ timestamp: t });
  const end = async () => BigInt((await auction()).endTime);

  it("a bid with exactly 15 minutes left does not extend the auction; with 14:59 left it does", async () => {
    await create();
    await bid(alice, ETH);
    const e = await end();
    await at(e - 900n);
    const atWindow = await bid(bob, 2n * ETH);
    expect(await end()).toBe(e);
    expect(events(atWindow).map((x) => x.eventName)).not.toContain("AuctionExtended");
    await at(e - 899n);
    const inWindow = await bid(alice, 3n * ETH);
    expect(await end()).toBe(e + 1n);
    expect(eventOf(inWindow, "AuctionExtended")).toEqual({ tokenId, endTime: e + 1n });
  });

  it("the last bid is accepted one second before the end; at the end it is refused", async () => {
    await create();
    await bid(alice, ETH);
    const e = await end();
    await at(e - 1n);
    await bid(bob, 2n * ETH);
    const e2 = await end(); // extended to 15 minutes after that bid
    expect(e2).toBe(e - 1n + 900n);
    await at(e2);
    await expectRevert(bid(alice, 3n * ETH), "AuctionEnded");
  });

  it("settle reverts one second before the end and succeeds at the end", async () => {
    await create();
    await bid(alice, ETH);
    const e = await end();
    await at(e - 1n);
    await expectRevert(mp(f, bob, "settle", [tokenId]), "AuctionNotEnded");
    await at(e);
    await mp(f, bob, "settle", [tokenId]);
  });

  it("the first bid starts a clock of exactly the auction's days", async () => {
    await create(ETH, 2);
    const r = await bid(alice, ETH);
    const t = (await f.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
    expect(await end()).toBe(t + 2n * DAY);
  });

  it("the minimum next bid is the highest bid plus exactly 5% (spec rule, computed here from the numbers)", async () => {
    await create(20n * ETH);
    await bid(alice, 20n * ETH);
    expect(await readMp(f, "minimumBid", [tokenId])).toBe(21n * ETH);
    await expectRevert(bid(bob, 21n * ETH - 1n), "BidTooLow");
    await bid(bob, 21n * ETH);
  });
});

describe("settle", () => {
  it("after the end: token to the winner, proceeds split, anyone can call", async () => {
    await create();
    await bid(alice, ETH);
    await bid(bob, 2n * ETH);
    await expectRevert(mp(f, f.wallets[7] as Wallet, "settle", [tokenId]), "AuctionNotEnded");
    const end = BigInt((await auction()).endTime);
    await f.testClient.setNextBlockTimestamp({ timestamp: end });
    const [s0, ph0, tr0] = await Promise.all([
      balance(f, seller.account.address),
      balance(f, f.productionHouse),
      treasuryFunds(f),
    ]);
    const r = await mp(f, f.wallets[7] as Wallet, "settle", [tokenId]);
    const price = 2n * ETH;
    const royalty = price / 10n;
    const fee = (price * 250n) / 10_000n;
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(bob.account.address);
    expect(await balance(f, seller.account.address)).toBe(s0 + price - royalty - fee);
    expect(await balance(f, f.productionHouse)).toBe(ph0 + royalty);
    expect(await treasuryFunds(f)).toBe(tr0 + fee);
    expect(await heldBalance(f)).toBe(0n);
    expect(eventOf(r, "AuctionSettled")).toEqual({
      tokenId,
      seller: seller.account.address,
      winner: bob.account.address,
      amount: price,
      royaltyReceiver: f.productionHouse,
      royaltyAmount: royalty,
      platformFee: fee,
      sellerProceeds: price - royalty - fee,
    });
    expect((await auction()).seller).toBe(zeroAddress);
    await expectRevert(mp(f, f.wallets[7] as Wallet, "settle", [tokenId]), "AuctionNotFound");
  });

  it("reverts: no auction, no bid yet, paused", async () => {
    await expectRevert(mp(f, alice, "settle", [tokenId]), "AuctionNotFound");
    await create();
    await expectRevert(mp(f, alice, "settle", [tokenId]), "AuctionNotStarted");
    await bid(alice, ETH);
    // Paused while the auction runs: no settlement during the pause, nor before the bidding window after it.
    await mp(f, f.admin, "pause");
    await advance(f, DAY + 1n);
    await expectRevert(mp(f, alice, "settle", [tokenId]), "EnforcedPause");
    await mp(f, f.admin, "unpause");
    await expectRevert(mp(f, alice, "settle", [tokenId]), "AuctionNotEnded");
    await advance(f, 15n * 60n);
    await mp(f, alice, "settle", [tokenId]);
  });

  it("a winner contract that rejects ERC-721 still gets the token (plain transfer)", async () => {
    await create();
    const w = await deployAttacker(f, alice);
    await attack(f, alice, w, "configure", [false, true, zeroAddress, 0n, "0x"]);
    const data = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "bid", args: [tokenId] });
    await attack(f, alice, w, "execute", [f.marketplace, ETH, data], ETH);
    await advance(f, DAY);
    await mp(f, bob, "settle", [tokenId]);
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(w);
  });
});

describe("cancelAuction", () => {
  it("the seller cancels before the first bid (also while paused); the token returns", async () => {
    await create();
    await mp(f, f.admin, "pause");
    const r = await mp(f, seller, "cancelAuction", [tokenId]);
    expect(eventOf(r, "AuctionCancelled")).toEqual({ tokenId, seller: seller.account.address });
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(seller.account.address);
    expect((await auction()).seller).toBe(zeroAddress);
  });

  it("reverts: no auction, not seller, has bids", async () => {
    await expectRevert(mp(f, seller, "cancelAuction", [tokenId]), "AuctionNotFound");
    await create();
    await expectRevert(mp(f, alice, "cancelAuction", [tokenId]), "NotAuctionSeller");
    await bid(alice, ETH);
    await expectRevert(mp(f, seller, "cancelAuction", [tokenId]), "AuctionHasBids");
  });
});
