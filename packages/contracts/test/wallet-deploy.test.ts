/**
 * Deployment of the passkey wallet contracts (decisions 160, 181): the paymaster is staked at deployment
 * (ERC-7562), and outside a development chain deployWallets and `npm run deploy -- --wallets` apply
 * deployAll's key checks (a multisig admin that is not the deployer, a sponsorship signer that is not the
 * deployer) before sending anything.
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
const SPONSOR = ANVIL_ADDRESSES[9];

/** The key the paymaster takes sponsorships from. */
const sponsorSignerOf = (rpcUrl: string, paymaster: Address) =>
  createPublicClient({ transport: http(rpcUrl) }).readContract({
    address: paymaster,
    abi: diginoorPaymasterAbi,
    functionName: "sponsorSigner",
  });

/** The paymaster's roles `who` holds (the verifying paymaster has one: DEFAULT_ADMIN_ROLE; decision 186). */
async function roles(rpcUrl: string, paymaster: Address, who: Address) {
  const c = createPublicClient({ transport: http(rpcUrl) });
  const out: string[] = [];
  for (const [name, role] of [
    [
      "admin",
      await c.readContract({
        address: paymaster,
        abi: diginoorPaymasterAbi,
        functionName: "DEFAULT_ADMIN_ROLE",
      }),
    ],
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

  const opts = () => ({ rpcUrl: anvil.rpcUrl, collectible, marketplace, sponsorSigner: SPONSOR });

  it("refuses the deployer as the paymaster's admin, given or by default, and sends nothing", async () => {
    const before = await nonce();
    await expect(deployWallets(opts())).rejects.toThrow(
      /refusing to deploy the passkey wallet contracts on chain 137: no paymaster admin given.*--admin <multisig address>/,
    );
    await expect(deployWallets({ ...opts(), admin: DEPLOYER })).rejects.toThrow(
      /paymaster admin is the same address as the deployer/,
    );
    await expect(deployWallets({ ...opts(), admin: MULTISIG, sponsorSigner: DEPLOYER })).rejects.toThrow(
      /sponsorship signer is the same address as the deployer.*--sponsor-signer/,
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
    expect(await roles(anvil.rpcUrl, w.paymaster, MULTISIG)).toEqual(["admin"]);
    expect(await roles(anvil.rpcUrl, w.paymaster, DEPLOYER)).toEqual([]);
    expect(await sponsorSignerOf(anvil.rpcUrl, w.paymaster)).toBe(SPONSOR);
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
        // On a development chain the deployer may sign sponsorships too.
        sponsorSigner: DEPLOYER,
      });
      const c = createPublicClient({ transport: http(anvil.rpcUrl) });
      expect(stakeProblem(await stakeInfo(c, w.paymaster))).toBeUndefined();
      expect((await stakeInfo(c, w.paymaster)).deposit).toBe(parseEther("10"));
      expect(await roles(anvil.rpcUrl, w.paymaster, DEPLOYER)).toEqual(["admin"]);
      expect(await sponsorSignerOf(anvil.rpcUrl, w.paymaster)).toBe(DEPLOYER);
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
      const refused = async (args: string[]) =>
        (await cli(a.rpcUrl, [...roleFlags, "--admin", MULTISIG, "--wallets", ...args]).catch(
          (e: { code: number; stderr: string; stdout: string }) => e,
        )) as { code: number; stderr: string; stdout: string };
      const c = createPublicClient({ transport: http(a.rpcUrl) });
      for (const [args, why] of [
        [
          ["--sponsor-signer", SPONSOR, "--paymaster-stake", "0"],
          /paymaster's stake is 0 wei, under the minimum/,
        ],
        [[], /--wallets needs --sponsor-signer <address>/],
        [["--sponsor-signer", DEPLOYER], /sponsorship signer is the same address as the deployer/],
        // The factory names no guardian (decision 185): the old flag is refused, not ignored.
        [["--guardian", MULTISIG, "--sponsor-signer", SPONSOR], /Unknown option '--guardian'/],
      ] as const) {
        const err = await refused([...args]);
        expect(err.code, args.join(" ")).toBe(1);
        expect(err.stdout).toBe("");
        expect(err.stderr).toMatch(why);
        expect(await c.getTransactionCount({ address: DEPLOYER })).toBe(0);
      }

      const { stdout } = await cli(a.rpcUrl, [
        ...roleFlags,
        "--admin",
        MULTISIG,
        "--wallets",
        "--sponsor-signer",
        SPONSOR,
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
      expect(await roles(a.rpcUrl, out.paymaster, MULTISIG)).toEqual(["admin"]);
      expect(await roles(a.rpcUrl, out.paymaster, DEPLOYER)).toEqual([]);
      expect(out.sponsorSigner).toBe(SPONSOR);
      expect(await sponsorSignerOf(a.rpcUrl, out.paymaster)).toBe(SPONSOR);
    } finally {
      await a.stop();
    }
  }, 120_000);
});
