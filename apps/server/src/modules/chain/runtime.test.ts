import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startAnvil } from "@diginoor/contracts/anvil";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { deployAll } from "@diginoor/contracts/deploy";
import {
  diginoorAccountFactoryAbi,
  diginoorAccountFactoryBytecode,
} from "@diginoor/contracts/generated/diginoorAccountFactory";
import {
  diginoorPaymasterAbi,
  diginoorPaymasterBytecode,
} from "@diginoor/contracts/generated/diginoorPaymaster";
import { deployWallets } from "@diginoor/contracts/wallets";
import {
  type Address,
  defineChain,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEther,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/harness.ts";
import { ConfigError, loadConfig } from "../../config.ts";
import { latestDeployment } from "./deployments.ts";
import { startChain } from "./runtime.ts";

describe("local chain runtime", () => {
  let tdb: TestDatabase;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-chain-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: "http://localhost:3000" });

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await tdb.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts anvil, deploys once, and reuses the deployment on the next start", async () => {
    const logs: string[] = [];
    const first = await startChain(config, tdb.database.db, (m) => logs.push(m));
    expect(first).toBeDefined();
    const d1 = first!.deployment;
    expect(first!.chainId).toBe(31337);
    expect(await first!.publicClient.getCode({ address: d1.collectible })).not.toBe("0x");
    expect(await latestDeployment(tdb.database.db, 31337)).toEqual(d1);
    expect(logs.some((l) => l.startsWith("Deployed contracts"))).toBe(true);
    // Passkey wallets (decision 160): EntryPoint v0.8, factory and paymaster deployed, Alto started beside anvil.
    const w = first!.wallets!;
    expect(await first!.publicClient.getCode({ address: w.entryPoint })).not.toBe("0x");
    expect(await first!.publicClient.getCode({ address: w.accountFactory })).not.toBe("0x");
    const eps = await fetch(w.bundlerUrl!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] }),
    }).then((r) => r.json() as Promise<{ result: string[] }>);
    expect(eps.result.map((a) => a.toLowerCase())).toContain(w.entryPoint.toLowerCase());
    await first!.stop();

    const logs2: string[] = [];
    const second = await startChain(config, tdb.database.db, (m) => logs2.push(m));
    try {
      expect(second!.deployment.collectible).toBe(d1.collectible);
      expect(await second!.publicClient.getCode({ address: d1.collectible })).not.toBe("0x");
      expect(logs2.some((l) => l.startsWith("Deployed contracts"))).toBe(false);
      expect(logs2.some((l) => l.startsWith("Deployed passkey wallet contracts"))).toBe(false);
      expect(second!.wallets?.accountFactory).toBe(w.accountFactory);
    } finally {
      await second!.stop();
    }
  }, 240_000);

  it("gives the local chain a new verifying paymaster when the recorded one trusts another sponsorship key (decision 186)", async () => {
    const otherKey = ANVIL_PRIVATE_KEYS[3] as `0x${string}`;
    const withOther = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PUBLIC_URL: "http://localhost:3000",
      SPONSOR_SIGNER_PRIVATE_KEY: otherKey,
    });
    const before = (await latestDeployment(tdb.database.db, 31337))!;
    const logs: string[] = [];
    const chain = await startChain(withOther, tdb.database.db, (m) => logs.push(m));
    try {
      const w = chain!.wallets!;
      expect(w.paymaster).not.toBe(before.paymaster);
      expect(w.accountFactory).toBe(before.accountFactory); // fans' wallets keep their addresses
      expect(chain!.sponsor!.address).toBe(ANVIL_ADDRESSES[3]);
      expect(
        await chain!.publicClient.readContract({
          address: w.paymaster,
          abi: diginoorPaymasterAbi,
          functionName: "sponsorSigner",
        }),
      ).toBe(ANVIL_ADDRESSES[3]);
      expect(logs.some((l) => l.startsWith("Deployed a verifying paymaster"))).toBe(true);
    } finally {
      await chain!.stop();
    }
    // Back to the development key: its own paymaster again.
    const back = await startChain(config, tdb.database.db, () => {});
    try {
      expect(
        await back!.publicClient.readContract({
          address: back!.wallets!.paymaster,
          abi: diginoorPaymasterAbi,
          functionName: "sponsorSigner",
        }),
      ).toBe(ANVIL_ADDRESSES[9]);
    } finally {
      await back!.stop();
    }
  }, 240_000);

  it("redeploys when the local chain state was lost", async () => {
    fs.rmSync(path.join(dataDir, "anvil-state.json"), { force: true });
    const logs: string[] = [];
    const chain = await startChain(config, tdb.database.db, (m) => logs.push(m));
    try {
      expect(logs.some((l) => l.includes("deploying again"))).toBe(true);
      expect(await chain!.publicClient.getCode({ address: chain!.deployment.collectible })).not.toBe("0x");
    } finally {
      await chain!.stop();
    }
  }, 240_000);

  it("is off when CHAIN_DISABLED=1", async () => {
    const off = loadConfig({ NODE_ENV: "test", CHAIN_DISABLED: "1" });
    expect(await startChain(off, tdb.database.db, () => {})).toBeUndefined();
  });
});

describe("a chain given by CHAIN_RPC_URL", () => {
  let tdb: TestDatabase;
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let deploymentLine: string;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    anvil = await startAnvil({ chainId: 777 });
    // Not a development chain: four distinct role holders (deployAll refuses one key there).
    const d = await deployAll({
      rpcUrl: anvil.rpcUrl,
      metadataBaseUri: "https://diginoor.example/api/v1/metadata/",
      adminAddress: ANVIL_ADDRESSES[5],
      minterAddress: ANVIL_ADDRESSES[6],
      signerAddress: ANVIL_ADDRESSES[7],
      treasury: ANVIL_ADDRESSES[8],
    });
    // Exactly what the deploy CLI prints.
    deploymentLine = JSON.stringify({ ...d, blockNumber: d.blockNumber.toString() });
  }, 60_000);
  afterAll(async () => {
    await anvil?.stop();
    await tdb.dispose();
  });

  const remote = (extra: Record<string, string> = {}) =>
    loadConfig({ NODE_ENV: "test", CHAIN_RPC_URL: anvil.rpcUrl, ...extra });

  it("uses the deployment printed by the deploy script and never starts or deploys anything", async () => {
    const logs: string[] = [];
    const chain = await startChain(remote({ CHAIN_DEPLOYMENT: deploymentLine }), tdb.database.db, (m) =>
      logs.push(m),
    );
    try {
      expect(chain!.local).toBe(false);
      expect(chain!.chainId).toBe(777);
      expect(chain!.deployment.collectible).toBe(JSON.parse(deploymentLine).collectible);
      expect(logs).toEqual([]);
      expect((await latestDeployment(tdb.database.db, 777))?.marketplace).toBe(
        JSON.parse(deploymentLine).marketplace,
      );
    } finally {
      await chain!.stop();
    }
  });

  it("refuses a paymaster that sponsors what another key signs (decision 186)", async () => {
    const w = await deployWallets({
      rpcUrl: anvil.rpcUrl,
      collectible: JSON.parse(deploymentLine).collectible,
      marketplace: JSON.parse(deploymentLine).marketplace,
      sponsorSigner: ANVIL_ADDRESSES[2],
      // Chain 777 is not a development chain: the paymaster's admin is a multisig (decision 181).
      admin: ANVIL_ADDRESSES[5],
    });
    const line = JSON.stringify({
      ...JSON.parse(deploymentLine),
      accountFactory: w.factory,
      paymaster: w.paymaster,
    });
    const fresh = await createTestDatabase();
    try {
      await expect(
        startChain(
          remote({ CHAIN_DEPLOYMENT: line, SPONSOR_SIGNER_PRIVATE_KEY: ANVIL_PRIVATE_KEYS[3] as string }),
          fresh.database.db,
          () => {},
        ),
      ).rejects.toThrow(
        new RegExp(
          `sponsors what ${ANVIL_ADDRESSES[2]} signs, but SPONSOR_SIGNER_PRIVATE_KEY is ${ANVIL_ADDRESSES[3]}`,
        ),
      );
      await expect(
        startChain(remote({ CHAIN_DEPLOYMENT: line }), fresh.database.db, () => {}),
      ).rejects.toThrow(/SPONSOR_SIGNER_PRIVATE_KEY is unset/);
    } finally {
      await fresh.dispose();
    }
  });

  it("refuses a deployment line for another chain", async () => {
    const other = JSON.stringify({ ...JSON.parse(deploymentLine), chainId: 137 });
    await expect(startChain(remote({ CHAIN_DEPLOYMENT: other }), tdb.database.db, () => {})).rejects.toThrow(
      /CHAIN_DEPLOYMENT is for chain 137/,
    );
  });

  it("explains what to do when nothing is deployed and there is no deployer key", async () => {
    const fresh = await createTestDatabase();
    try {
      await expect(startChain(remote(), fresh.database.db, () => {})).rejects.toThrow(/npm run deploy/);
    } finally {
      await fresh.dispose();
    }
  });

  it("never deploys on a chain that is not a development chain, even with a deployer key", async () => {
    const fresh = await createTestDatabase();
    try {
      await expect(
        startChain(remote({ DEPLOYER_PRIVATE_KEY: ANVIL_PRIVATE_KEYS[0] }), fresh.database.db, () => {}),
      ).rejects.toThrow(/chain 777: run `npm run deploy.*--admin <multisig address>/);
    } finally {
      await fresh.dispose();
    }
  });

  it("never deploys the wallet contracts itself there, even with a deployer key", async () => {
    const fresh = await createTestDatabase();
    try {
      const logs: string[] = [];
      const chain = await startChain(
        remote({ CHAIN_DEPLOYMENT: deploymentLine, DEPLOYER_PRIVATE_KEY: ANVIL_PRIVATE_KEYS[0] }),
        fresh.database.db,
        (m) => logs.push(m),
      );
      try {
        // It would have made the deployer key the paymaster's admin, with no stake.
        expect(logs.some((l) => l.startsWith("Deployed passkey wallet contracts"))).toBe(false);
        expect(chain!.wallets).toBeUndefined();
      } finally {
        await chain!.stop();
      }
    } finally {
      await fresh.dispose();
    }
  });

  it("refuses to start with an unstaked paymaster, and starts with a staked one", async () => {
    const base = JSON.parse(deploymentLine);
    const multisig = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]);
    const chain777 = defineChain({
      id: 777,
      name: "chain-777",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    // Both paymasters trust the server's sponsorship key (decision 186): only the stake differs.
    const sponsor = privateKeyToAccount(ANVIL_PRIVATE_KEYS[9] as Hex);
    const staked = await deployWallets({
      rpcUrl: anvil.rpcUrl,
      collectible: base.collectible,
      marketplace: base.marketplace,
      sponsorSigner: sponsor.address,
      admin: multisig.address,
    });
    // A paymaster deployed without the deploy script: no stake at all.
    const deployer = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[0]),
      transport: http(anvil.rpcUrl),
      chain: chain777,
    });
    const c = createPublicClient({ transport: http(anvil.rpcUrl) });
    const deployed = async (abi: never, bytecode: Hex, args: unknown[]) => {
      const hash = await deployer.deployContract({ abi, bytecode, args } as never);
      return getAddress((await c.waitForTransactionReceipt({ hash })).contractAddress as Address);
    };
    const factory = await deployed(diginoorAccountFactoryAbi as never, diginoorAccountFactoryBytecode, []);
    const bare = await deployed(diginoorPaymasterAbi as never, diginoorPaymasterBytecode, [
      base.collectible,
      base.marketplace,
      sponsor.address,
      multisig.address,
      parseEther("0.05"),
    ]);
    const line = (paymaster: Address, accountFactory: Address) =>
      JSON.stringify({ ...base, accountFactory, paymaster });
    const start = async (paymaster: Address, accountFactory: Address, extra: Record<string, string> = {}) => {
      const fresh = await createTestDatabase();
      try {
        const chain = await startChain(
          remote({
            CHAIN_DEPLOYMENT: line(paymaster, accountFactory),
            BUNDLER_URL: "http://127.0.0.1:1/rpc",
            SPONSOR_SIGNER_PRIVATE_KEY: ANVIL_PRIVATE_KEYS[9] as string,
            ...extra,
          }),
          fresh.database.db,
          () => {},
        );
        await chain!.stop();
        return chain!;
      } finally {
        await fresh.dispose();
      }
    };
    await expect(start(bare, factory)).rejects.toThrow(
      new RegExp(`paymaster ${bare} on chain 777 is not staked in the EntryPoint: it has no stake.*ERC-7562`),
    );
    const ok = await start(staked.paymaster, staked.factory);
    expect(ok.wallets?.paymaster).toBe(staked.paymaster);
    // A bundler's minimum above the stake (1 token) refuses it too.
    await expect(
      start(staked.paymaster, staked.factory, { PAYMASTER_MIN_STAKE_WEI: parseEther("2").toString() }),
    ).rejects.toThrow(/under the minimum of 2000000000000000000 wei/);
    // The multisig unlocks the stake (to withdraw it a day later): the paymaster no longer counts as staked.
    const admin = createWalletClient({ account: multisig, transport: http(anvil.rpcUrl), chain: chain777 });
    const hash = await admin.writeContract({
      address: staked.paymaster,
      abi: diginoorPaymasterAbi,
      functionName: "unlockStake",
    });
    await c.waitForTransactionReceipt({ hash });
    await expect(start(staked.paymaster, staked.factory)).rejects.toThrow(/its stake is unlocked/);
  }, 120_000);

  it("validates CHAIN_DEPLOYMENT at start-up", () => {
    expect(() => remote({ CHAIN_DEPLOYMENT: "not json" })).toThrow(ConfigError);
    expect(() => remote({ CHAIN_DEPLOYMENT: JSON.stringify({ chainId: 1, collectible: "0x12" }) })).toThrow(
      /CHAIN_DEPLOYMENT/,
    );
  });
});
