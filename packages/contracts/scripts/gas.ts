/**
 * Gas report: starts its own anvil, deploys, performs each operation once and prints the transaction gas
 * (receipt.gasUsed, which includes the 21,000 base) against the goals.
 *   npm run gas -w packages/contracts            -> table
 *   npm run gas -w packages/contracts -- --json  -> one JSON object { "operation": gas, ... }
 *   add --check to exit 1 when a goal is missed.
 */
import { encodeFunctionData } from "viem";
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
} from "../test/fixture.js";

export const GAS_GOALS: Record<string, number> = {
  primaryPurchase: 150_000,
  list: 75_000,
  buyListing: 125_000,
  firstBid: 90_000,
  outbid: 90_000,
  settle: 130_000,
};

const LABELS: Record<string, string> = {
  deployCollectible: "deploy DiginoorCollectible",
  deployMarketplace: "deploy DiginoorMarketplace",
  primaryPurchase: "primary purchase (voucher, mint, split)",
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
};

async function measure(): Promise<Record<string, number>> {
  const f = await setupFixture();
  try {
    const g: Record<string, number> = {};
    const rec = async (key: string, p: Promise<{ gasUsed: bigint }>) => {
      g[key] = Number((await p).gasUsed);
    };
    const pc = f.publicClient;
    // Deployment receipts: the first two transactions of the deployer.
    for (const [i, key] of ["deployCollectible", "deployMarketplace"].entries()) {
      const block = await pc.getBlock({
        blockNumber: f.deployment.blockNumber + BigInt(i),
        includeTransactions: true,
      });
      const tx = block.transactions[0];
      if (!tx || typeof tx === "string") throw new Error("no deploy tx");
      g[key] = Number((await pc.getTransactionReceipt({ hash: tx.hash })).gasUsed);
    }

    const [seller, buyer, bidder1, bidder2] = [
      f.wallets[3],
      f.wallets[4],
      f.wallets[5],
      f.wallets[6],
    ] as Wallet[];
    // Primary purchase by a buyer that holds no token yet (worst case: fresh balance slot).
    const { voucher, signature } = await makeVoucher(f, buyer.account.address, { priceWei: ETH });
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
      send(f, buyer, {
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "bid",
        args: [tokenB],
        value: (ETH * 106n) / 100n,
      }),
    );
    await f.testClient.increaseTime({ seconds: 86_400 + 1 });
    await f.testClient.mine({ blocks: 1 });
    // Winner (`buyer`) already holds one token from the primary purchase.
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
    return g;
  } finally {
    await f.stop();
  }
}

const args = process.argv.slice(2);
const gas = await measure();
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(gas)}\n`);
} else {
  const rows = Object.entries(gas).map(([k, v]) => {
    const goal = GAS_GOALS[k];
    const status =
      goal === undefined
        ? ""
        : v <= goal
          ? `<= ${goal.toLocaleString("en-US")} ok`
          : `> ${goal.toLocaleString("en-US")} MISSED`;
    return [LABELS[k] ?? k, k, v.toLocaleString("en-US"), status];
  });
  const header = ["operation", "key", "gas", "goal"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    "\nTransaction gas from receipts (includes the 21,000 base), solc-js optimizer, evm cancun, anvil.",
  );
}
const missed = Object.entries(GAS_GOALS).filter(([k, goal]) => (gas[k] ?? Number.POSITIVE_INFINITY) > goal);
if (args.includes("--check") && missed.length) process.exit(1);
