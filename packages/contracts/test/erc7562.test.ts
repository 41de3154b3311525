/**
 * ERC-7562 from end to end (decision 181): the account, factory and paymaster phases of sponsored user
 * operations, the first one with initCode and a later one, checked by our tracer check (src/erc7562.ts) on
 * anvil, then sent through the real bundler (Alto). Our verifying paymaster (decision 186) reads no storage in
 * validation, so it passes unstaked and staked; the check fails on test paymasters and a factory that break
 * one rule (a counting paymaster unstaked, TIMESTAMP in validation), and passes a compliant unstaked one. On a chain without the P-256 precompile the operation still goes through
 * (OpenZeppelin's Solidity fallback), and the check names the one rule it breaks there.
 */
import {
  type Address,
  type Chain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type Transport,
} from "viem";
import {
  type BundlerClient,
  createBundlerClient,
  type SmartAccount,
  toPackedUserOperation,
} from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { estimateFeesPerGas } from "viem/actions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import {
  countingPaymasterAbi,
  countingPaymasterBytecode,
  openPaymasterAbi,
  timestampFactoryAbi,
  timestampFactoryBytecode,
  openPaymasterBytecode,
  timestampPaymasterAbi,
  timestampPaymasterBytecode,
} from "../generated/testHelpers.js";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { type BundlerInstance, startBundler } from "../src/bundler.js";
import { checkErc7562, describeViolations, type Erc7562Report } from "../src/erc7562.js";
import { bundlerFeesPerGas, diginoorPaymasterFields, toPasskeyAccount } from "../src/passkey-account.js";
import { createSoftwarePasskey } from "../src/software-passkey.js";
import { deployWallets, type WalletContracts } from "../src/wallets.js";
import { type Fixture, setupFixture } from "./fixture.js";
import { SPONSOR_SIGNER, sponsorWith } from "./sponsorship.js";

const EXECUTOR_KEY = ANVIL_PRIVATE_KEYS[7];
const EXECUTOR = privateKeyToAccount(EXECUTOR_KEY).address;
const ETH = 10n ** 18n;

interface World {
  f: Fixture;
  bundler: BundlerInstance;
  bundlerClient: BundlerClient;
  client: PublicClient<Transport, Chain>;
}

/** anvil with our contracts, the wallet contracts `deploy` makes, then Alto (it needs the EntryPoint). */
async function world<T>(
  hardfork: string | undefined,
  deploy: (f: Fixture) => Promise<T>,
): Promise<World & { wallets: T }> {
  const f = await setupFixture({ hardfork });
  const wallets = await deploy(f);
  const bundler = await startBundler({
    rpcUrl: f.anvil.rpcUrl,
    executorPrivateKey: EXECUTOR_KEY,
    utilityPrivateKey: ANVIL_PRIVATE_KEYS[8],
  });
  const bundlerClient = createBundlerClient({
    client: f.publicClient,
    transport: http(bundler.url, { timeout: 60_000 }),
    pollingInterval: 100,
    userOperation: {
      estimateFeesPerGas: ({ bundlerClient: b }) =>
        bundlerFeesPerGas(b as never, () => estimateFeesPerGas(f.publicClient)),
    },
  });
  return { f, bundler, bundlerClient, client: f.publicClient as PublicClient<Transport, Chain>, wallets };
}

type Fields = ReturnType<typeof diginoorPaymasterFields>;

/** Our paymaster's fields: the stub sponsorship to estimate, then the server's sponsorship of the operation. */
async function diginoorFields(w: World, paymaster: Address): Promise<Fields> {
  return diginoorPaymasterFields(paymaster, sponsorWith(w.f.publicClient as PublicClient, paymaster));
}

/** A test paymaster's fields: no paymaster data. */
function plainFields(paymaster: Address): Fields {
  const fields = { paymaster, paymasterData: "0x" as Hex };
  return {
    async getPaymasterStubData() {
      return { ...fields, paymasterPostOpGasLimit: 0n, paymasterVerificationGasLimit: 150_000n };
    },
    async getPaymasterData() {
      return fields;
    },
  } as unknown as Fields;
}

/** A signed user operation of `account` approving the marketplace, as the web app makes it. */
async function signedOp(w: World, account: SmartAccount, paymaster: Fields) {
  const uo = await w.bundlerClient.prepareUserOperation({
    account,
    calls: [
      {
        to: w.f.collectible,
        data: encodeFunctionData({
          abi: diginoorCollectibleAbi,
          functionName: "setApprovalForAll",
          args: [w.f.marketplace, true],
        }),
      },
    ],
    paymaster,
  });
  const signature = await account.signUserOperation(uo as never);
  return { uo: { ...uo, signature }, packed: toPackedUserOperation({ ...uo, signature } as never) };
}

async function check(w: World, packed: ReturnType<typeof toPackedUserOperation>): Promise<Erc7562Report> {
  return checkErc7562({ client: w.f.publicClient as PublicClient, op: packed, from: EXECUTOR });
}

async function send(w: World, uo: Awaited<ReturnType<typeof signedOp>>["uo"]) {
  const hash = await w.bundlerClient.sendUserOperation(uo as never);
  const r = await w.bundlerClient.waitForUserOperationReceipt({ hash, timeout: 60_000 });
  expect(r.success).toBe(true);
  return r;
}

const fan = (w: World, wallets: WalletContracts) =>
  toPasskeyAccount({ client: w.client, factory: wallets.factory, owner: createSoftwarePasskey().account });

async function deployed(w: World, abi: unknown, bytecode: Hex): Promise<Address> {
  const admin = w.f.wallets[0]!;
  const hash = await admin.deployContract({ abi: abi as never, bytecode, args: [] });
  const address = getAddress(
    (await w.f.publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address,
  );
  const dep = await admin.writeContract({ address, abi: abi as never, functionName: "deposit", value: ETH });
  await w.f.publicClient.waitForTransactionReceipt({ hash: dep });
  return address;
}

describe("ERC-7562 on a chain with the P-256 precompile", () => {
  let w: World;
  let unstaked: WalletContracts;
  let staked: WalletContracts;

  beforeAll(async () => {
    const all = await world(undefined, async (f) => {
      const common = {
        rpcUrl: f.anvil.rpcUrl,
        collectible: f.collectible,
        marketplace: f.marketplace,
        sponsorSigner: SPONSOR_SIGNER,
      };
      // The same paymaster without a stake: it must pass unstaked too (its validation reads no storage).
      return {
        unstaked: await deployWallets({ ...common, stakeWei: 0n }),
        staked: await deployWallets(common),
      };
    });
    w = all;
    unstaked = all.wallets.unstaked;
    staked = all.wallets.staked;
  }, 180_000);
  afterAll(async () => {
    await w?.bundler.stop();
    await w?.f.stop();
  });

  /** Our paymaster passes the check on a fan's first operation (initCode) and a later one, both then bundled. */
  async function passesFirstAndLater(wallets: WalletContracts, isStaked: boolean) {
    const account = await fan(w, wallets);
    for (const [n, initCode, phases] of [
      ["first", true, ["factory", "account", "paymaster"]],
      ["later", false, ["account", "paymaster"]],
    ] as const) {
      const op = await signedOp(w, account, await diginoorFields(w, wallets.paymaster));
      expect(op.packed.initCode !== "0x", n).toBe(initCode);
      const r = await check(w, op.packed);
      expect(r.phases, n).toEqual(phases);
      expect(r.p256Precompile, n).toBe(true);
      expect(r.staked.paymaster, n).toBe(isStaked);
      expect(r.violations, `${n}: ${describeViolations(r)}`).toEqual([]);
      await send(w, op.uo);
    }
  }

  it("passes the verifying paymaster unstaked (it reads no storage): first operation (initCode) and a later one", async () => {
    await passesFirstAndLater(unstaked, false);
  });

  it("passes the staked paymaster on the first operation (initCode) and a later one, both then bundled", async () => {
    await passesFirstAndLater(staked, true);
  });

  it("fails a paymaster that reads TIMESTAMP in validation (OP-011)", async () => {
    const pm = await deployed(w, timestampPaymasterAbi, timestampPaymasterBytecode);
    const { packed } = await signedOp(w, await fan(w, staked), plainFields(pm));
    const r = await check(w, packed);
    expect(r.violations.map((v) => [v.rule, v.phase, v.address])).toEqual([["OP-011", "paymaster", pm]]);
    expect(r.violations[0]?.message).toMatch(/TIMESTAMP/);
  });

  it("fails a factory that reads TIMESTAMP while deploying the account (OP-011, factory phase)", async () => {
    const admin = w.f.wallets[0]!;
    const hash = await admin.deployContract({
      abi: timestampFactoryAbi,
      bytecode: timestampFactoryBytecode,
      args: [staked.factory],
    });
    const bad = getAddress(
      (await w.f.publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address,
    );
    const account = await fan(w, staked);
    const { uo } = await signedOp(w, account, await diginoorFields(w, staked.paymaster));
    // The same operation, deployed through the factory in front of ours (same createAccount call, same
    // address), signed again over the new initCode.
    const tampered = { ...uo, factory: bad };
    const signature = await account.signUserOperation(tampered as never);
    const r = await check(w, toPackedUserOperation({ ...tampered, signature } as never));
    expect(r.phases).toEqual(["factory", "account", "paymaster"]);
    expect(
      r.violations.map((v) => [v.rule, v.phase, v.address]),
      describeViolations(r),
    ).toEqual([["OP-011", "factory", bad]]);
  });

  it("passes a compliant unstaked paymaster, and one that counts in its storage only once staked", async () => {
    const open = await deployed(w, openPaymasterAbi, openPaymasterBytecode);
    const r = await check(w, (await signedOp(w, await fan(w, staked), plainFields(open))).packed);
    expect(r.staked.paymaster).toBe(false);
    expect(r.violations, describeViolations(r)).toEqual([]);

    const counting = await deployed(w, countingPaymasterAbi, countingPaymasterBytecode);
    const account = await fan(w, staked);
    const before = await check(w, (await signedOp(w, account, plainFields(counting))).packed);
    expect(before.violations.map((v) => v.message)).toEqual([
      expect.stringMatching(/paymaster: unstaked, SLOAD of its own storage slot 0x0$/),
      expect.stringMatching(/paymaster: unstaked, SSTORE of its own storage slot 0x0$/),
    ]);
    expect(before.violations.every((v) => v.rule === "STO-031")).toBe(true);
    const admin = w.f.wallets[0]!;
    const hash = await admin.writeContract({
      address: counting,
      abi: countingPaymasterAbi,
      functionName: "addStake",
      args: [86_400],
      value: ETH,
    });
    await w.f.publicClient.waitForTransactionReceipt({ hash });
    const after = await check(w, (await signedOp(w, account, plainFields(counting))).packed);
    expect(after.staked.paymaster).toBe(true);
    expect(after.violations, describeViolations(after)).toEqual([]);
  });
});

describe("ERC-7562 on a chain without the P-256 precompile (OpenZeppelin's Solidity fallback)", () => {
  let w: World;
  let staked: WalletContracts;

  beforeAll(async () => {
    const all = await world("prague", (f) =>
      deployWallets({
        rpcUrl: f.anvil.rpcUrl,
        collectible: f.collectible,
        marketplace: f.marketplace,
        sponsorSigner: SPONSOR_SIGNER,
      }),
    );
    w = all;
    staked = all.wallets;
  }, 180_000);
  afterAll(async () => {
    await w?.bundler.stop();
    await w?.f.stop();
  });

  it("bundles the first and a later operation; the probe of the missing 0x100 is the one finding", async () => {
    const account = await fan(w, staked);
    const first = await signedOp(w, account, await diginoorFields(w, staked.paymaster));
    const r1 = await check(w, first.packed);
    expect(r1.p256Precompile).toBe(false);
    expect(r1.phases).toEqual(["factory", "account", "paymaster"]);
    // OpenZeppelin's P256.verify calls 0x100 first (twice: the signature, then its probe) and, with no
    // answer, verifies in Solidity: a strict bundler counts a call to an address without code (OP-041/062).
    expect(
      r1.violations.map((v) => [v.rule, v.phase]),
      describeViolations(r1),
    ).toEqual([["OP-062", "account"]]);
    await send(w, first.uo);
    const later = await signedOp(w, account, await diginoorFields(w, staked.paymaster));
    const r2 = await check(w, later.packed);
    expect(r2.violations.map((v) => v.rule)).toEqual(["OP-062"]);
    await send(w, later.uo);
  }, 180_000);
});
