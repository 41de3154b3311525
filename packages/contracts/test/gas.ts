/**
 * Gas measurement shared by scripts/gas.ts and test/gas.test.ts: starts its own anvil, deploys, performs each
 * operation once and returns the transaction gas of each (receipt.gasUsed, includes the 21,000 base).
 */
import { type Address, encodeFunctionData } from "viem";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { attackerWalletAbi } from "../generated/testHelpers.js";
import {
  approveMarketplace,
  deployAttacker,
  ETH,
  makeVoucher,
  minterMint,
  send,
  setupFixture,
  type Wallet,
} from "./fixture.js";

/** A fixed voucher expiry (2100-01-01) so calldata, and thus gas, is identical on every run. */
const FIXED_EXPIRY = 4_102_444_800n;

/**
 * The goals of docs/gas.md. Buy, settle and the primary purchase hold issue 22's lower aims (100,000, 100,000 and
 * 130,000). The primary purchase is measured when the studio (the item's payee) already holds an unwithdrawn
 * credit, as it does for every sale but the first after a withdrawal; that first sale writes a zero slot and is held
 * to the former goal of 150,000 (docs/gas.md, decision 106). Issue 34 (decision 184) put editions on chain: each mint
 * reads the item's edition count and writes its edition's bit (+8,872 on the primary purchase), so those two goals
 * move to 140,000 and 160,000.
 */
export const GAS_GOALS: Record<string, number> = {
  primaryPurchase: 140_000,
  primaryPurchaseStudioFirstCredit: 160_000,
  list: 75_000,
  buyListing: 100_000,
  firstBid: 90_000,
  outbid: 90_000,
  settle: 100_000,
};

export const LABELS: Record<string, string> = {
  deployCollectible: "deploy DiginoorCollectible",
  deployMarketplace: "deploy DiginoorMarketplace",
  deployAll: "deployAll total (2 deploys, roles from the constructors)",
  primaryPurchase: "primary purchase (voucher, mint, studio credited)",
  primaryPurchaseStudioFirstCredit: "primary purchase, studio's balance was zero",
  primaryPurchaseRepeatBuyer: "primary purchase, buyer already holds a token",
  minterMint: "minter mint (card/INR order)",
  list: "list",
  updatePrice: "update price",
  cancelListing: "cancel listing",
  buyListing: "buy listing (fee + royalty)",
  createAuction: "create auction (escrow token)",
  firstBid: "first bid (starts clock)",
  outbid: "outbid with refund",
  settle: "settle (token + 3-way split)",
  withdraw: "withdraw (via wallet contract)",
  studioWithdraw: "studio withdraws its primary proceeds",
};

export async function measureGas(): Promise<Record<string, number>> {
  const f = await setupFixture();
  try {
    const g: Record<string, number> = {};
    const rec = async (key: string, p: Promise<{ gasUsed: bigint }>) => {
      g[key] = Number((await p).gasUsed);
    };
    const pc = f.publicClient;
    // Deployment receipts: the first two transactions of the deployer.
    // deployAll = 2 transactions (the two deployments: roles come from the constructors), one block each
    // on automining anvil.
    let deployTotal = 0;
    for (const [i, key] of ["deployCollectible", "deployMarketplace"].entries()) {
      const block = await pc.getBlock({
        blockNumber: f.deployment.blockNumber + BigInt(i),
        includeTransactions: true,
      });
      const tx = block.transactions[0];
      if (!tx || typeof tx === "string") throw new Error("no deploy tx");
      const used = Number((await pc.getTransactionReceipt({ hash: tx.hash })).gasUsed);
      deployTotal += used;
      g[key] = used;
    }
    g.deployAll = deployTotal;

    const seller = f.wallets[3] as Wallet;
    const buyer = f.wallets[4] as Wallet;
    const bidder1 = f.wallets[5] as Wallet;
    const bidder2 = f.wallets[6] as Wallet;
    // The studio's first credit: its withdrawable balance goes from zero to non-zero (as after each withdrawal).
    // The buyer (account 7, later only the caller of settle, whose own tokens play no part) holds no token yet.
    const first = await makeVoucher(f, f.wallets[7]?.account.address as Address, {
      priceWei: ETH,
      expiry: FIXED_EXPIRY,
    });
    await rec(
      "primaryPurchaseStudioFirstCredit",
      send(f, f.wallets[7] as Wallet, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "purchase",
        args: [first.voucher, first.signature],
        value: first.voucher.priceWei,
      }),
    );
    // Primary purchase by a buyer that holds no token yet (worst case: fresh balance slot), the studio holding a
    // credit from the sale above.
    const { voucher, signature } = await makeVoucher(f, buyer.account.address, {
      priceWei: ETH,
      expiry: FIXED_EXPIRY,
    });
    await rec(
      "primaryPurchase",
      send(f, buyer, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "purchase",
        args: [voucher, signature],
        value: voucher.priceWei,
      }),
    );
    // The same buyer again (its ERC-721 balance slot is already non-zero).
    const again = await makeVoucher(f, buyer.account.address, { priceWei: ETH, expiry: FIXED_EXPIRY });
    await rec(
      "primaryPurchaseRepeatBuyer",
      send(f, buyer, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "purchase",
        args: [again.voucher, again.signature],
        value: again.voucher.priceWei,
      }),
    );
    // Minter mint to an account that holds no token yet.
    const minted = await minterMint(f, seller.account.address);
    g.minterMint = Number(minted.receipt.gasUsed);
    const tokenA = minted.tokenId;
    await approveMarketplace(f, seller);
    const listArgs = (price: bigint) => ({
      address: f.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "list",
      args: [tokenA, price],
    });
    await rec("list", send(f, seller, listArgs(ETH)));
    await rec(
      "updatePrice",
      send(f, seller, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "updatePrice",
        args: [tokenA, 2n * ETH],
      }),
    );
    await rec(
      "cancelListing",
      send(f, seller, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "cancelListing",
        args: [tokenA],
      }),
    );
    await send(f, seller, listArgs(ETH));
    // Buyer (bidder1) holds no token yet.
    await rec(
      "buyListing",
      send(f, bidder1, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "buy",
        args: [tokenA, ETH],
        value: ETH,
      }),
    );
    // Auction: seller mints another token and auctions it.
    const tokenB = (await minterMint(f, seller.account.address)).tokenId;
    await rec(
      "createAuction",
      send(f, seller, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "createAuction",
        args: [tokenB, ETH, 1],
      }),
    );
    await rec(
      "firstBid",
      send(f, bidder2, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "bid",
        args: [tokenB],
        value: ETH,
      }),
    );
    await rec(
      "outbid",
      send(f, f.wallets[8] as Wallet, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "bid",
        args: [tokenB],
        value: (ETH * 106n) / 100n,
      }),
    );
    await f.testClient.increaseTime({ seconds: 86_400 + 1 });
    await f.testClient.mine({ blocks: 1 });
    // Winner (account 8) holds no token yet: worst case (fresh ERC-721 balance slot).
    await rec(
      "settle",
      send(f, f.wallets[7] as Wallet, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "settle",
        args: [tokenB],
      }),
    );
    // Withdraw: a wallet contract that rejected its outbid refund withdraws its credited balance.
    const attacker = await deployAttacker(f, bidder1);
    const tokenC = (await minterMint(f, seller.account.address)).tokenId;
    await send(f, seller, {
      address: f.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "createAuction",
      args: [tokenC, ETH, 1],
    });
    await send(f, bidder1, {
      address: attacker,
      abi: attackerWalletAbi,
      functionName: "configure",
      args: [true, false, "0x0000000000000000000000000000000000000000", 0n, "0x"],
    });
    const bidData = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "bid", args: [tokenC] });
    await send(f, bidder1, {
      address: attacker,
      abi: attackerWalletAbi,
      functionName: "execute",
      args: [f.marketplace, ETH, bidData],
      value: ETH,
    });
    await send(f, bidder2, {
      address: f.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "bid",
      args: [tokenC],
      value: 2n * ETH,
    });
    await send(f, bidder1, {
      address: attacker,
      abi: attackerWalletAbi,
      functionName: "configure",
      args: [false, false, "0x0000000000000000000000000000000000000000", 0n, "0x"],
    });
    const withdrawData = encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName: "withdraw" });
    await rec(
      "withdraw",
      send(f, bidder1, {
        address: attacker,
        abi: attackerWalletAbi,
        functionName: "execute",
        args: [f.marketplace, 0n, withdrawData],
      }),
    );
    // The studio (production house, an EOA) withdraws the proceeds of the three primary sales above.
    await rec(
      "studioWithdraw",
      send(f, f.wallets[2] as Wallet, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "withdraw",
      }),
    );
    return g;
  } finally {
    await f.stop();
  }
}
