import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/harness.ts";
import { loadConfig } from "../config.ts";
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
    await first!.stop();

    const logs2: string[] = [];
    const second = await startChain(config, tdb.database.db, (m) => logs2.push(m));
    try {
      expect(second!.deployment.collectible).toBe(d1.collectible);
      expect(await second!.publicClient.getCode({ address: d1.collectible })).not.toBe("0x");
      expect(logs2.some((l) => l.startsWith("Deployed contracts"))).toBe(false);
    } finally {
      await second!.stop();
    }
  }, 60_000);

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
  }, 60_000);

  it("is off when CHAIN_DISABLED=1", async () => {
    const off = loadConfig({ NODE_ENV: "test", CHAIN_DISABLED: "1" });
    expect(await startChain(off, tdb.database.db, () => {})).toBeUndefined();
  });
});
