/**
 * Passkey wallets on anvil with the real bundler (Alto): DiginoorPasskeyAccount (OpenZeppelin Account +
 * MultiSignerERC7913 of WebAuthn passkeys) on EntryPoint v0.8, deployed by our factory on first use, gas paid by DiginoorPaymaster.
 */
import {
  type Address,
  type Chain,
  concat,
  createWalletClient,
  getAddress,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  pad,
  parseEther,
  type PublicClient,
  toFunctionSelector,
  toHex,
  type Transport,
} from "viem";
import {
  type BundlerClient,
  createBundlerClient,
  entryPoint08Abi,
  getUserOperationHash,
  type SmartAccount,
  toPackedUserOperation,
} from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { estimateFeesPerGas } from "viem/actions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorAccountFactoryAbi } from "../generated/diginoorAccountFactory.js";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { diginoorPasskeyAccountAbi } from "../generated/diginoorPasskeyAccount.js";
import { diginoorPaymasterAbi } from "../generated/diginoorPaymaster.js";
import { hookReceiverAbi, hookReceiverBytecode } from "../generated/testHelpers.js";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { type BundlerInstance, startBundler } from "../src/bundler.js";
import {
  BATCH_MODE,
  bundlerFeesPerGas,
  diginoorPaymasterFields,
  encodeExecutionData,
  type SponsoredOperation,
  STUB_SPONSORSHIP,
  toPasskeyAccount,
} from "../src/passkey-account.js";
import { createSoftwarePasskey, type SoftwarePasskey } from "../src/software-passkey.js";
import { deployWallets, type WalletContracts } from "../src/wallets.js";
import { advance, type Fixture, minterMint, revertName, SIGNER_KEY, setupFixture } from "./fixture.js";
import { SPONSOR_KEY, type SponsorshipWindow, sponsorSignature as signSponsorship } from "./sponsorship.js";

const EXECUTOR_KEY = ANVIL_PRIVATE_KEYS[7];
const UTILITY_KEY = ANVIL_PRIVATE_KEYS[8];
/** A guardian the fan named themselves (decision 185): it may only propose a delayed recovery. */
const GUARDIAN_KEY: Hex = "0x3b6bd7a6e7e3c1a5f1f6b0f4d5e2a1c9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3";
/** Every key the server holds in development (decision 160's table), by role. */
const SERVER_KEYS: Record<string, Hex> = {
  "deployer / contracts admin / paymaster admin": ANVIL_PRIVATE_KEYS[0],
  minter: ANVIL_PRIVATE_KEYS[1],
  "voucher signer": SIGNER_KEY,
  "bundler executor": EXECUTOR_KEY,
  "bundler utility": UTILITY_KEY,
  "a guardian (as if the fan had named one of our keys)": GUARDIAN_KEY,
  "sponsorship signer": SPONSOR_KEY,
};

let f: Fixture;
let wallets: WalletContracts;
let bundler: BundlerInstance;
let bundlerClient: BundlerClient;

beforeAll(async () => {
  f = await setupFixture();
  wallets = await deployWallets({
    rpcUrl: f.anvil.rpcUrl,
    collectible: f.collectible,
    marketplace: f.marketplace,
    sponsorSigner: privateKeyToAccount(SPONSOR_KEY).address,
  });
  bundler = await startBundler({
    rpcUrl: f.anvil.rpcUrl,
    executorPrivateKey: EXECUTOR_KEY,
    utilityPrivateKey: UTILITY_KEY,
  });
  bundlerClient = createBundlerClient({
    client: f.publicClient,
    transport: http(bundler.url, { timeout: 60_000 }),
    pollingInterval: 100,
    // As the web app does (apps/web/src/lib/wallet/passkey.ts).
    userOperation: {
      estimateFeesPerGas: ({ bundlerClient: b }) =>
        bundlerFeesPerGas(b as never, () => estimateFeesPerGas(f.publicClient)),
    },
  });
}, 120_000);

afterAll(async () => {
  await bundler?.stop();
  await f?.stop();
});

async function fan(passkey: SoftwarePasskey = createSoftwarePasskey(), guardian?: Address) {
  const account = await toPasskeyAccount({
    client: f.publicClient as PublicClient<Transport, Chain>,
    factory: wallets.factory,
    owner: passkey.account,
    guardian,
  });
  return { passkey, account, address: account.address };
}

async function chainNow(): Promise<number> {
  return Number((await f.publicClient.getBlock()).timestamp);
}

/** The server's sponsorship of `op` (decision 186; test/sponsorship.ts), for our paymaster unless told otherwise. */
const sponsorSignature = (
  op: SponsoredOperation,
  window: SponsorshipWindow = {},
  key: Hex = SPONSOR_KEY,
  paymaster: Address = wallets.paymaster,
): Promise<Hex> => signSponsorship(f.publicClient as PublicClient, paymaster, op, window, key);

/** Send a sponsored user operation and wait for its receipt. */
async function sponsored(
  account: SmartAccount,
  calls: { to: Address; data: Hex; value?: bigint }[],
  window: { validAfter?: number; validUntil?: number } = {},
  key: Hex = SPONSOR_KEY,
) {
  const hash = await bundlerClient.sendUserOperation({
    account,
    calls,
    paymaster: diginoorPaymasterFields(wallets.paymaster, (op) => sponsorSignature(op, window, key)),
  });
  return bundlerClient.waitForUserOperationReceipt({ hash, timeout: 60_000 });
}

/** A transaction's fate: "sent", or the name of its revert. */
const OUTCOME = [() => "sent", (e: unknown) => revertName(e as never) ?? "refused"] as const;

/** A user operation of `account` carrying `calls`, signed with a plain key instead of a passkey: refused. */
async function sentWithKey(
  who: ReturnType<typeof privateKeyToAccount>,
  account: SmartAccount,
  calls: { to: Address; data: Hex }[],
): Promise<string> {
  const { account: _prepared, ...op } = await bundlerClient.prepareUserOperation({
    account,
    calls,
    paymaster: diginoorPaymasterFields(wallets.paymaster, (o) => sponsorSignature(o)),
  });
  const opHash = getUserOperationHash({
    userOperation: { ...op, sender: account.address } as never,
    chainId: f.chain.id,
    entryPointAddress: wallets.entryPoint,
    entryPointVersion: "0.8",
  });
  const signature = await who.sign({ hash: opHash });
  return refusal(bundlerClient.sendUserOperation({ ...op, signature } as never));
}

const col = (functionName: string, args: readonly unknown[]) => ({
  to: f.collectible,
  data: encodeFunctionData({ abi: diginoorCollectibleAbi, functionName, args } as never),
});
const mkt = (functionName: string, args: readonly unknown[]) => ({
  to: f.marketplace,
  data: encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName, args } as never),
});

async function ownerOf(tokenId: bigint): Promise<Address> {
  return f.publicClient.readContract({
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "ownerOf",
    args: [tokenId],
  });
}

/** The bundler's refusal message (viem wraps the JSON-RPC error), with our paymaster's errors named. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const text =
      err instanceof Error
        ? `${err.message} ${String((err as { details?: string }).details ?? "")}`
        : String(err);
    const named = diginoorPaymasterAbi
      .filter((x) => x.type === "error")
      .filter((x) => text.includes(toFunctionSelector(x as never).slice(2)))
      .map((x) => (x as { name: string }).name);
    return `${text} ${named.join(" ")}`;
  }
  throw new Error("expected the bundler to refuse the user operation");
}

describe("passkey wallet through the bundler", () => {
  it("is deployed by its first user operation and lists, reprices and cancels with the paymaster paying, holding 0 ETH", async () => {
    const { account, address } = await fan();
    expect(await f.publicClient.getCode({ address })).toBeUndefined();
    const { tokenId } = await minterMint(f, address);
    expect(await ownerOf(tokenId)).toBe(address);

    const deposit0 = await f.publicClient.readContract({
      address: wallets.entryPoint,
      abi: [
        {
          type: "function",
          name: "balanceOf",
          stateMutability: "view",
          inputs: [{ type: "address" }],
          outputs: [{ type: "uint256" }],
        },
      ],
      functionName: "balanceOf",
      args: [wallets.paymaster],
    });
    const listed = await sponsored(account, [
      col("setApprovalForAll", [f.marketplace, true]),
      mkt("list", [tokenId, parseEther("0.02")]),
    ]);
    expect(listed.success).toBe(true);
    expect(listed.paymaster).toBe(wallets.paymaster);
    expect(await f.publicClient.getCode({ address })).not.toBeUndefined();
    const listing = (await f.publicClient.readContract({
      address: f.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "getListing",
      args: [tokenId],
    })) as { price: bigint };
    expect(listing.price).toBe(parseEther("0.02"));

    const repriced = await sponsored(account, [mkt("updatePrice", [tokenId, parseEther("0.03")])]);
    expect(repriced.success).toBe(true);
    const cancelled = await sponsored(account, [mkt("cancelListing", [tokenId])]);
    expect(cancelled.success).toBe(true);
    expect(
      await f.publicClient.readContract({
        address: f.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "isListingLive",
        args: [tokenId],
      }),
    ).toBe(false);

    expect(await f.publicClient.getBalance({ address })).toBe(0n);
    const deposit1 = await f.publicClient.readContract({
      address: wallets.entryPoint,
      abi: [
        {
          type: "function",
          name: "balanceOf",
          stateMutability: "view",
          inputs: [{ type: "address" }],
          outputs: [{ type: "uint256" }],
        },
      ],
      functionName: "balanceOf",
      args: [wallets.paymaster],
    });
    const paid = listed.actualGasCost + repriced.actualGasCost + cancelled.actualGasCost;
    expect(deposit0 - deposit1).toBe(paid);
    expect(await ownerOf(tokenId)).toBe(address);
  });

  it("keeps a steady gas price from one operation to the next (fees from the bundler, not twice the node's last tip)", async () => {
    const prices: bigint[] = [];
    for (let i = 0; i < 2; i++) {
      const { account, address } = await fan();
      const { tokenId } = await minterMint(f, address);
      for (const calls of [
        [col("setApprovalForAll", [f.marketplace, true]), mkt("list", [tokenId, 1000n])],
        [mkt("updatePrice", [tokenId, 1001n])],
        [mkt("updatePrice", [tokenId, 1002n])],
        [mkt("cancelListing", [tokenId])],
      ]) {
        const r = await sponsored(account, calls);
        expect(r.success).toBe(true);
        prices.push(r.actualGasCost / r.actualGasUsed);
      }
    }
    const first = prices[0] as bigint;
    let highest = 0n;
    for (const p of prices) if (p > highest) highest = p;
    expect(highest, `gas prices (wei): ${prices.join(", ")}`).toBeLessThanOrEqual((first * 3n) / 2n);
  });

  it("sends the token to the fan's own wallet with transferFrom, sponsored; safeTransferFrom is not sponsored", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const own = privateKeyToAccount(
      "0x1f7b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
    ).address;
    expect(await refusal(sponsored(account, [col("safeTransferFrom", [address, own, tokenId])]))).toMatch(
      /CallNotSponsored/,
    );
    const r = await sponsored(account, [col("transferFrom", [address, own, tokenId])]);
    expect(r.success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(own);
    expect(await f.publicClient.getBalance({ address })).toBe(0n);
  });

  it("a receiver whose onERC721Received does work gets no sponsored call: safeTransferFrom refused, transferFrom runs no hook", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const deployer = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[0]),
      chain: f.chain,
      transport: http(f.anvil.rpcUrl),
    });
    const deployed = await f.publicClient.waitForTransactionReceipt({
      hash: await deployer.deployContract({ abi: hookReceiverAbi, bytecode: hookReceiverBytecode }),
    });
    const hook = getAddress(deployed.contractAddress as Address);
    const received = () =>
      f.publicClient.readContract({ address: hook, abi: hookReceiverAbi, functionName: "received" });
    for (const data of [
      encodeFunctionData({
        abi: diginoorCollectibleAbi,
        functionName: "safeTransferFrom",
        args: [address, hook, tokenId],
      }),
      encodeFunctionData({
        abi: diginoorCollectibleAbi,
        functionName: "safeTransferFrom",
        args: [address, hook, tokenId, "0x1234"],
      }),
    ]) {
      expect(await refusal(sponsored(account, [{ to: f.collectible, data }]))).toMatch(/CallNotSponsored/);
    }
    expect(await received()).toBe(0n);
    // A plain transfer is ours end to end: the token moves, the receiver's code never runs.
    const r = await sponsored(account, [col("transferFrom", [address, hook, tokenId])]);
    expect(r.success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(hook);
    expect(await received()).toBe(0n);
  });

  it("refuses a user operation signed by another passkey", async () => {
    const owner = await fan();
    const { tokenId } = await minterMint(f, owner.address);
    // Deploy the fan's account with a first (valid) operation.
    await sponsored(owner.account, [col("setApprovalForAll", [f.marketplace, true])]);
    const thief = createSoftwarePasskey();
    const forged = await toPasskeyAccount({
      client: f.publicClient as PublicClient<Transport, Chain>,
      factory: wallets.factory,
      owner: thief.account,
      address: owner.address,
    });
    const msg = await refusal(
      sponsored(forged, [
        col("transferFrom", [owner.address, privateKeyToAccount(EXECUTOR_KEY).address, tokenId]),
      ]),
    );
    expect(msg).toMatch(/AA24 signature error|Invalid UserOperation signature/i);
    expect(await ownerOf(tokenId)).toBe(owner.address);
  });

  it("the paymaster refuses calls outside our contracts, ETH-carrying calls and approvals of anyone but the marketplace", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const stranger = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]).address;
    // Any other contract (here the factory), or a plain address.
    expect(await refusal(sponsored(account, [{ to: wallets.factory, data: "0x12345678" }]))).toMatch(
      /CallNotSponsored/,
    );
    expect(await refusal(sponsored(account, [{ to: stranger, data: "0x" }]))).toMatch(/CallNotSponsored/);
    // ETH sent along with an otherwise sponsored call.
    expect(await refusal(sponsored(account, [{ ...mkt("cancelListing", [tokenId]), value: 1n }]))).toMatch(
      /CallNotSponsored/,
    );
    // Approving another operator at our expense.
    expect(await refusal(sponsored(account, [col("setApprovalForAll", [stranger, true])]))).toMatch(
      /CallNotSponsored/,
    );
    // A marketplace function that is not a fan's own sponsored action (buying needs crypto).
    expect(await refusal(sponsored(account, [mkt("buy", [tokenId, 1n])]))).toMatch(/CallNotSponsored/);
    // One allowed call next to a forbidden one.
    expect(
      await refusal(
        sponsored(account, [col("setApprovalForAll", [f.marketplace, true]), { to: stranger, data: "0x" }]),
      ),
    ).toMatch(/CallNotSponsored/);
    expect(await f.publicClient.getCode({ address })).toBeUndefined(); // nothing went through
  });

  it("the paymaster pays only with the sponsorship key's signature over this very operation, within its window", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const now = await chainNow();
    const approve = [col("setApprovalForAll", [f.marketplace, true])];
    // No signature (the estimation stub), or one by another key (here the recovery guardian's).
    const unsigned = await refusal(
      bundlerClient.sendUserOperation({
        account,
        calls: approve,
        paymaster: diginoorPaymasterFields(wallets.paymaster, async () => STUB_SPONSORSHIP),
      }),
    );
    expect(unsigned).toMatch(/AA34|signature/i);
    expect(await refusal(sponsored(account, approve, {}, GUARDIAN_KEY))).toMatch(/AA34|signature/i);
    // Expired, not yet valid, or without an end.
    expect(
      await refusal(sponsored(account, approve, { validAfter: now - 1200, validUntil: now - 600 })),
    ).toMatch(/AA32|expire/i);
    expect(
      await refusal(sponsored(account, approve, { validAfter: now + 3600, validUntil: now + 7200 })),
    ).toMatch(/AA32|not (yet )?(valid|due)/i);
    expect(await refusal(sponsored(account, approve, { validAfter: 0, validUntil: 0 }))).toMatch(
      /AA34|signature/i,
    );
    // Signed, then its fee raised: the signature covers the fees, so it no longer verifies.
    const { account: _a, ...op } = await bundlerClient.prepareUserOperation({
      account,
      calls: approve,
      paymaster: diginoorPaymasterFields(wallets.paymaster, (o) => sponsorSignature(o)),
    });
    const raised = {
      ...op,
      maxFeePerGas: op.maxFeePerGas * 3n,
      maxPriorityFeePerGas: op.maxPriorityFeePerGas * 3n,
    };
    const signature = await account.signUserOperation(raised as never);
    expect(await refusal(bundlerClient.sendUserOperation({ ...raised, signature } as never))).toMatch(
      /AA34|signature/i,
    );
    expect(await f.publicClient.getCode({ address })).toBeUndefined(); // nothing went through
    // Signed as it is, it is paid.
    expect((await sponsored(account, approve)).success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(address);
  });

  it("the paymaster refuses call gas above the caps of the operation's calls", async () => {
    const { account } = await fan();
    const calls = [col("setApprovalForAll", [f.marketplace, true])];
    const hash = bundlerClient.sendUserOperation({
      account,
      calls,
      callGasLimit: 2_000_000n,
      paymaster: diginoorPaymasterFields(wallets.paymaster, (o) => sponsorSignature(o)),
    });
    expect(await refusal(hash)).toMatch(/CallGasTooHigh/);
  });

  it("the paymaster refuses an operation that may cost more than its per-operation limit", async () => {
    // A paymaster (and factory) whose backstop is a thousand wei: no operation costs so little.
    const small = await deployWallets({
      rpcUrl: f.anvil.rpcUrl,
      collectible: f.collectible,
      marketplace: f.marketplace,
      sponsorSigner: privateKeyToAccount(SPONSOR_KEY).address,
      maxCostPerOp: 1000n,
    });
    const account = await toPasskeyAccount({
      client: f.publicClient as PublicClient<Transport, Chain>,
      factory: small.factory,
      owner: createSoftwarePasskey().account,
    });
    const sent = bundlerClient.sendUserOperation({
      account,
      calls: [col("setApprovalForAll", [f.marketplace, true])],
      paymaster: diginoorPaymasterFields(small.paymaster, (o) =>
        sponsorSignature(o, {}, SPONSOR_KEY, small.paymaster),
      ),
    });
    expect(await refusal(sent)).toMatch(/CostTooHigh/);
    expect(await f.publicClient.getCode({ address: account.address })).toBeUndefined();
  });

  it("the server's powers over our contracts cannot take a fan's token held in an auction", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const auctioned = await sponsored(account, [
      col("setApprovalForAll", [f.marketplace, true]),
      mkt("createAuction", [tokenId, parseEther("0.01"), 3]),
    ]);
    expect(auctioned.success).toBe(true);
    // The marketplace holds it in escrow for the fan: the one moment a token is not in the fan's account.
    expect(await ownerOf(tokenId)).toBe(f.marketplace);
    const tried = (p: Promise<unknown>) => p.then(...OUTCOME);
    for (const [name, key] of Object.entries(SERVER_KEYS)) {
      const who = privateKeyToAccount(key);
      await f.testClient.setBalance({ address: who.address, value: parseEther("1") });
      const wallet = createWalletClient({ account: who, chain: f.chain, transport: http(f.anvil.rpcUrl) });
      const onMarket = (functionName: string, args: readonly unknown[]) =>
        tried(
          wallet.writeContract({
            address: f.marketplace,
            abi: diginoorMarketplaceAbi,
            functionName,
            args,
          } as never),
        );
      // The admin's rescue is for tokens stuck outside an auction; cancelling is the seller's; settling waits for the end.
      expect(await onMarket("rescueToken", [tokenId, who.address]), name).not.toBe("sent");
      expect(await onMarket("cancelAuction", [tokenId]), name).not.toBe("sent");
      expect(await onMarket("settle", [tokenId]), name).not.toBe("sent");
      expect(await ownerOf(tokenId), name).toBe(f.marketplace);
    }
    // Only the fan takes it back (sponsored), and it is in their account again.
    const cancelled = await sponsored(account, [mkt("cancelAuction", [tokenId])]);
    expect(cancelled.success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(address);
    expect(await f.publicClient.getBalance({ address })).toBe(0n);
  });

  it("no key the server holds can move a fan's token; the guardian can only propose a recovery the fan vetoes", async () => {
    const { account, address } = await fan(undefined, privateKeyToAccount(GUARDIAN_KEY).address);
    const { tokenId } = await minterMint(f, address);
    await sponsored(account, [col("setApprovalForAll", [f.marketplace, true])]);
    for (const [name, key] of Object.entries(SERVER_KEYS)) {
      const who = privateKeyToAccount(key);
      await f.testClient.setBalance({ address: who.address, value: parseEther("1") });
      const wallet = createWalletClient({ account: who, chain: f.chain, transport: http(f.anvil.rpcUrl) });
      // 1. Directly on the collectible.
      const direct = await wallet
        .writeContract({
          address: f.collectible,
          abi: diginoorCollectibleAbi,
          functionName: "transferFrom",
          args: [address, who.address, tokenId],
        })
        .then(...OUTCOME);
      expect(direct, name).not.toBe("sent");
      // 2. Through the account's execute.
      const viaAccount = await wallet
        .writeContract({
          address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "execute",
          args: [BATCH_MODE, encodeExecutionData([col("transferFrom", [address, who.address, tokenId])])],
        })
        .then(...OUTCOME);
      expect(viaAccount, name).not.toBe("sent");
      // 3. A user operation signed with the key (an ECDSA signature, not the passkey's).
      const msg = await sentWithKey(who, account, [col("transferFrom", [address, who.address, tokenId])]);
      expect(msg, name).toMatch(/AA24|signature/i);
      expect(await ownerOf(tokenId), name).toBe(address);
    }

    // The guardian proposes a new passkey; it cannot take over before the delay, and the fan vetoes it.
    const guardian = createWalletClient({
      account: privateKeyToAccount(GUARDIAN_KEY),
      chain: f.chain,
      transport: http(f.anvil.rpcUrl),
    });
    const newKey = createSoftwarePasskey();
    const q = {
      qx: `0x${newKey.publicKey.slice(2, 66)}` as Hex,
      qy: `0x${newKey.publicKey.slice(66)}` as Hex,
    };
    await f.publicClient.waitForTransactionReceipt({
      hash: await guardian.writeContract({
        address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "proposeRecovery",
        args: [q.qx, q.qy],
      }),
    });
    const early = await guardian
      .writeContract({ address, abi: diginoorPasskeyAccountAbi, functionName: "completeRecovery" })
      .then(...OUTCOME);
    expect(early).not.toBe("sent");
    const veto = await sponsored(account, [
      {
        to: address,
        data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName: "cancelRecovery" }),
      },
    ]);
    expect(veto.success).toBe(true);
    await advance(f, 8 * 86_400);
    const late = await guardian
      .writeContract({ address, abi: diginoorPasskeyAccountAbi, functionName: "completeRecovery" })
      .then(...OUTCOME);
    expect(late).not.toBe("sent");
    expect(await ownerOf(tokenId)).toBe(address);
    expect(await f.publicClient.getBalance({ address })).toBe(0n);
  });

  it("works on a chain whose clock was moved days ahead (the bundler's clock follows the chain's)", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    await advance(f, 3 * 86_400);
    // Valid on the chain's day only: the EntryPoint's, and the development bundler's too. The bundler
    // reads the chain's time every 200 ms, so right after the jump (later on a busy machine) it may
    // still be on the old day and refuse as "not valid yet": it must accept once it has caught up.
    const calls = [col("setApprovalForAll", [f.marketplace, true]), mkt("list", [tokenId, 1000n])];
    const deadline = Date.now() + 10_000;
    let r: Awaited<ReturnType<typeof sponsored>> | undefined;
    while (!r) {
      try {
        r = await sponsored(account, calls);
      } catch (err) {
        if (Date.now() > deadline || !/not valid yet|AA22|AA32/i.test(String(err))) throw err;
        await new Promise((done) => setTimeout(done, 250));
      }
    }
    expect(r.success).toBe(true);
  });
});

const passkeyArgs = (p: SoftwarePasskey) =>
  [`0x${p.publicKey.slice(2, 66)}`, `0x${p.publicKey.slice(66)}`] as readonly [Hex, Hex];
const self = (address: Address, functionName: "addPasskey" | "removePasskey", p: SoftwarePasskey) => ({
  to: address,
  data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName, args: passkeyArgs(p) }),
});
const isPasskey = (address: Address, p: SoftwarePasskey) =>
  f.publicClient.readContract({
    address,
    abi: diginoorPasskeyAccountAbi,
    functionName: "isPasskey",
    args: passkeyArgs(p),
  });
/** The fan's account as another passkey of it sees it (a device added later). */
const asDevice = (owner: { address: Address; passkey: SoftwarePasskey }, device: SoftwarePasskey) =>
  toPasskeyAccount({
    client: f.publicClient as PublicClient<Transport, Chain>,
    factory: wallets.factory,
    owner: device.account,
    address: owner.address,
    firstPublicKey: owner.passkey.publicKey,
  });

describe("several passkeys on one wallet (the fan's other devices)", () => {
  it("a second passkey added by the first signs alone (list, cancel); one never added is refused; removing keeps at least one", async () => {
    const first = await fan();
    const { tokenId } = await minterMint(f, first.address);
    const phone = createSoftwarePasskey();
    // Counterfactual: the first operation deploys the account and adds the second passkey.
    const added = await sponsored(first.account, [self(first.address, "addPasskey", phone)]);
    expect(added.success).toBe(true);
    expect(await isPasskey(first.address, phone)).toBe(true);
    const [xs] = await f.publicClient.readContract({
      address: first.address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "passkeys",
    });
    expect(xs).toHaveLength(2);

    const second = await asDevice(first, phone);
    expect(second.address).toBe(first.address);
    const listed = await sponsored(second, [
      col("setApprovalForAll", [f.marketplace, true]),
      mkt("list", [tokenId, 5000n]),
    ]);
    expect(listed.success).toBe(true);
    const live = await f.publicClient.readContract({
      address: f.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "isListingLive",
      args: [tokenId],
    });
    expect(live).toBe(true);
    const cancelled = await sponsored(second, [mkt("cancelListing", [tokenId])]);
    expect(cancelled.success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(first.address);

    // A passkey nobody added is refused, whether it names itself or claims to be the first passkey.
    const stranger = createSoftwarePasskey();
    const forged = await asDevice(first, stranger);
    const msg = await refusal(
      sponsored(forged, [
        col("transferFrom", [first.address, privateKeyToAccount(EXECUTOR_KEY).address, tokenId]),
      ]),
    );
    expect(msg).toMatch(/AA24 signature error|Invalid UserOperation signature/i);
    const posing = await toPasskeyAccount({
      client: f.publicClient as PublicClient<Transport, Chain>,
      factory: wallets.factory,
      owner: { ...stranger.account, publicKey: first.passkey.publicKey },
      address: first.address,
    });
    const msg2 = await refusal(sponsored(posing, [mkt("list", [tokenId, 1n])]));
    expect(msg2).toMatch(/AA24 signature error|Invalid UserOperation signature/i);
    expect(await isPasskey(first.address, stranger)).toBe(false);

    // The second device removes the first (a lost phone): the first is refused from then on. (A new day:
    // this test's paymaster sponsors 4 operations a day.)
    await advance(f, 86_400);
    const removed = await waitForDay(() =>
      sponsored(second, [self(first.address, "removePasskey", first.passkey)]),
    );
    expect(removed.success).toBe(true);
    expect(await isPasskey(first.address, first.passkey)).toBe(false);
    const msg3 = await refusal(sponsored(first.account, [mkt("list", [tokenId, 1n])]));
    expect(msg3).toMatch(/AA24 signature error|Invalid UserOperation signature/i);
    // The last passkey cannot be removed: the call reverts (the bundler refuses it in simulation).
    const unreachable = toFunctionSelector("MultiSignerERC7913UnreachableThreshold(uint64,uint64)").slice(2);
    const last = await refusal(sponsored(second, [self(first.address, "removePasskey", phone)]));
    expect(last).toContain(unreachable);
    expect(await isPasskey(first.address, phone)).toBe(true);
    expect(await f.publicClient.getBalance({ address: first.address })).toBe(0n);
  });

  it("no key the server holds can add a passkey: directly, through execute, or as a user operation it signs", async () => {
    const owner = await fan();
    await sponsored(owner.account, [col("setApprovalForAll", [f.marketplace, true])]);
    for (const [name, key] of Object.entries(SERVER_KEYS)) {
      const who = privateKeyToAccount(key);
      await f.testClient.setBalance({ address: who.address, value: parseEther("1") });
      const wallet = createWalletClient({ account: who, chain: f.chain, transport: http(f.anvil.rpcUrl) });
      const planted = createSoftwarePasskey();
      const direct = await wallet
        .writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "addPasskey",
          args: passkeyArgs(planted),
        })
        .then(...OUTCOME);
      expect(direct, name).not.toBe("sent");
      const viaExecute = await wallet
        .writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "execute",
          args: [BATCH_MODE, encodeExecutionData([self(owner.address, "addPasskey", planted)])],
        })
        .then(...OUTCOME);
      expect(viaExecute, name).not.toBe("sent");
      const msg = await sentWithKey(who, owner.account, [self(owner.address, "addPasskey", planted)]);
      expect(msg, name).toMatch(/AA24|signature/i);
      expect(await isPasskey(owner.address, planted), name).toBe(false);
    }
  });

  it("a completed recovery replaces every passkey with the recovered one; a pending one is cancelled by the added passkey", async () => {
    const owner = await fan(undefined, privateKeyToAccount(GUARDIAN_KEY).address);
    const laptop = createSoftwarePasskey();
    await sponsored(owner.account, [self(owner.address, "addPasskey", laptop)]);
    const guardian = createWalletClient({
      account: privateKeyToAccount(GUARDIAN_KEY),
      chain: f.chain,
      transport: http(f.anvil.rpcUrl),
    });
    const propose = async (p: SoftwarePasskey) =>
      f.publicClient.waitForTransactionReceipt({
        hash: await guardian.writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "proposeRecovery",
          args: passkeyArgs(p),
        }),
      });
    // Any passkey of the wallet vetoes: here the one added later.
    await propose(createSoftwarePasskey());
    const veto = await sponsored(await asDevice(owner, laptop), [
      {
        to: owner.address,
        data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName: "cancelRecovery" }),
      },
    ]);
    expect(veto.success).toBe(true);
    const pending = await f.publicClient.readContract({
      address: owner.address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "pendingRecovery",
    });
    expect(pending.executableAt).toBe(0);

    const recovered = createSoftwarePasskey();
    await propose(recovered);
    await advance(f, 7 * 86_400 + 60);
    await f.publicClient.waitForTransactionReceipt({
      hash: await guardian.writeContract({
        address: owner.address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "completeRecovery",
      }),
    });
    expect(await isPasskey(owner.address, recovered)).toBe(true);
    expect(await isPasskey(owner.address, owner.passkey)).toBe(false);
    expect(await isPasskey(owner.address, laptop)).toBe(false);
    const ok = await waitForDay(() =>
      asDevice(owner, recovered).then((a) => sponsored(a, [col("setApprovalForAll", [f.marketplace, true])])),
    );
    expect(ok.success).toBe(true);
    const msg = await refusal(
      asDevice(owner, laptop).then((a) => sponsored(a, [col("setApprovalForAll", [f.marketplace, false])])),
    );
    expect(msg).toMatch(/AA24 signature error|Invalid UserOperation signature/i);
  });
});

/** Retries while the development bundler's clock has not yet caught up with a chain moved ahead. */
async function waitForDay<T>(send: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await send();
    } catch (err) {
      if (Date.now() > deadline || !/not valid yet|AA22|AA32/i.test(String(err))) throw err;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}

describe("an attacker running its own handleOps against our paymaster (issue 34)", () => {
  const ENTRYPOINT_BALANCE = [
    {
      type: "function",
      name: "balanceOf",
      stateMutability: "view",
      inputs: [{ type: "address" }],
      outputs: [{ type: "uint256" }],
    },
  ] as const;
  const depositOf = (paymaster: Address) =>
    f.publicClient.readContract({
      address: wallets.entryPoint,
      abi: ENTRYPOINT_BALANCE,
      functionName: "balanceOf",
      args: [paymaster],
    });

  /** An EIP-1167 clone of our account implementation made outside the factory, initialised by the attacker. */
  async function outsideClone(attacker: ReturnType<typeof createWalletClient>, passkey: SoftwarePasskey) {
    const implementation = await f.publicClient.readContract({
      address: wallets.factory,
      abi: diginoorAccountFactoryAbi,
      functionName: "implementation",
    });
    const runtime = concat(["0x363d3d373d3d3d363d73", implementation, "0x5af43d82803e903d91602b57fd5bf3"]);
    const receipt = await f.publicClient.waitForTransactionReceipt({
      hash: await attacker.sendTransaction({
        account: attacker.account as never,
        chain: f.chain,
        data: concat(["0x3d602d80600a3d3981f3", runtime]),
      }),
    });
    const clone = receipt.contractAddress as Address;
    await f.publicClient.waitForTransactionReceipt({
      hash: await attacker.writeContract({
        account: attacker.account as never,
        chain: f.chain,
        address: clone,
        abi: diginoorPasskeyAccountAbi,
        functionName: "initialize",
        args: [...passkeyArgs(passkey), (attacker.account as { address: Address }).address],
      }),
    });
    // The code of every account the factory makes: the codehash the paymaster checked before issue 34.
    expect(keccak256((await f.publicClient.getCode({ address: clone })) as Hex)).toBe(
      await f.publicClient.readContract({
        address: wallets.factory,
        abi: diginoorAccountFactoryAbi,
        functionName: "accountCodeHash",
      }),
    );
    return toPasskeyAccount({
      client: f.publicClient as PublicClient<Transport, Chain>,
      factory: wallets.factory,
      owner: passkey.account,
      address: clone,
    });
  }

  it("gets nothing sponsored: fresh factory accounts and clones made outside it, inflated fees, any paymasterData", async () => {
    const attackerKey = ANVIL_PRIVATE_KEYS[4];
    const attacker = createWalletClient({
      account: privateKeyToAccount(attackerKey),
      chain: f.chain,
      transport: http(f.anvil.rpcUrl),
    });
    const beneficiary = privateKeyToAccount(attackerKey).address;
    const clone = await outsideClone(attacker, createSoftwarePasskey());
    const before = await depositOf(wallets.paymaster);
    const now = await chainNow();
    const day = Math.floor(now / 86_400);
    // 30 gwei against the local 1 gwei quote, and a preVerificationGas nobody needs.
    const fees = { maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 30_000_000_000n };
    const attempts: Record<string, (op: SponsoredOperation) => Promise<Hex>> = {
      // What the paymaster accepted before issue 34: the UTC day.
      "the day number": async () => pad(toHex(day), { size: 6 }),
      "the estimation stub": async () => STUB_SPONSORSHIP,
      "a signature by the attacker's own key": (op) => sponsorSignature(op, {}, attackerKey),
    };
    /** The attacker's own handleOps of one operation of `account`, the attacker as beneficiary. */
    const handleOps = async (
      account: SmartAccount,
      paymasterData: (op: SponsoredOperation) => Promise<Hex>,
    ) => {
      const factoryArgs = (await f.publicClient.getCode({ address: account.address }))
        ? {}
        : await account.getFactoryArgs();
      const op = {
        sender: account.address,
        nonce: await account.getNonce(),
        ...factoryArgs,
        callData: await account.encodeCalls([col("setApprovalForAll", [f.marketplace, true])]),
        callGasLimit: 80_000n,
        verificationGasLimit: 800_000n,
        preVerificationGas: 300_000n,
        ...fees,
        paymaster: wallets.paymaster,
        paymasterVerificationGasLimit: 150_000n,
        paymasterPostOpGasLimit: 0n,
      } as const;
      const full = {
        ...op,
        paymasterData: await paymasterData(op as SponsoredOperation),
        signature: "0x" as Hex,
      };
      full.signature = await account.signUserOperation(full as never);
      const call = {
        account: attacker.account as never,
        chain: f.chain,
        address: wallets.entryPoint,
        abi: entryPoint08Abi,
        functionName: "handleOps",
        args: [[toPackedUserOperation(full as never)], beneficiary],
        gas: 3_000_000n,
      } as const;
      // Why the EntryPoint refuses (a simulation), then the attacker's transaction all the same.
      const reason = await f.publicClient.simulateContract(call).then(
        () => "accepted",
        (e: unknown) => /AA\d\d[^"\n)]*/.exec(String(e))?.[0] ?? String(revertName(e as never)),
      );
      const status = await attacker
        .writeContract(call)
        .then(async (hash) => (await f.publicClient.waitForTransactionReceipt({ hash })).status);
      return `${status === "success" ? "paid" : "reverted"} (${reason})`;
    };
    const outcomes: string[] = [];
    for (const [what, paymasterData] of Object.entries(attempts)) {
      for (const [kind, account] of [
        ["a fresh account of our factory", (await fan()).account],
        ["a clone made outside the factory", clone],
      ] as const) {
        outcomes.push(`${what}, ${kind}: ${await handleOps(account, paymasterData)}`);
      }
    }
    expect(
      outcomes.filter((o) => o.includes("paid")),
      outcomes.join("\n"),
    ).toEqual([]);
    expect(
      outcomes.every((o) => /AA3[34]/.test(o)),
      outcomes.join("\n"),
    ).toBe(true);
    expect(await depositOf(wallets.paymaster)).toBe(before);
    // The same operation carrying our server's signature is paid (the harness is sound): what the attacker
    // lacked is that signature, which the server gives only after its checks.
    expect(await handleOps((await fan()).account, (op) => sponsorSignature(op))).toBe("paid (accepted)");
    expect(await depositOf(wallets.paymaster)).toBeLessThan(before);
  });
});
