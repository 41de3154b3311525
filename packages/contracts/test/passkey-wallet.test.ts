/**
 * Passkey wallets on anvil with the real bundler (Alto): DiginoorPasskeyAccount (OpenZeppelin Account +
 * MultiSignerERC7913 of WebAuthn passkeys) on EntryPoint v0.8, deployed by our factory on first use, gas paid by DiginoorPaymaster.
 */
import {
  type Address,
  type Chain,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
  type PublicClient,
  toFunctionSelector,
  type Transport,
} from "viem";
import { type BundlerClient, getUserOperationHash, type SmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { diginoorPasskeyAccountAbi } from "../generated/diginoorPasskeyAccount.js";
import { diginoorPaymasterAbi } from "../generated/diginoorPaymaster.js";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import type { BundlerInstance } from "../src/bundler.js";
import {
  BATCH_MODE,
  diginoorPaymasterFields,
  encodeExecutionData,
  sponsorDay,
  toPasskeyAccount,
} from "../src/passkey-account.js";
import { createSoftwarePasskey, type SoftwarePasskey } from "../src/software-passkey.js";
import type { WalletContracts } from "../src/wallets.js";
import { BUNDLER_EXECUTOR_KEY, BUNDLER_UTILITY_KEY, startWalletBed } from "./wallet-bed.js";
import { advance, type Fixture, minterMint, revertName, SIGNER_KEY, setupFixture } from "./fixture.js";

const EXECUTOR_KEY = BUNDLER_EXECUTOR_KEY;
const UTILITY_KEY = BUNDLER_UTILITY_KEY;
/** A guardian the fan named themselves (decision 185): it may only propose a delayed recovery. */
const GUARDIAN_KEY: Hex = "0x3b6bd7a6e7e3c1a5f1f6b0f4d5e2a1c9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3";
const DAILY_LIMIT = 4;
/** Every key the server holds in development (decision 160's table), by role. */
const SERVER_KEYS: Record<string, Hex> = {
  "deployer / contracts admin / paymaster admin": ANVIL_PRIVATE_KEYS[0],
  minter: ANVIL_PRIVATE_KEYS[1],
  "voucher signer": SIGNER_KEY,
  "bundler executor": EXECUTOR_KEY,
  "bundler utility": UTILITY_KEY,
  "a guardian (as if the fan had named one of our keys)": GUARDIAN_KEY,
};

let f: Fixture;
let wallets: WalletContracts;
let bundler: BundlerInstance;
let bundlerClient: BundlerClient;

beforeAll(async () => {
  f = await setupFixture();
  ({ wallets, bundler, bundlerClient } = await startWalletBed(f, { dailyLimit: DAILY_LIMIT }));
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

async function chainDay(): Promise<number> {
  return sponsorDay(Number((await f.publicClient.getBlock()).timestamp));
}

/** Send a sponsored user operation and wait for its receipt. */
async function sponsored(
  account: SmartAccount,
  calls: { to: Address; data: Hex; value?: bigint }[],
  day?: number,
) {
  const chainNow = day === undefined ? await chainDay() : day;
  const hash = await bundlerClient.sendUserOperation({
    account,
    calls,
    paymaster: diginoorPaymasterFields(wallets.paymaster, () => chainNow * 86_400 + 1),
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
  const day = await chainDay();
  const { account: _prepared, ...op } = await bundlerClient.prepareUserOperation({
    account,
    calls,
    paymaster: diginoorPaymasterFields(wallets.paymaster, () => day * 86_400 + 1),
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

  it("sends the token to the fan's own wallet, sponsored", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const own = privateKeyToAccount(
      "0x1f7b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
    ).address;
    const r = await sponsored(account, [col("safeTransferFrom", [address, own, tokenId])]);
    expect(r.success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(own);
    expect(await f.publicClient.getBalance({ address })).toBe(0n);
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

  it("the paymaster refuses beyond the daily limit, and an operation dated another day", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const today = await chainDay();
    await sponsored(account, [col("setApprovalForAll", [f.marketplace, true])]);
    await sponsored(account, [mkt("list", [tokenId, 1000n])]);
    for (let i = 2; i < DAILY_LIMIT; i++)
      await sponsored(account, [mkt("updatePrice", [tokenId, 1000n + BigInt(i)])]);
    expect(
      await f.publicClient.readContract({
        address: wallets.paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "usage",
        args: [address, today],
      }),
    ).toBe(DAILY_LIMIT);
    expect(await refusal(sponsored(account, [mkt("cancelListing", [tokenId])]))).toMatch(/DailyLimitReached/);
    // Counting it against yesterday (or tomorrow) is no way around it: the operation is valid on its day only.
    expect(await refusal(sponsored(account, [mkt("cancelListing", [tokenId])], today - 1))).toMatch(
      /expires too soon|AA32|expired/i,
    );
    expect(await refusal(sponsored(account, [mkt("cancelListing", [tokenId])], today + 1))).toMatch(
      /not valid yet|AA32|not due/i,
    );
  });

  it("the paymaster refuses an operation that may cost more than its per-operation limit", async () => {
    const { account, address } = await fan();
    const { tokenId } = await minterMint(f, address);
    const policy = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[0]),
      chain: f.chain,
      transport: http(f.anvil.rpcUrl),
    });
    const limits = async (dailyLimit: number, maxCostPerOp: bigint) =>
      f.publicClient.waitForTransactionReceipt({
        hash: await policy.writeContract({
          address: wallets.paymaster,
          abi: diginoorPaymasterAbi,
          functionName: "setLimits",
          args: [dailyLimit, maxCostPerOp],
        }),
      });
    const maxCost = await f.publicClient.readContract({
      address: wallets.paymaster,
      abi: diginoorPaymasterAbi,
      functionName: "maxCostPerOp",
    });
    await limits(DAILY_LIMIT, 1000n); // a thousand wei: no operation costs so little
    try {
      expect(await refusal(sponsored(account, [col("setApprovalForAll", [f.marketplace, true])]))).toMatch(
        /CostTooHigh/,
      );
      expect(await f.publicClient.getCode({ address })).toBeUndefined();
    } finally {
      await limits(DAILY_LIMIT, maxCost);
    }
    // Within the limit again, the same operation is paid.
    expect((await sponsored(account, [col("setApprovalForAll", [f.marketplace, true])])).success).toBe(true);
    expect(await ownerOf(tokenId)).toBe(address);
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
        if (Date.now() > deadline || !/not valid yet|AA22/i.test(String(err))) throw err;
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
      if (Date.now() > deadline || !/not valid yet|AA22/i.test(String(err))) throw err;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}
