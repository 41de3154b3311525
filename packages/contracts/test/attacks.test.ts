/**
 * Griefing and attack tests: re-entrant buyers, bidders and sellers, ETH-rejecting bidders, and a withdraw
 * re-entry. (Front-running the listing price is in listings.test.ts; voucher replay and cross-chain replay
 * are in primary.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { decodeErrorResult, type Hex, type TransactionReceipt } from "viem";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import {
  advance,
  allErrorsAbi,
  approveMarketplace,
  attack,
  balance,
  deployAttacker,
  encodeFunctionData,
  ETH,
  events,
  type Fixture,
  makeVoucher,
  minterMint,
  mp,
  readCol,
  readMp,
  setPrimaryTerms,
  useFixture,
  type Wallet,
  zeroAddress,
  heldBalance,
} from "./fixture.js";

let f: Fixture;
let seller: Wallet;
let eve: Wallet; // operates the attacker contracts
let bob: Wallet;
useFixture(async (chain) => {
  f = chain;
  seller = f.wallets[3] as Wallet;
  eve = f.wallets[7] as Wallet;
  bob = f.wallets[5] as Wallet;
  await approveMarketplace(f, seller);
});

const mpData = (functionName: string, args: readonly unknown[] = []) =>
  encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName, args } as never);

/** Re-entry attempts recorded by the attacker in a receipt, with the decoded revert of each. */
function reentries(r: TransactionReceipt): { success: boolean; error?: string }[] {
  return events(r)
    .filter((e) => e.eventName === "ReentryAttempt")
    .map((e) => {
      const data = e.args.returnData as Hex;
      let error: string | undefined;
      if (data && data !== "0x") {
        try {
          error = decodeErrorResult({ abi: allErrorsAbi, data }).errorName;
        } catch {
          error = data.slice(0, 10);
        }
      }
      return { success: e.args.success as boolean, error };
    });
}

async function listed(price = ETH): Promise<bigint> {
  const tokenId = (await minterMint(f, seller.account.address)).tokenId;
  await mp(f, seller, "list", [tokenId, price]);
  return tokenId;
}

async function auctioned(reserve = ETH): Promise<bigint> {
  const tokenId = (await minterMint(f, seller.account.address)).tokenId;
  await mp(f, seller, "createAuction", [tokenId, reserve, 1]);
  return tokenId;
}

describe("re-entrant buyer", () => {
  it("cannot re-enter buy() from onERC721Received", async () => {
    const a = await listed();
    const b = await listed();
    const w = await deployAttacker(f, eve);
    await attack(f, eve, w, "configure", [false, false, f.marketplace, ETH, mpData("buy", [b, ETH])]);
    const r = await attack(f, eve, w, "execute", [f.marketplace, ETH, mpData("buy", [a, ETH])], 2n * ETH);
    expect(reentries(r)).toEqual([{ success: false, error: "ReentrancyGuardReentrantCall" }]);
    expect(await readCol(f, "ownerOf", [a])).toBe(w);
    expect(await readCol(f, "ownerOf", [b])).toBe(seller.account.address);
    expect((await readMp<{ seller: string }>(f, "getListing", [b])).seller).toBe(seller.account.address);
    expect(await heldBalance(f)).toBe(0n);
  });

  it("cannot re-enter purchase() or withdraw() from the mint callback of a primary purchase", async () => {
    const w = await deployAttacker(f, eve);
    const v1 = await makeVoucher(f, w, { priceWei: ETH });
    const v2 = await makeVoucher(f, w, { priceWei: ETH });
    await attack(f, eve, w, "configure", [
      false,
      false,
      f.marketplace,
      ETH,
      mpData("purchase", [v2.voucher, v2.signature]),
    ]);
    const r = await attack(
      f,
      eve,
      w,
      "execute",
      [f.marketplace, ETH, mpData("purchase", [v1.voucher, v1.signature])],
      2n * ETH,
    );
    expect(reentries(r)).toEqual([{ success: false, error: "ReentrancyGuardReentrantCall" }]);
    expect(await readCol(f, "isOrderMinted", [v2.voucher.orderId])).toBe(false);
    await attack(f, eve, w, "configure", [false, false, f.marketplace, 0n, mpData("withdraw")]);
    const v3 = await makeVoucher(f, w, { priceWei: ETH });
    const r3 = await attack(
      f,
      eve,
      w,
      "execute",
      [f.marketplace, ETH, mpData("purchase", [v3.voucher, v3.signature])],
      ETH,
    );
    expect(reentries(r3)).toEqual([{ success: false, error: "ReentrancyGuardReentrantCall" }]);
  });
});

describe("re-entrant and ETH-rejecting bidders", () => {
  it("a bidder that rejects refunds cannot block being outbid; its refund becomes withdrawable", async () => {
    const t = await auctioned();
    const w = await deployAttacker(f, eve);
    await attack(f, eve, w, "configure", [true, false, zeroAddress, 0n, "0x"]);
    await attack(f, eve, w, "execute", [f.marketplace, ETH, mpData("bid", [t])], ETH);
    const r = await mp(f, bob, "bid", [t], 2n * ETH);
    expect(events(r).find((e) => e.eventName === "PaymentDeferred")?.args).toEqual({ payee: w, amount: ETH });
    expect((await readMp<{ highestBidder: string }>(f, "getAuction", [t])).highestBidder).toBe(
      bob.account.address,
    );
    expect(await readMp(f, "pendingWithdrawals", [w])).toBe(ETH);
    expect(await heldBalance(f)).toBe(3n * ETH);
    // Settlement is not blocked either.
    await advance(f, 86_400);
    await mp(f, bob, "settle", [t]);
    expect(await heldBalance(f)).toBe(ETH);
  });

  it("a bidder whose receive() re-enters bid() gains nothing: the refund is gas-capped and guarded", async () => {
    const t = await auctioned();
    const w = await deployAttacker(f, eve);
    await attack(f, eve, w, "execute", [f.marketplace, ETH, mpData("bid", [t])], ETH);
    // When refunded, try to re-enter with a higher bid.
    await attack(f, eve, w, "configure", [false, false, f.marketplace, 3n * ETH, mpData("bid", [t])]);
    await f.testClient.setBalance({ address: w, value: 10n * ETH });
    const r = await mp(f, bob, "bid", [t], 2n * ETH);
    // Either the capped refund ran out of gas (credited) or the re-entry reverted: never a successful re-entry.
    expect(reentries(r).every((x) => !x.success)).toBe(true);
    expect((await readMp<{ highestBidder: string }>(f, "getAuction", [t])).highestBidder).toBe(
      bob.account.address,
    );
    const credited = (await readMp<bigint>(f, "pendingWithdrawals", [w])) as bigint;
    const wBal = await balance(f, w);
    expect(credited + wBal).toBe(11n * ETH);
    expect(await heldBalance(f)).toBe(2n * ETH + credited);
  });

  it("a withdraw() re-entered from receive() pays out exactly once", async () => {
    const t = await auctioned();
    const w = await deployAttacker(f, eve);
    await attack(f, eve, w, "configure", [true, false, zeroAddress, 0n, "0x"]);
    await attack(f, eve, w, "execute", [f.marketplace, ETH, mpData("bid", [t])], ETH);
    await mp(f, bob, "bid", [t], 2n * ETH);
    expect(await readMp(f, "pendingWithdrawals", [w])).toBe(ETH);
    await attack(f, eve, w, "configure", [false, false, f.marketplace, 0n, mpData("withdraw")]);
    const r = await attack(f, eve, w, "execute", [f.marketplace, 0n, mpData("withdraw")]);
    expect(reentries(r)).toEqual([{ success: false, error: "ReentrancyGuardReentrantCall" }]);
    expect(await balance(f, w)).toBe(ETH);
    expect(await heldBalance(f)).toBe(2n * ETH);
  });
});

describe("a studio (primary-sale payee) contract", () => {
  it("is credited, not called, by a sale; re-entering withdraw() from its receive pays it exactly once", async () => {
    const w = await deployAttacker(f, eve);
    await setPrimaryTerms(f, 78n, w, 0n);
    // A payee that would re-enter purchase() if it were paid during the sale: it is not called at all.
    const v = await makeVoucher(f, bob.account.address, { priceWei: ETH, catalogueNftId: 78n });
    await attack(f, eve, w, "configure", [false, false, f.marketplace, 0n, mpData("withdraw")]);
    const r = await mp(f, bob, "purchase", [v.voucher, v.signature], ETH);
    expect(reentries(r)).toEqual([]);
    const net = ETH - (ETH * 250n) / 10_000n;
    expect(await readMp(f, "pendingWithdrawals", [w])).toBe(net);
    expect(await balance(f, w)).toBe(0n);
    // Its withdrawal re-enters withdraw() from receive(): refused, and it is paid once.
    const wd = await attack(f, eve, w, "execute", [f.marketplace, 0n, mpData("withdraw")]);
    expect(reentries(wd)).toEqual([{ success: false, error: "ReentrancyGuardReentrantCall" }]);
    expect(await balance(f, w)).toBe(net);
    expect(await readMp(f, "pendingWithdrawals", [w])).toBe(0n);
    expect(await heldBalance(f)).toBe(0n);
  });
});

describe("re-entrant seller and royalty receiver", () => {
  it("a seller contract re-entering settle()/bid() on payout cannot disturb settlement", async () => {
    const w = await deployAttacker(f, eve);
    const tokenId = (await minterMint(f, w)).tokenId;
    await attack(f, eve, w, "execute", [
      f.collectible,
      0n,
      encodeFunctionData({
        abi: (await import("../generated/diginoorCollectible.js")).diginoorCollectibleAbi,
        functionName: "setApprovalForAll",
        args: [f.marketplace, true],
      }),
    ]);
    await attack(f, eve, w, "execute", [f.marketplace, 0n, mpData("createAuction", [tokenId, ETH, 1])]);
    await mp(f, bob, "bid", [tokenId], ETH);
    await advance(f, 86_400);
    await attack(f, eve, w, "configure", [false, false, f.marketplace, 0n, mpData("settle", [tokenId])]);
    const r = await mp(f, bob, "settle", [tokenId]);
    expect(reentries(r).every((x) => !x.success)).toBe(true);
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(bob.account.address);
    const proceeds = ETH - ETH / 10n - (ETH * 250n) / 10_000n;
    const credited = (await readMp<bigint>(f, "pendingWithdrawals", [w])) as bigint;
    expect((await balance(f, w)) + credited).toBe(proceeds);
    expect(await heldBalance(f)).toBe(credited);
  });
});

describe("collectible entry points are non-reentrant", () => {
  it("a receiver cannot call back into the collectible from onERC721Received", async () => {
    const { diginoorCollectibleAbi } = await import("../generated/diginoorCollectible.js");
    const w = await deployAttacker(f, eve);
    const other = (await minterMint(f, w)).tokenId;
    const back = encodeFunctionData({
      abi: diginoorCollectibleAbi,
      functionName: "transferFrom",
      args: [w, bob.account.address, other],
    });
    await attack(f, eve, w, "configure", [false, false, f.collectible, 0n, back]);
    const t = (await minterMint(f, seller.account.address)).tokenId;
    const { col } = await import("./fixture.js");
    const r = await col(f, seller, "safeTransferFrom", [seller.account.address, w, t]);
    expect(reentries(r)).toEqual([{ success: false, error: "ReentrancyGuardReentrantCall" }]);
    expect(await readCol(f, "ownerOf", [t])).toBe(w);
    expect(await readCol(f, "ownerOf", [other])).toBe(w);
  });
});
