import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { createPublicClient, http, isAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi, diginoorMarketplaceBytecode } from "../generated/diginoorMarketplace.js";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import { anvilPortClaimFile, startAnvil } from "../src/anvil.js";
import { MINTER_ROLE, SIGNER_ROLE } from "../src/deploy.js";
import {
  orderIdToTokenId,
  purchaseVoucherTypes,
  tokenIdToOrderId,
  toOrderId,
  voucherOrderId,
} from "../src/voucher.js";

const run = promisify(execFile);
const pkgDir = new URL("..", import.meta.url).pathname;

describe("anvil dev accounts", () => {
  it("addresses match the private keys", () => {
    for (const [i, pk] of ANVIL_PRIVATE_KEYS.entries())
      expect(privateKeyToAccount(pk).address).toBe(ANVIL_ADDRESSES[i]);
  });
});

describe("startAnvil", () => {
  it("starts on a free port with a chain id and block time, answers JSON-RPC, and stops", async () => {
    const a = await startAnvil({ chainId: 777, blockTime: 1 });
    expect(a.chainId).toBe(777);
    expect(a.rpcUrl).toBe(`http://127.0.0.1:${a.port}`);
    const client = createPublicClient({ transport: http(a.rpcUrl) });
    expect(await client.getChainId()).toBe(777);
    await a.stop();
    await a.stop(); // idempotent
    await expect(client.getChainId()).rejects.toThrow();
  });

  it("uses the given port and fails clearly when it is taken", async () => {
    const a = await startAnvil();
    await expect(startAnvil({ port: a.port })).rejects.toThrow(/not available/);
    await a.stop();
    const b = await startAnvil({ port: a.port });
    expect(b.port).toBe(a.port);
    await b.stop();
  });
});

describe("startAnvil's claim on a port, across processes", () => {
  it("refuses a free port another live process is starting anvil on, and takes over a dead one's claim", async () => {
    const probe = await startAnvil();
    const port = probe.port;
    await probe.stop();
    expect(existsSync(anvilPortClaimFile(port)), "released when its anvil stopped").toBe(false);
    // Another process (pid 1 is always alive) has claimed the port and not yet bound it.
    writeFileSync(anvilPortClaimFile(port), "1");
    try {
      await expect(startAnvil({ port })).rejects.toThrow(/not available: an anvil of ours/);
    } finally {
      rmSync(anvilPortClaimFile(port), { force: true });
    }
    // A claim left by a process that died (no such pid) is taken over.
    const dead = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid;
    writeFileSync(anvilPortClaimFile(port), String(dead));
    const a = await startAnvil({ port });
    expect(readFileSync(anvilPortClaimFile(port), "utf8")).toBe(String(process.pid));
    await a.stop();
    expect(existsSync(anvilPortClaimFile(port))).toBe(false);
  });
});

describe("deploy CLI", () => {
  it("refuses one key on a chain that is not a development chain, saying what to pass", async () => {
    const a = await startAnvil({ chainId: 137 });
    try {
      const err = (await run(
        "npx",
        ["tsx", "scripts/deploy-cli.ts", "--rpc", a.rpcUrl, "--base-uri", "https://x.test/api/v1/metadata"],
        {
          cwd: pkgDir,
          env: {
            ...process.env,
            DEPLOYER_PRIVATE_KEY: "",
            MINTER_PRIVATE_KEY: "",
            VOUCHER_SIGNER_PRIVATE_KEY: "",
          },
        },
      ).catch((e: { code: number; stderr: string; stdout: string }) => e)) as {
        code: number;
        stderr: string;
        stdout: string;
      };
      expect(err.code).toBe(1);
      expect(err.stdout).toBe("");
      expect(err.stderr).toMatch(/refusing to deploy on chain 137 \(not a development chain\)/);
      expect(err.stderr).toMatch(/pass --admin <multisig address> \(ADMIN_ADDRESS\), --minter <address>/);
      const c = createPublicClient({ transport: http(a.rpcUrl) });
      expect(await c.getTransactionCount({ address: ANVIL_ADDRESSES[0] })).toBe(0);
    } finally {
      await a.stop();
    }
  });

  it("prints one JSON line with every address and grants the roles", async () => {
    const a = await startAnvil();
    try {
      const minterKey = ANVIL_PRIVATE_KEYS[2];
      const { stdout } = await run(
        "npx",
        ["tsx", "scripts/deploy-cli.ts", "--rpc", a.rpcUrl, "--base-uri", "https://x.test/api/v1/metadata"],
        {
          cwd: pkgDir,
          env: {
            ...process.env,
            MINTER_PRIVATE_KEY: minterKey,
            VOUCHER_SIGNER_PRIVATE_KEY: ANVIL_PRIVATE_KEYS[3],
            DEPLOYER_PRIVATE_KEY: "",
          },
        },
      );
      const lines = stdout.trim().split("\n");
      expect(lines).toHaveLength(1);
      const out = JSON.parse(lines[0] as string);
      expect(out.chainId).toBe(31337);
      for (const k of ["collectible", "marketplace", "deployer", "admin", "minter", "signer", "treasury"])
        expect(isAddress(out[k]), k).toBe(true);
      expect(out.deployer).toBe(ANVIL_ADDRESSES[0]);
      expect(out.minter).toBe(ANVIL_ADDRESSES[2]);
      expect(out.signer).toBe(ANVIL_ADDRESSES[3]);
      expect(out.admin).toBe(ANVIL_ADDRESSES[0]);
      expect(out.treasury).toBe(ANVIL_ADDRESSES[0]);
      const c = createPublicClient({ transport: http(a.rpcUrl) });
      const read = (
        address: `0x${string}`,
        abi: typeof diginoorCollectibleAbi | typeof diginoorMarketplaceAbi,
        args: readonly [`0x${string}`, `0x${string}`],
      ) => c.readContract({ address, abi, functionName: "hasRole", args });
      expect(await read(out.collectible, diginoorCollectibleAbi, [MINTER_ROLE, out.marketplace])).toBe(true);
      expect(await read(out.collectible, diginoorCollectibleAbi, [MINTER_ROLE, out.minter])).toBe(true);
      // Separate keys: the signer signs vouchers only, the minter mints only.
      expect(await read(out.marketplace, diginoorMarketplaceAbi, [SIGNER_ROLE, out.signer])).toBe(true);
      expect(await read(out.marketplace, diginoorMarketplaceAbi, [SIGNER_ROLE, out.minter])).toBe(false);
      expect(await read(out.collectible, diginoorCollectibleAbi, [MINTER_ROLE, out.signer])).toBe(false);
      expect(
        await c
          .readContract({
            address: out.collectible,
            abi: diginoorCollectibleAbi,
            functionName: "tokenURI",
            args: [1n],
          })
          .catch(() => "nonexistent"),
      ).toBe("nonexistent");
      expect(out.metadataBaseUri).toBe("https://x.test/api/v1/metadata");
    } finally {
      await a.stop();
    }
  });
});

describe("voucher helpers", () => {
  it("order ids and token ids convert both ways", () => {
    expect(toOrderId(5n)).toBe(`0x${"0".repeat(63)}5`);
    expect(orderIdToTokenId(toOrderId(123n))).toBe(123n);
    expect(tokenIdToOrderId(255n)).toBe(`0x${"0".repeat(62)}ff`);
    expect(tokenIdToOrderId(orderIdToTokenId(toOrderId(2n ** 255n)))).toBe(toOrderId(2n ** 255n));
    // Wallet (voucher) orders use 2^64 + their number, apart from card orders' ids.
    expect(orderIdToTokenId(voucherOrderId(5n))).toBe(2n ** 64n + 5n);
    expect(() => voucherOrderId(0n)).toThrow(RangeError);
    expect(() => voucherOrderId(2n ** 64n)).toThrow(RangeError);
  });

  it("the EIP-712 type string matches the contract typehash", async () => {
    const { keccak256, toHex } = await import("viem");
    const typeString = `PurchaseVoucher(${purchaseVoucherTypes.PurchaseVoucher.map((f) => `${f.type} ${f.name}`).join(",")})`;
    const sol = readFileSync(new URL("../contracts/DiginoorMarketplace.sol", import.meta.url), "utf8");
    expect(sol).toContain(typeString);
    expect(keccak256(toHex(typeString))).toMatch(/^0x/);
  });
});

describe("artifacts", () => {
  it("JSON artifacts match the generated TypeScript modules", () => {
    const art = JSON.parse(
      readFileSync(new URL("../artifacts/DiginoorMarketplace.json", import.meta.url), "utf8"),
    );
    expect(art.bytecode).toBe(diginoorMarketplaceBytecode);
    expect(art.abi).toEqual(JSON.parse(JSON.stringify(diginoorMarketplaceAbi)));
    expect(art.compiler.settings.optimizer.enabled).toBe(true);
  });
});
