import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { SIGNER_ROLE } from "../src/deploy.js";
import { purchaseVoucherDigest } from "../src/voucher.js";
import {
  advance,
  attack,
  balance,
  deployAttacker,
  ETH,
  encodeFunctionData,
  eventOf,
  events,
  expectRevert,
  type Fixture,
  gasCost,
  makeVoucher,
  minterMint,
  mp,
  now,
  readCol,
  readMp,
  setPrimaryTerms,
  setupFixture,
  useFixture,
  type Wallet,
  zeroAddress,
  heldBalance,
  treasuryFunds,
} from "./fixture.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";

let f: Fixture;
let other: Fixture; // a second deployment on another chain id (cross-chain replay)
useFixture((chain) => {
  f = chain;
});
beforeAll(async () => {
  other = await setupFixture({ chainId: 1337 });
});
afterAll(async () => {
  await other?.stop();
});

const buyerWallet = () => f.wallets[4] as Wallet;
const buyer = ANVIL_ADDRESSES[4];

async function purchase(
  v: Awaited<ReturnType<typeof makeVoucher>>,
  wallet = buyerWallet(),
  value = v.voucher.priceWei,
) {
  return mp(f, wallet, "purchase", [v.voucher, v.signature], value);
}

describe("primary purchase with a voucher", () => {
  it("mints to the buyer and splits revenue between production house and treasury", async () => {
    const v = await makeVoucher(f, buyer, { priceWei: ETH, catalogueNftId: 77n, edition: 5 });
    const [ph0, tr0, b0] = await Promise.all([
      balance(f, f.productionHouse),
      treasuryFunds(f),
      balance(f, buyer),
    ]);
    expect(await readMp(f, "pendingWithdrawals", [f.productionHouse])).toBe(0n);
    const r = await purchase(v);
    const tokenId = BigInt(v.voucher.orderId);
    expect(await readCol(f, "ownerOf", [tokenId])).toBe(buyer);
    const info = await readCol<{ catalogueNftId: bigint; edition: number; royaltyReceiver: string }>(
      f,
      "tokenInfo",
      [tokenId],
    );
    expect(info.catalogueNftId).toBe(77n);
    expect(info.edition).toBe(5);
    expect(info.royaltyReceiver).toBe(f.productionHouse);
    const fee = (ETH * 250n) / 10_000n;
    // The production house's share is credited (pull payment, decision 106), not sent: nothing reached it yet.
    expect(await balance(f, f.productionHouse)).toBe(ph0);
    expect(await readMp(f, "pendingWithdrawals", [f.productionHouse])).toBe(ETH - fee);
    expect(await treasuryFunds(f)).toBe(tr0 + fee);
    expect(await balance(f, buyer)).toBe(b0 - ETH - gasCost(r));
    expect(await heldBalance(f)).toBe(ETH - fee);
    expect(events(r).some((e) => e.eventName === "PaymentDeferred")).toBe(false);
    expect(eventOf(r, "PrimaryPurchase")).toEqual({ tokenId, price: ETH, platformFee: fee });
    // The item, edition, payee and buyer are in the collectible's events just before it (not repeated: gas).
    expect(eventOf(r, "CollectibleMinted")).toEqual({
      tokenId,
      catalogueNftId: 77n,
      edition: 5,
      royaltyReceiver: f.productionHouse,
      royaltyBps: 1000,
    });
    expect(eventOf(r, "Transfer")).toEqual({ from: zeroAddress, to: buyer, tokenId });
    expect(BigInt(v.voucher.orderId)).toBe(tokenId);
  });

  it("the on-chain digest equals the TypeScript EIP-712 digest", async () => {
    const v = await makeVoucher(f, buyer);
    const onChain = await readMp(f, "voucherDigest", [v.voucher]);
    expect(onChain).toBe(purchaseVoucherDigest(f.chain.id, f.marketplace, v.voucher));
  });

  it("uses the primary fee signed in the voucher, and a free voucher mints without payments", async () => {
    await mp(f, f.admin, "setPrimaryFeeBps", [5000]);
    await advance(f, 7 * 24 * 3600);
    await mp(f, f.admin, "applyFeeIncreases");
    const v = await makeVoucher(f, buyer, { priceWei: 1000n, platformFeeBps: 5000 });
    const tr0 = await treasuryFunds(f);
    await purchase(v);
    expect((await treasuryFunds(f)) - tr0).toBe(500n);
    const free = await makeVoucher(f, buyer, { priceWei: 0n });
    const r = await purchase(free);
    expect(eventOf(r, "PrimaryPurchase").price).toBe(0n);
  });

  it("reverts when expired", async () => {
    const v = await makeVoucher(f, buyer, { expiry: (await now(f)) - 1n });
    await expectRevert(purchase(v), "VoucherExpired");
  });

  it("accepts a voucher until its expiry second", async () => {
    const t = await now(f);
    const v = await makeVoucher(f, buyer, { expiry: t + 10n });
    await f.testClient.setNextBlockTimestamp({ timestamp: t + 10n });
    await purchase(v);
  });

  it("reverts when underpaid or overpaid", async () => {
    const v = await makeVoucher(f, buyer, { priceWei: ETH });
    await expectRevert(purchase(v, buyerWallet(), ETH - 1n), "WrongPayment");
    await expectRevert(purchase(v, buyerWallet(), ETH + 1n), "WrongPayment");
  });

  it("reverts when redeemed by someone other than the buyer", async () => {
    // The buyer is not in the calldata: it is hashed from the caller, so another caller's digest differs and
    // recovers an address without SIGNER_ROLE.
    const v = await makeVoucher(f, buyer);
    await expectRevert(purchase(v, f.wallets[5] as Wallet), "InvalidSignature");
    const calldata = encodeFunctionData({
      abi: diginoorMarketplaceAbi,
      functionName: "purchase",
      args: [v.voucher, v.signature],
    });
    expect(calldata.toLowerCase()).not.toContain(buyer.slice(2).toLowerCase());
    await purchase(v);
    expect(await readCol(f, "ownerOf", [BigInt(v.voucher.orderId)])).toBe(buyer);
  });

  it("reverts when signed by an account without SIGNER_ROLE", async () => {
    const v = await makeVoucher(f, buyer, { signerKey: ANVIL_PRIVATE_KEYS[6] });
    await expectRevert(purchase(v), "InvalidSignature");
  });

  it("reverts when any signed field is tampered with (e.g. redirecting revenue)", async () => {
    const v = await makeVoucher(f, buyer, { priceWei: ETH });
    const tampered = [
      { ...v.voucher, platformFeeBps: 0 },
      { ...v.voucher, priceWei: 1n },
      { ...v.voucher, catalogueNftId: v.voucher.catalogueNftId + 1n },
      { ...v.voucher, edition: v.voucher.edition + 1 },
      { ...v.voucher, expiry: v.voucher.expiry + 1n },
      { ...v.voucher, orderId: `0x${"ab".repeat(32)}` as Hex },
    ];
    for (const t of tampered) {
      await expectRevert(mp(f, buyerWallet(), "purchase", [t, v.signature], t.priceWei), "InvalidSignature");
    }
  });

  it("rejects malformed signatures", async () => {
    const v = await makeVoucher(f, buyer);
    await expectRevert(
      mp(f, buyerWallet(), "purchase", [v.voucher, "0x1234"], v.voucher.priceWei),
      "ECDSAInvalidSignatureLength",
    );
  });

  it("a voucher (order id) can be used once: replay reverts", async () => {
    const v = await makeVoucher(f, buyer);
    await purchase(v);
    await expectRevert(purchase(v), "OrderAlreadyMinted");
    // The two paths have order ids of their own (issue 22, finding 1, in audit3.test.ts).
    await expectRevert(minterMint(f, buyer, { orderId: v.voucher.orderId }), "NotMinterOrderId");
    const m = await minterMint(f, buyer);
    await expectRevert(purchase(await makeVoucher(f, buyer, { orderId: m.orderId })), "NotVoucherOrderId");
  });

  it("a voucher signed for chain A is rejected by the same marketplace address on chain B", async () => {
    expect(other.chain.id).toBe(1337);
    expect(other.marketplace).toBe(f.marketplace); // same deployer + nonce => same address on both chains
    const v = await makeVoucher(f, buyer); // signed for f.chain.id
    const otherBuyer = other.wallets[4] as Wallet;
    await expectRevert(
      mp(other, otherBuyer, "purchase", [v.voucher, v.signature], v.voucher.priceWei),
      "InvalidSignature",
    );
    // A voucher signed for chain B works there.
    const vb = await makeVoucher(other, buyer, { orderId: v.voucher.orderId });
    await mp(other, otherBuyer, "purchase", [vb.voucher, vb.signature], vb.voucher.priceWei);
    // ... and not on chain A.
    await expectRevert(purchase(vb), "InvalidSignature");
  });

  it("a revoked signer can no longer sign; a newly granted one can", async () => {
    await mp(f, f.admin, "revokeRole", [SIGNER_ROLE, f.signer]);
    await expectRevert(purchase(await makeVoucher(f, buyer)), "InvalidSignature");
    await mp(f, f.admin, "grantRole", [SIGNER_ROLE, ANVIL_ADDRESSES[6]]);
    await purchase(await makeVoucher(f, buyer, { signerKey: ANVIL_PRIVATE_KEYS[6] }));
  });

  it("reverts while paused", async () => {
    await mp(f, f.admin, "pause");
    await expectRevert(purchase(await makeVoucher(f, buyer)), "EnforcedPause");
  });

  it("reverts if the marketplace lost MINTER_ROLE", async () => {
    const { MINTER_ROLE } = await import("../src/deploy.js");
    const { col } = await import("./fixture.js");
    await col(f, f.admin, "revokeRole", [MINTER_ROLE, f.marketplace]);
    await expectRevert(purchase(await makeVoucher(f, buyer)), "AccessControlUnauthorizedAccount");
  });

  it("the production house withdraws its credited proceeds; nobody else can take them", async () => {
    const net = ETH - (ETH * 250n) / 10_000n;
    await purchase(await makeVoucher(f, buyer, { priceWei: ETH }));
    await purchase(await makeVoucher(f, buyer, { priceWei: 2n * ETH }));
    expect(await readMp(f, "pendingWithdrawals", [f.productionHouse])).toBe(3n * net);
    expect(await heldBalance(f)).toBe(3n * net);
    // Neither the buyer, the signer, the treasury nor the admin can withdraw (or redirect) the studio's credit.
    for (const w of [buyerWallet(), f.wallets[9] as Wallet, f.admin]) {
      await expectRevert(mp(f, w, "withdraw"), "NothingToWithdraw");
      await expectRevert(mp(f, w, "withdrawTo", [w.account.address]), "NothingToWithdraw");
    }
    expect(await readMp(f, "pendingWithdrawals", [f.productionHouse])).toBe(3n * net);
    const studio = f.wallets[2] as Wallet;
    const ph0 = await balance(f, f.productionHouse);
    const w = await mp(f, studio, "withdraw");
    expect(eventOf(w, "Withdrawal")).toEqual({
      account: f.productionHouse,
      to: f.productionHouse,
      amount: 3n * net,
    });
    expect(await balance(f, f.productionHouse)).toBe(ph0 + 3n * net - gasCost(w));
    expect(await readMp(f, "pendingWithdrawals", [f.productionHouse])).toBe(0n);
    expect(await heldBalance(f)).toBe(0n);
    await expectRevert(mp(f, studio, "withdraw"), "NothingToWithdraw");
  });

  it("a payee contract that reverts on receive no longer blocks a primary sale, and withdraws elsewhere", async () => {
    const rejecting = await deployAttacker(f, f.admin);
    await attack(f, f.admin, rejecting, "configure", [true, false, zeroAddress, 0n, "0x"]);
    await setPrimaryTerms(f, 78n, rejecting, 0n);
    const v = await makeVoucher(f, buyer, { priceWei: ETH, catalogueNftId: 78n });
    const r = await purchase(v);
    expect(await readCol(f, "ownerOf", [BigInt(v.voucher.orderId)])).toBe(buyer);
    const net = ETH - (ETH * 250n) / 10_000n;
    // Credited like every studio: no payment was attempted, so none was deferred.
    expect(events(r).some((e) => e.eventName === "PaymentDeferred")).toBe(false);
    expect(await readMp(f, "pendingWithdrawals", [rejecting])).toBe(net);
    // Its own withdraw() reverts (it rejects ETH); the credit stays.
    const own = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "withdraw" });
    await expectRevert(attack(f, f.admin, rejecting, "execute", [f.marketplace, 0n, own]), "WithdrawFailed");
    expect(await readMp(f, "pendingWithdrawals", [rejecting])).toBe(net);
    expect(await heldBalance(f)).toBe(net);
    // It withdraws to another address.
    const to = ANVIL_ADDRESSES[8];
    const b0 = await balance(f, to);
    const data = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "withdrawTo", args: [to] });
    const w = await attack(f, f.admin, rejecting, "execute", [f.marketplace, 0n, data]);
    expect(events(w).some((e) => e.eventName === "Withdrawal")).toBe(true);
    expect(await balance(f, to)).toBe(b0 + net);
    expect(await heldBalance(f)).toBe(0n);
  });

  it("a contract buyer receives the token through onERC721Received", async () => {
    const wallet = await deployAttacker(f, buyerWallet());
    const v = await makeVoucher(f, wallet, { priceWei: ETH });
    const data = encodeFunctionData({
      abi: diginoorMarketplaceAbi,
      functionName: "purchase",
      args: [v.voucher, v.signature],
    });
    await attack(f, buyerWallet(), wallet, "execute", [f.marketplace, ETH, data], ETH);
    expect(await readCol(f, "ownerOf", [BigInt(v.voucher.orderId)])).toBe(wallet);
  });
});
