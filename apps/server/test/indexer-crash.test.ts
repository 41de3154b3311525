import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainFixture, snapshot, startChainFixture } from "./chain-fixture.ts";
import { postgresPass } from "./passes.ts";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";
import { killAllServers, startServerProcess } from "./server-process.ts";

/**
 * The indexer's must-show restart test: a real server process (src/main.ts, worker role) indexing
 * a run of events is killed with SIGKILL part-way; a new process resumes from the committed
 * checkpoint. Afterwards the database is exactly what indexing the chain from scratch gives:
 * nothing lost, nothing applied twice.
 */
let chain: ChainFixture;
let server: ServerDatabase;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-indexer-crash-"));

beforeAll(async () => {
  [chain, server] = await Promise.all([startChainFixture(), createServerDatabase()]);
}, 60_000);
afterAll(async () => {
  killAllServers();
  await chain?.stop();
  await server?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const startServer = () =>
  startServerProcess({
    DATABASE_URL: server.url,
    DATA_DIR: dataDir,
    CHAIN_RPC_URL: chain.rpcUrl,
    CHAIN_DEPLOYMENT: JSON.stringify({
      ...chain.deployment,
      blockNumber: String(chain.deployment.blockNumber),
    }),
    SEED_ON_START: "0",
    LOG_LEVEL: "warn",
    WORKERS: "on",
    INDEXER_BATCH_BLOCKS: "1",
    INDEXER_POLL_MS: "50",
  });

const checkpoint = async () =>
  BigInt(
    (await server.database.query<{ b: string }>("SELECT block_number::text AS b FROM indexer_checkpoints"))[0]
      ?.b ?? "-1",
  );

async function waitFor(cond: () => Promise<boolean>, ms: number, what: string, stderr: () => string) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} (server stderr: ${stderr()})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// A server process and the test share the database only on a PostgreSQL server (passes.ts).
describe.runIf(postgresPass)("indexer restart", () => {
  it("a server killed part-way through a run of events resumes: nothing lost, nothing applied twice", async () => {
    const tokens: bigint[] = [];
    // A run of 60 blocks with events (a mint, then a transfer of it), indexed one block per batch.
    for (let i = 0; i < 30; i++) {
      const t = await chain.mint(1, 1n, i + 1);
      await chain.send(1, "collectible", "transferFrom", [chain.address(1), chain.address(2 + (i % 5)), t]);
      tokens.push(t);
    }
    const head = await chain.client.getBlockNumber();
    const first = await startServer();
    const start = chain.deployment.blockNumber;
    await waitFor(async () => (await checkpoint()) >= start + 10n, 90_000, "no progress", first.stderr);
    await first.kill();
    const stoppedAt = await checkpoint();
    expect(stoppedAt).toBeLessThan(head);

    // More events while no indexer runs.
    for (let i = 0; i < 5; i++) tokens.push(await chain.mint(3, 2n, i + 1));
    const finalHead = await chain.client.getBlockNumber();

    const second = await startServer();
    await waitFor(async () => (await checkpoint()) === finalHead, 90_000, "did not catch up", second.stderr);
    await second.kill();

    await chain.assertAgrees(server.database, tokens);
    const fresh = await createServerDatabase();
    try {
      await chain.indexer(fresh.database).catchUp();
      expect(await snapshot(server.database)).toEqual(await snapshot(fresh.database));
    } finally {
      await fresh.dispose();
    }
  }, 240_000);
});
