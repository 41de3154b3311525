import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { diginoorMarketplaceAbi, diginoorMarketplaceBytecode } from "../generated/diginoorMarketplace.js";
import { ANVIL_ADDRESSES } from "../src/anvil-accounts.js";
import {
  advance,
  approveMarketplace,
  attack,
  balance,
  deployAttacker,
  encodeFunctionData,
  ETH,
  eventOf,
  expectRevert,
  type Fixture,
  minterMint,
  mp,
  readMp,
  useFixture,
  type Wallet,
  zeroAddress,
  heldBalance,
} from "./fixture.js";

let f: Fixture;
useFixture((chain) => {
  f = chain;
});

const stranger = () => f.wallets[6] as Wallet;

describe("marketplace deployment", () => {
  it("has the defaults: fee 250, primary fee 250, increment 500, treasury, not paused", async () => {
    expect(await readMp(f, "feeBps")).toBe(250);
    expect(await readMp(f, "primaryFeeBps")).toBe(250);
    expect(await readMp(f, "minIncrementBps")).toBe(500);
    expect(await readMp(f, "treasury")).toBe(f.treasury);
    expect(await readMp(f, "paused")).toBe(false);
    expect(await readMp(f, "collectible")).toBe(f.collectible);
    expect(await readMp(f, "PAYOUT_GAS")).toBe(10_000n);
  });

  it("constructor rejects zero collectible, admin or treasury, and a treasury that could never withdraw", async () => {
    const deploy = (args: readonly [Hex, Hex, number, Hex, Hex]) =>
      f.admin.deployContract({ abi: diginoorMarketplaceAbi, bytecode: diginoorMarketplaceBytecode, args });
    const a = ANVIL_ADDRESSES[0];
    await expectRevert(deploy([zeroAddress, a, 0, a, a]), "InvalidAddress");
    await expectRevert(deploy([f.collectible, zeroAddress, 0, a, a]), "AccessControlInvalidDefaultAdmin");
    await expectRevert(deploy([f.collectible, a, 0, zeroAddress, a]), "InvalidPayee");
    await expectRevert(deploy([f.collectible, a, 0, f.collectible, a]), "InvalidPayee");
  });
});

describe("admin setters", () => {
  it("pause / unpause with events; double pause or unpause reverts", async () => {
    const r = await mp(f, f.admin, "pause");
    const pausedAt = (await f.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
    expect(eventOf(r, "Paused")).toEqual({
      account: f.admin.account.address,
      endsBy: pausedAt + 7n * 86_400n,
    });
    expect(await readMp(f, "paused")).toBe(true);
    await expectRevert(mp(f, f.admin, "pause"), "EnforcedPause");
    const u = await mp(f, f.admin, "unpause");
    const unpausedAt = (await f.publicClient.getBlock({ blockNumber: u.blockNumber })).timestamp;
    expect(eventOf(u, "Unpaused")).toEqual({
      account: f.admin.account.address,
      pausedAt,
      biddingUntil: unpausedAt + 900n,
    });
    await expectRevert(mp(f, f.admin, "unpause"), "ExpectedPause");
  });

  it("setTreasury, setFeeBps, setPrimaryFeeBps, setMinIncrementBps with bounds and events", async () => {
    const t = ANVIL_ADDRESSES[8];
    expect(eventOf(await mp(f, f.admin, "setTreasury", [t]), "TreasuryUpdated")).toEqual({
      previousTreasury: f.treasury,
      newTreasury: t,
    });
    expect(await readMp(f, "treasury")).toBe(t);
    await expectRevert(mp(f, f.admin, "setTreasury", [zeroAddress]), "InvalidPayee");

    // Increases are announced and apply after FEE_INCREASE_DELAY; decreases apply at once.
    expect(eventOf(await mp(f, f.admin, "setFeeBps", [1000]), "FeeIncreaseScheduled")).toMatchObject({
      primary: false,
      newBps: 1000,
    });
    expect(eventOf(await mp(f, f.admin, "setPrimaryFeeBps", [5000]), "FeeIncreaseScheduled")).toMatchObject({
      primary: true,
      newBps: 5000,
    });
    expect(await readMp(f, "feeBps")).toBe(250);
    await expectRevert(mp(f, stranger(), "applyFeeIncreases"), "NoFeeIncreaseDue");
    await advance(f, 7 * 24 * 3600);
    const applied = await mp(f, stranger(), "applyFeeIncreases");
    expect(eventOf(applied, "FeeUpdated")).toEqual({ previousBps: 250, newBps: 1000 });
    expect(eventOf(applied, "PrimaryFeeUpdated")).toEqual({ previousBps: 250, newBps: 5000 });
    expect(await readMp(f, "feeBps")).toBe(1000);
    expect(await readMp(f, "primaryFeeBps")).toBe(5000);
    await expectRevert(mp(f, f.admin, "setFeeBps", [1001]), "FeeTooHigh");
    expect(eventOf(await mp(f, f.admin, "setFeeBps", [0]), "FeeUpdated")).toEqual({
      previousBps: 1000,
      newBps: 0,
    });
    expect(await readMp(f, "feeBps")).toBe(0);
    await expectRevert(mp(f, f.admin, "setPrimaryFeeBps", [5001]), "FeeTooHigh");

    expect(eventOf(await mp(f, f.admin, "setMinIncrementBps", [1000]), "MinIncrementUpdated")).toEqual({
      previousBps: 500,
      newBps: 1000,
    });
    await expectRevert(mp(f, f.admin, "setMinIncrementBps", [0]), "InvalidIncrement");
    await expectRevert(mp(f, f.admin, "setMinIncrementBps", [5001]), "InvalidIncrement");
  });

  it("every admin function rejects non-admins", async () => {
    const calls: [string, unknown[]][] = [
      ["pause", []],
      ["unpause", []],
      ["setTreasury", [ANVIL_ADDRESSES[8]]],
      ["setFeeBps", [1]],
      ["setPrimaryFeeBps", [1]],
      ["setMinIncrementBps", [1]],
    ];
    for (const [fn, args] of calls)
      await expectRevert(mp(f, stranger(), fn, args), "AccessControlUnauthorizedAccount");
  });
});

describe("withdrawals", () => {
  async function creditRejectingBidder(): Promise<{ w: Hex; owner: Wallet }> {
    const owner = f.wallets[4] as Wallet;
    const seller = f.wallets[3] as Wallet;
    const tokenId = (await minterMint(f, seller.account.address)).tokenId;
    await approveMarketplace(f, seller);
    await mp(f, seller, "createAuction", [tokenId, ETH, 1]);
    const w = await deployAttacker(f, owner);
    await attack(f, owner, w, "configure", [true, false, zeroAddress, 0n, "0x"]);
    const data = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "bid", args: [tokenId] });
    await attack(f, owner, w, "execute", [f.marketplace, ETH, data], ETH);
    const r = await mp(f, f.wallets[5] as Wallet, "bid", [tokenId], 2n * ETH);
    expect(eventOf(r, "PaymentDeferred")).toEqual({ payee: w, amount: ETH });
    return { w, owner };
  }

  it("withdraw reverts with nothing to withdraw; withdrawTo rejects the zero address", async () => {
    await expectRevert(mp(f, stranger(), "withdraw"), "NothingToWithdraw");
    await expectRevert(mp(f, stranger(), "withdrawTo", [zeroAddress]), "InvalidAddress");
  });

  it("a credited account withdraws, also while paused; a second withdraw has nothing", async () => {
    const { w, owner } = await creditRejectingBidder();
    await mp(f, f.admin, "pause");
    // While it still rejects ETH, withdraw() to itself fails with WithdrawFailed.
    const withdraw = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "withdraw" });
    await expectRevert(attack(f, owner, w, "execute", [f.marketplace, 0n, withdraw]), "WithdrawFailed");
    await attack(f, owner, w, "configure", [false, false, zeroAddress, 0n, "0x"]);
    const b0 = await balance(f, w);
    const r = await attack(f, owner, w, "execute", [f.marketplace, 0n, withdraw]);
    expect(eventOf(r, "Withdrawal")).toEqual({ account: w, to: w, amount: ETH });
    expect(await balance(f, w)).toBe(b0 + ETH);
    expect(await readMp(f, "pendingWithdrawals", [w])).toBe(0n);
    await expectRevert(attack(f, owner, w, "execute", [f.marketplace, 0n, withdraw]), "NothingToWithdraw");
    // Escrow: only the highest bid remains.
    expect(await heldBalance(f)).toBe(2n * ETH);
  });
});

describe("royalty + fee can never exceed the price", () => {
  it("a sale whose royalty + fee would exceed the price reverts FeesExceedPrice", async () => {
    const { greedyRoyaltyTokenAbi, greedyRoyaltyTokenBytecode } = await import("../generated/testHelpers.js");
    const { getAddress } = await import("viem");
    const deploy = async (abi: readonly unknown[], bytecode: Hex, args: readonly unknown[]) => {
      const hash = await f.admin.deployContract({ abi, bytecode, args } as never);
      const r = await f.publicClient.waitForTransactionReceipt({ hash });
      return getAddress(r.contractAddress as Hex);
    };
    const token = await deploy(greedyRoyaltyTokenAbi, greedyRoyaltyTokenBytecode, []);
    const market = await deploy(diginoorMarketplaceAbi, diginoorMarketplaceBytecode, [
      token,
      ANVIL_ADDRESSES[0],
      0,
      f.treasury,
      zeroAddress,
    ]);
    const seller = f.wallets[3] as Wallet;
    await f.admin.writeContract({
      address: token,
      abi: greedyRoyaltyTokenAbi,
      functionName: "mint",
      args: [seller.account.address, 1n],
    });
    const { send } = await import("./fixture.js");
    await send(f, seller, {
      address: market,
      abi: diginoorMarketplaceAbi,
      functionName: "list",
      args: [1n, 1000n],
    });
    await expectRevert(
      send(f, stranger(), {
        address: market,
        abi: diginoorMarketplaceAbi,
        functionName: "buy",
        args: [1n, 1000n],
        value: 1000n,
      }),
      "FeesExceedPrice",
    );
  });
});

describe("role management", () => {
  it("roles can be renounced on both contracts; the voucher digest and the typehash match the TS types", async () => {
    const { SIGNER_ROLE, MINTER_ROLE } = await import("../src/deploy.js");
    const { col, readCol } = await import("./fixture.js");
    await mp(f, f.admin, "grantRole", [SIGNER_ROLE, f.minter.account.address]);
    expect(await readMp(f, "hasRole", [SIGNER_ROLE, f.minter.account.address])).toBe(true);
    await mp(f, f.minter, "renounceRole", [SIGNER_ROLE, f.minter.account.address]);
    expect(await readMp(f, "hasRole", [SIGNER_ROLE, f.minter.account.address])).toBe(false);
    await col(f, f.minter, "renounceRole", [MINTER_ROLE, f.minter.account.address]);
    expect(await readCol(f, "hasRole", [MINTER_ROLE, f.minter.account.address])).toBe(false);
    await expectRevert(
      mp(f, f.admin, "renounceRole", [SIGNER_ROLE, f.minter.account.address]),
      "AccessControlBadConfirmation",
    );
    const { hashTypedData, keccak256, toHex } = await import("viem");
    const { purchaseVoucherTypes, voucherDomain } = await import("../src/voucher.js");
    const typeString = `PurchaseVoucher(${purchaseVoucherTypes.PurchaseVoucher.map((x) => `${x.type} ${x.name}`).join(",")})`;
    expect(await readMp(f, "PURCHASE_VOUCHER_TYPEHASH")).toBe(keccak256(toHex(typeString)));
    const voucher = {
      catalogueNftId: 1n,
      edition: 2,
      priceWei: 3n,
      buyer: ANVIL_ADDRESSES[4],
      platformFeeBps: 250,
      orderId: `0x${"11".repeat(32)}` as Hex,
      expiry: 4n,
    };
    expect(await readMp(f, "voucherDigest", [voucher])).toBe(
      hashTypedData({
        domain: voucherDomain(f.chain.id, f.marketplace),
        message: voucher,
        types: purchaseVoucherTypes,
        primaryType: "PurchaseVoucher",
      }),
    );
  });
});
