/**
 * Deployment of the passkey wallet contracts (decisions 160, 181): the paymaster is staked at deployment
 * (ERC-7562), and outside a development chain deployWallets and `npm run deploy -- --wallets` apply
 * deployAll's key checks (a multisig admin that is not the deployer) before sending anything.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type Address, createPublicClient, http, isAddress, parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorPaymasterAbi } from "../generated/diginoorPaymaster.js";
import { ANVIL_ADDRESSES } from "../src/anvil-accounts.js";
import { type AnvilInstance, startAnvil } from "../src/anvil.js";
import { deployAll } from "../src/deploy.js";
import {
  DEFAULT_PAYMASTER_STAKE_WEI,
  deployWallets,
  MIN_UNSTAKE_DELAY_SECONDS,
  stakeInfo,
  stakeProblem,
} from "../src/wallets.js";

const run = promisify(execFile);
const pkgDir = new URL("..", import.meta.url).pathname;
const DEPLOYER = ANVIL_ADDRESSES[0];
const MULTISIG = ANVIL_ADDRESSES[5];

async function roles(rpcUrl: string, paymaster: Address, who: Address) {
  const c = createPublicClient({ transport: http(rpcUrl) });
  const read = (functionName: "DEFAULT_ADMIN_ROLE" | "POLICY_ROLE") =>
    c.readContract({ address: paymaster, abi: diginoorPaymasterAbi, functionName });
  const out: string[] = [];
  for (const [name, role] of [
    ["admin", await read("DEFAULT_ADMIN_ROLE")],
    ["policy", await read("POLICY_ROLE")],
  ] as const) {
    if (
      await c.readContract({
        address: paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "hasRole",
        args: [role, who],
      })
    )
      out.push(name);
  }
  return out;
}

describe("deployWallets outside a development chain", () => {
  let anvil: AnvilInstance;
  let collectible: Address;
  let marketplace: Address;
  const nonce = () =>
    createPublicClient({ transport: http(anvil.rpcUrl) }).getTransactionCount({ address: DEPLOYER });

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 137 });
    const d = await deployAll({
      rpcUrl: anvil.rpcUrl,
      metadataBaseUri: "https://x.test/api/v1/metadata/",
      adminAddress: MULTISIG,
      minterAddress: ANVIL_ADDRESSES[2],
      signerAddress: ANVIL_ADDRESSES[3],
      treasury: ANVIL_ADDRESSES[4],
    });
    collectible = d.collectible;
    marketplace = d.marketplace;
  }, 60_000);
  afterAll(async () => {
    await anvil?.stop();
  });

  const opts = () => ({ rpcUrl: anvil.rpcUrl, collectible, marketplace });

  it("refuses the deployer as the paymaster's admin, given or by default, and sends nothing", async () => {
    const before = await nonce();
    await expect(deployWallets(opts())).rejects.toThrow(
      /refusing to deploy the passkey wallet contracts on chain 137: no paymaster admin given.*--admin <multisig address>/,
    );
    await expect(deployWallets({ ...opts(), admin: DEPLOYER })).rejects.toThrow(
      /paymaster admin is the same address as the deployer/,
    );
    expect(await nonce()).toBe(before);
  });

  it("refuses a stake under the minimum or an unstake delay under a day", async () => {
    const before = await nonce();
    await expect(deployWallets({ ...opts(), admin: MULTISIG, stakeWei: 0n })).rejects.toThrow(
      /paymaster's stake is 0 wei, under the minimum of 1000000000000000000 wei/,
    );
    await expect(
      deployWallets({ ...opts(), admin: MULTISIG, stakeWei: DEFAULT_PAYMASTER_STAKE_WEI - 1n }),
    ).rejects.toThrow(/under the minimum/);
    await expect(
      deployWallets({ ...opts(), admin: MULTISIG, unstakeDelaySeconds: MIN_UNSTAKE_DELAY_SECONDS - 1 }),
    ).rejects.toThrow(/unstake delay is 86399 s, under ERC-7562's 86400 s/);
    expect(await nonce()).toBe(before);
  });

  it("stakes the paymaster and leaves the multisig its only admin", async () => {
    const w = await deployWallets({ ...opts(), admin: MULTISIG });
    const c = createPublicClient({ transport: http(anvil.rpcUrl) });
    const info = await stakeInfo(c, w.paymaster);
    expect(info.staked).toBe(true);
    expect(info.stake).toBe(DEFAULT_PAYMASTER_STAKE_WEI);
    expect(info.unstakeDelaySec).toBe(MIN_UNSTAKE_DELAY_SECONDS);
    expect(stakeProblem(info)).toBeUndefined();
    expect(await roles(anvil.rpcUrl, w.paymaster, MULTISIG)).toEqual(["admin", "policy"]);
    expect(await roles(anvil.rpcUrl, w.paymaster, DEPLOYER)).toEqual([]);
  });
});

describe("deployWallets on a development chain", () => {
  it("stakes the paymaster by default, the deployer its admin when none is named", async () => {
    const anvil = await startAnvil();
    try {
      const w = await deployWallets({
        rpcUrl: anvil.rpcUrl,
        collectible: ANVIL_ADDRESSES[1],
        marketplace: ANVIL_ADDRESSES[2],
      });
      const c = createPublicClient({ transport: http(anvil.rpcUrl) });
      expect(stakeProblem(await stakeInfo(c, w.paymaster))).toBeUndefined();
      expect((await stakeInfo(c, w.paymaster)).deposit).toBe(parseEther("10"));
      expect(await roles(anvil.rpcUrl, w.paymaster, DEPLOYER)).toEqual(["admin", "policy"]);
    } finally {
      await anvil.stop();
    }
  }, 60_000);
});

describe("stakeProblem", () => {
  const base = {
    deposit: 0n,
    staked: true,
    stake: parseEther("1"),
    unstakeDelaySec: 86_400,
    withdrawTime: 0,
  };
  it("names what is missing", () => {
    expect(stakeProblem(base)).toBeUndefined();
    expect(stakeProblem({ ...base, staked: false, stake: 0n, unstakeDelaySec: 0 })).toBe("it has no stake");
    expect(stakeProblem({ ...base, staked: false, withdrawTime: 5 })).toMatch(/unlocked/);
    expect(stakeProblem({ ...base, stake: parseEther("1") - 1n })).toMatch(/under the minimum/);
    expect(stakeProblem(base, parseEther("2"))).toMatch(/under the minimum of 2000000000000000000 wei/);
    expect(stakeProblem({ ...base, unstakeDelaySec: 86_399 })).toMatch(/unstake delay is 86399 s/);
  });
});

describe("deploy CLI --wallets", () => {
  const cli = (rpc: string, args: string[], env: Record<string, string> = {}) =>
    run(
      "npx",
      ["tsx", "scripts/deploy-cli.ts", "--rpc", rpc, "--base-uri", "https://x.test/api/v1/metadata", ...args],
      {
        cwd: pkgDir,
        env: {
          ...process.env,
          DEPLOYER_PRIVATE_KEY: "",
          MINTER_PRIVATE_KEY: "",
          VOUCHER_SIGNER_PRIVATE_KEY: "",
          ADMIN_ADDRESS: "",
          TREASURY_ADDRESS: "",
          ...env,
        },
      },
    );
  const roleFlags = [
    "--minter",
    ANVIL_ADDRESSES[2],
    "--signer",
    ANVIL_ADDRESSES[3],
    "--treasury",
    ANVIL_ADDRESSES[4],
  ];

  it("outside a development chain, refuses the wallets' key problems before deploying anything", async () => {
    const a = await startAnvil({ chainId: 80002 });
    try {
      type Failure = { code: number; stderr: string; stdout: string };
      const fail = (args: string[]) =>
        cli(a.rpcUrl, args).then(
          () => undefined,
          (e: Failure) => e,
        );
      const err = await fail([...roleFlags, "--admin", MULTISIG, "--wallets", "--paymaster-stake", "0"]);
      expect(err?.code).toBe(1);
      expect(err?.stdout).toBe("");
      expect(err?.stderr).toMatch(/paymaster's stake is 0 wei, under the minimum/);
      // The factory names no guardian (decision 185): the old flag is refused, not ignored.
      const old = await fail([...roleFlags, "--admin", MULTISIG, "--wallets", "--guardian", MULTISIG]);
      expect(old?.code).not.toBe(0);
      expect(old?.stdout).toBe("");
      expect(old?.stderr).toMatch(/Unknown option '--guardian'/);
      const c = createPublicClient({ transport: http(a.rpcUrl) });
      expect(await c.getTransactionCount({ address: DEPLOYER })).toBe(0);

      const { stdout } = await cli(a.rpcUrl, [
        ...roleFlags,
        "--admin",
        MULTISIG,
        "--wallets",
        "--paymaster-stake",
        parseEther("2").toString(),
        "--unstake-delay",
        String(2 * 86_400),
      ]);
      const out = JSON.parse(stdout.trim());
      expect(isAddress(out.accountFactory)).toBe(true);
      expect(out.paymaster).not.toBe(zeroAddress);
      const info = await stakeInfo(c, out.paymaster);
      expect(info.stake).toBe(parseEther("2"));
      expect(info.unstakeDelaySec).toBe(2 * 86_400);
      expect(await roles(a.rpcUrl, out.paymaster, MULTISIG)).toEqual(["admin", "policy"]);
      expect(await roles(a.rpcUrl, out.paymaster, DEPLOYER)).toEqual([]);
    } finally {
      await a.stop();
    }
  }, 120_000);
});
