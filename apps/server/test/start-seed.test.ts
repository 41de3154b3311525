import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { killAllServers, startServerProcess } from "./server-process.ts";
import { postgresPass } from "./passes.ts";

/**
 * `npm start` on a fresh machine: the server seeds the catalogue on its first start, after its list
 * index has loaded (empty). The first visitor must see the seeded NFTs at once, not after the index's
 * next poll (the Lighthouse script found an empty marketplace right after start).
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-start-seed-"));
afterAll(() => {
  killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// A first `npm start` runs on the embedded database: the PGlite pass runs it (passes.ts).
it.skipIf(postgresPass)(
  "lists the seeded catalogue as soon as a freshly seeded server is ready",
  async () => {
    const server = await startServerProcess(
      { DATA_DIR: dataDir, CHAIN_DISABLED: "1", SEED_ON_START: "1", LOG_LEVEL: "warn" },
      { waitReady: true },
    );
    const res = await fetch(`${server.base}/api/v1/nfts?limit=3`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id: string }[] };
    expect(body.items).toHaveLength(3);
    await server.kill();
  },
  120_000,
);
