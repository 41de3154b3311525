/**
 * Gas of a fan's actions from a passkey wallet (DiginoorPasskeyAccount on EntryPoint v0.8, decision 160),
 * measured on anvil with the real bundler (Alto): each action is one user operation, and the figures are
 * the EntryPoint's own accounting (UserOperationEvent: actualGasUsed, actualGasCost = what the paymaster
 * or the account paid), beside the same action sent by a plain key (EOA) in the same run as the baseline.
 *   npm run gas:wallets -w packages/contracts            -> markdown table
 *   npm run gas:wallets -w packages/contracts -- --json  -> JSON
 *   npm run gas:wallets -w packages/contracts -- --hardfork prague  -> on a chain without the P-256
 *     precompile (anvil's latest hardfork has EIP-7951's at 0x100): OpenZeppelin's P256 verifies in Solidity
 * `settle` needs the auction's end, i.e. anvil's clock moved ahead of the wall clock Alto checks user
 * operations' validity windows against; it is sent straight to EntryPoint.handleOps by the bundler's
 * executor key, which is what Alto sends.
 */
import {
  type Address,
  type Chain,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  type PublicClient,
  type Transport,
  zeroAddress,
} from "viem";
import {
  createBundlerClient,
  entryPoint08Abi,
  type SmartAccount,
  toPackedUserOperation,
  type UserOperationReceipt,
} from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { estimateFeesPerGas } from "viem/actions";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { diginoorPasskeyAccountAbi } from "../generated/diginoorPasskeyAccount.js";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { startBundler } from "../src/bundler.js";
import {
  bundlerFeesPerGas,
  diginoorPaymasterFields,
  encodeSponsorship,
  type SponsoredOperation,
  sponsorshipTypedData,
  toPasskeyAccount,
} from "../src/passkey-account.js";
import { createSoftwarePasskey } from "../src/software-passkey.js";
import { deployWallets } from "../src/wallets.js";
import { advance, approveMarketplace, minterMint, mp, setupFixture } from "../test/fixture.js";

const EXECUTOR_KEY = ANVIL_PRIVATE_KEYS[7];
/** The server's sponsorship key of the development chain (decision 186). */
const SPONSOR = privateKeyToAccount(ANVIL_PRIVATE_KEYS[9]);
const hardforkAt = process.argv.indexOf("--hardfork");
const f = await setupFixture({ hardfork: hardforkAt > 0 ? process.argv[hardforkAt + 1] : undefined });
const wallets = await deployWallets({
  rpcUrl: f.anvil.rpcUrl,
  collectible: f.collectible,
  marketplace: f.marketplace,
  sponsorSigner: SPONSOR.address,
});
/** The server's sponsorship of an operation, valid ten minutes of the chain's clock. */
async function sponsor(userOp: SponsoredOperation): Promise<Hex> {
  const now = Number((await f.publicClient.getBlock()).timestamp);
  const window = { validAfter: now - 60, validUntil: now + 600 };
  const signature = await SPONSOR.signTypedData(
    sponsorshipTypedData({ paymaster: wallets.paymaster, chainId: f.chain.id, op: userOp, ...window }),
  );
  return encodeSponsorship(window.validAfter, window.validUntil, signature);
}
const bundler = await startBundler({
  rpcUrl: f.anvil.rpcUrl,
  executorPrivateKey: EXECUTOR_KEY,
  utilityPrivateKey: ANVIL_PRIVATE_KEYS[8],
});
const bc = createBundlerClient({
  client: f.publicClient,
  transport: http(bundler.url),
  pollingInterval: 100,
  // Fees as the web app takes them (the bundler's quote): viem's default doubles the node's last tip, and
  // the sixth operation of a run passed the paymaster's per-operation cap (decision 160).
  userOperation: {
    estimateFeesPerGas: ({ bundlerClient: b }) =>
      bundlerFeesPerGas(b as never, () => estimateFeesPerGas(f.publicClient)),
  },
});
const client = f.publicClient as PublicClient<Transport, Chain>;

type Row = { action: string; opGas: bigint; paidWei: bigint; payer: string; txGas: bigint; eoaGas?: bigint };
const rows: Row[] = [];
const resale: { to: string; buy: bigint; send: bigint }[] = [];

const col = (functionName: string, args: readonly unknown[]) => ({
  to: f.collectible,
  data: encodeFunctionData({ abi: diginoorCollectibleAbi, functionName, args } as never),
});
const mkt = (functionName: string, args: readonly unknown[], value?: bigint) => ({
  to: f.marketplace,
  data: encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName, args } as never),
  ...(value ? { value } : {}),
});

async function op(
  account: SmartAccount,
  calls: { to: Address; data: Hex; value?: bigint }[],
  sponsored = true,
) {
  const hash = await bc.sendUserOperation({
    account,
    calls,
    ...(sponsored ? { paymaster: diginoorPaymasterFields(wallets.paymaster, sponsor) } : {}),
  });
  const r = await bc.waitForUserOperationReceipt({ hash, timeout: 60_000 });
  if (!r.success) throw new Error(`user operation reverted: ${r.reason ?? ""}`);
  return r;
}

function record(action: string, r: UserOperationReceipt, eoaGas?: bigint) {
  rows.push({
    action,
    opGas: r.actualGasUsed,
    paidWei: r.actualGasCost,
    payer: r.paymaster ? "paymaster" : "account",
    txGas: r.receipt.gasUsed,
    eoaGas,
  });
}

try {
  const fan = await toPasskeyAccount({
    client,
    factory: wallets.factory,
    owner: createSoftwarePasskey().account,
  });
  // Account creation alone (the aa-benchmarks figure): the factory called by a plain key, and a first user
  // operation whose one call is the cheapest sponsored one (the account's setGuardian, to the guardian it
  // already has: none, as the factory names none; decision 185).
  const guardian = zeroAddress;
  const direct = await toPasskeyAccount({
    client,
    factory: wallets.factory,
    owner: createSoftwarePasskey().account,
  });
  const { factory: directFactory, factoryData } = await direct.getFactoryArgs();
  const createHash = await f.wallets[3]!.sendTransaction({
    to: directFactory as Address,
    data: factoryData as Hex,
  });
  const createGas = (await f.publicClient.waitForTransactionReceipt({ hash: createHash })).gasUsed;
  const fresh = await toPasskeyAccount({
    client,
    factory: wallets.factory,
    owner: createSoftwarePasskey().account,
  });
  record(
    "account creation: first user operation, deploy + setGuardian (the cheapest sponsored call)",
    await op(fresh, [
      {
        to: fresh.address,
        data: encodeFunctionData({
          abi: diginoorPasskeyAccountAbi,
          functionName: "setGuardian",
          args: [guardian],
        }),
      },
    ]),
    createGas,
  );

  const tokens = [];
  for (let i = 0; i < 5; i++) tokens.push((await minterMint(f, fan.address)).tokenId);
  const [t1, t2, t3, t4] = tokens as [bigint, bigint, bigint, bigint];

  // EOA baselines, same run: a plain key lists, reprices, cancels, auctions, sends and buys.
  const eoa = f.wallets[3]!;
  const e = [];
  for (let i = 0; i < 4; i++) e.push((await minterMint(f, eoa.account.address)).tokenId);
  const [e1, e2, e3, e4] = e as [bigint, bigint, bigint, bigint];
  await approveMarketplace(f, eoa);
  const eList = (await mp(f, eoa, "list", [e1, parseEther("0.01")])).gasUsed;
  const eUpdate = (await mp(f, eoa, "updatePrice", [e1, parseEther("0.02")])).gasUsed;
  const eCancel = (await mp(f, eoa, "cancelListing", [e1])).gasUsed;
  const eAuction = (await mp(f, eoa, "createAuction", [e2, parseEther("0.01"), 1])).gasUsed;
  const eSendHash = await eoa.writeContract({
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "safeTransferFrom",
    args: [eoa.account.address, f.wallets[4]!.account.address, e3],
  });
  const eSend = (await f.publicClient.waitForTransactionReceipt({ hash: eSendHash })).gasUsed;
  await mp(f, eoa, "list", [e4, parseEther("0.01")]);
  const eBuy = (await mp(f, f.wallets[5]!, "buy", [e4, parseEther("0.01")], parseEther("0.01"))).gasUsed;

  record(
    "first action: deploy the account + approve the marketplace + list",
    await op(fan, [col("setApprovalForAll", [f.marketplace, true]), mkt("list", [t1, parseEther("0.01")])]),
  );
  record("list", await op(fan, [mkt("list", [t2, parseEther("0.01")])]), eList);
  record("change price", await op(fan, [mkt("updatePrice", [t2, parseEther("0.02")])]), eUpdate);
  record("remove listing", await op(fan, [mkt("cancelListing", [t2])]), eCancel);
  record(
    "create auction (escrow)",
    await op(fan, [mkt("createAuction", [t4, parseEther("0.01"), 1])]),
    eAuction,
  );
  record(
    "send to my own wallet (transferFrom)",
    await op(fan, [col("transferFrom", [fan.address, f.wallets[4]!.account.address, t3])]),
    eSend,
  );

  // A second passkey (the fan's other device, decision 171): the first adds it, then it lists alone.
  const phone = createSoftwarePasskey();
  record(
    "add a passkey (another device)",
    await op(fan, [
      {
        to: fan.address,
        data: encodeFunctionData({
          abi: diginoorPasskeyAccountAbi,
          functionName: "addPasskey",
          args: [`0x${phone.publicKey.slice(2, 66)}`, `0x${phone.publicKey.slice(66)}`],
        }),
      },
    ]),
  );
  const fanOnPhone = await toPasskeyAccount({
    client,
    factory: wallets.factory,
    owner: phone.account,
    address: fan.address,
    firstPublicKey: (fan as SmartAccount & { owner: { publicKey: Hex } }).owner.publicKey,
  });
  const t5 = tokens[4] as bigint;
  record(
    "list, signed by the second passkey",
    await op(fanOnPhone, [mkt("list", [t5, parseEther("0.01")])]),
    eList,
  );

  // A fan whose passkey wallet holds ETH buys a listing, paying its own gas (buying is not sponsored).
  const buyer = await toPasskeyAccount({
    client,
    factory: wallets.factory,
    owner: createSoftwarePasskey().account,
  });
  await f.testClient.setBalance({ address: buyer.address, value: parseEther("1") });
  const forSale = (await minterMint(f, eoa.account.address)).tokenId;
  await mp(f, eoa, "list", [forSale, parseEther("0.01")]);
  record(
    "first buy from the wallet: deploy + buy (account pays)",
    await op(buyer, [mkt("buy", [forSale, parseEther("0.01")], parseEther("0.01"))], false),
    eBuy,
  );
  const forSale2 = (await minterMint(f, eoa.account.address)).tokenId;
  await mp(f, eoa, "list", [forSale2, parseEther("0.01")]);
  record(
    "buy (account pays)",
    await op(buyer, [mkt("buy", [forSale2, parseEther("0.01")], parseEther("0.01"))], false),
    eBuy,
  );

  // A card-bought resale's fulfilment (decision 165): the resale buyer key (a plain key holding no
  // token) buys the listing, then sends the token to the fan's passkey wallet: one not deployed yet
  // (a fan whose first token this is: no code, so no onERC721Received call) and a deployed one.
  const buyerKey = f.wallets[2]!;
  for (const [to, label] of [
    [
      (await toPasskeyAccount({ client, factory: wallets.factory, owner: createSoftwarePasskey().account }))
        .address,
      "a wallet not deployed yet, its first token",
    ],
    [buyer.address, "a deployed wallet that holds tokens"],
  ] as const) {
    const listed = (await minterMint(f, eoa.account.address)).tokenId;
    await mp(f, eoa, "list", [listed, parseEther("0.01")]);
    const buy = (await mp(f, buyerKey, "buy", [listed, parseEther("0.01")], parseEther("0.01"))).gasUsed;
    const sendHash = await buyerKey.writeContract({
      address: f.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "safeTransferFrom",
      args: [buyerKey.account.address, to, listed],
    });
    const send = (await f.publicClient.waitForTransactionReceipt({ hash: sendHash })).gasUsed;
    resale.push({ to: label, buy, send });
  }

  // settle: a bid, the auction's end, then the fan's settle as a user operation sent to handleOps.
  await mp(f, f.wallets[5]!, "bid", [t4], parseEther("0.02"));
  await advance(f, 2 * 86_400);
  const block = await f.publicClient.getBlock();
  const fee = (block.baseFeePerGas ?? 1n) * 2n + 1n;
  const nonce = await f.publicClient.readContract({
    address: wallets.entryPoint,
    abi: entryPoint08Abi,
    functionName: "getNonce",
    args: [fan.address, 0n],
  });
  const userOp = {
    sender: fan.address,
    nonce,
    callData: await fan.encodeCalls([mkt("settle", [t4])]),
    callGasLimit: 220_000n,
    verificationGasLimit: 700_000n,
    preVerificationGas: 60_000n,
    maxFeePerGas: fee,
    maxPriorityFeePerGas: 1n,
    paymaster: wallets.paymaster,
    paymasterVerificationGasLimit: 150_000n,
    paymasterPostOpGasLimit: 0n,
    paymasterData: "0x" as Hex,
    signature: "0x" as Hex,
  };
  userOp.paymasterData = await sponsor(userOp);
  userOp.signature = await fan.signUserOperation({ ...userOp, chainId: f.chain.id });
  const executor = f.wallets[7]!;
  const txHash = await executor.writeContract({
    address: wallets.entryPoint,
    abi: entryPoint08Abi,
    functionName: "handleOps",
    args: [[toPackedUserOperation(userOp)], executor.account.address],
  });
  const settleReceipt = await f.publicClient.waitForTransactionReceipt({ hash: txHash });
  const [ev] = parseEventLogs({
    abi: entryPoint08Abi,
    logs: settleReceipt.logs,
    eventName: "UserOperationEvent",
  });
  if (!ev?.args.success) throw new Error("settle user operation failed");
  rows.push({
    action: "settle (handleOps from the executor key)",
    opGas: ev.args.actualGasUsed,
    paidWei: ev.args.actualGasCost,
    payer: "paymaster",
    txGas: settleReceipt.gasUsed,
  });

  if (process.argv.includes("--json")) {
    process.stdout.write(
      `${JSON.stringify({ rows, resale }, (_, v) => (typeof v === "bigint" ? v.toString() : v))}\n`,
    );
  } else {
    const gwei = (w: bigint) => (Number(w) / 1e9).toLocaleString("en-US", { maximumFractionDigits: 0 });
    console.log(
      "| action | user op gas (EntryPoint) | bundle tx gas | paid by | paid (gwei at the run's fee) | same action by a plain key (tx gas) |",
    );
    console.log("|---|---:|---:|---|---:|---:|");
    for (const r of rows) {
      console.log(
        `| ${r.action} | ${r.opGas.toLocaleString("en-US")} | ${r.txGas.toLocaleString("en-US")} | ${r.payer} | ${gwei(r.paidWei)} | ${r.eoaGas ? r.eoaGas.toLocaleString("en-US") : "—"} |`,
      );
    }
    const n = (g: bigint) => g.toLocaleString("en-US");
    console.log(
      "\n| card-bought resale: the buyer key sends the token to | buy (tx gas) | send (tx gas) | total |",
    );
    console.log("|---|---:|---:|---:|");
    for (const r of resale) console.log(`| ${r.to} | ${n(r.buy)} | ${n(r.send)} | ${n(r.buy + r.send)} |`);
  }
} finally {
  await bundler.stop();
  await f.stop();
}
