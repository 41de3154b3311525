import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { type ChainFixture, snapshot, startChainFixture } from "./chain-fixture.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

/**
 * The indexer against a real anvil, our real contracts and a real database (PGlite, or the
 * PostgreSQL server with DATABASE_URL): order, idempotence, reorganisations, restarts, one
 * active indexer per chain.
 */
const CHAIN = 31337;
let chain: ChainFixture;
let tdb: TestDatabase;
let db: Database;
const tokens: bigint[] = [];

const count = async (sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: number }>(sql, params))[0]?.n);

beforeAll(async () => {
  [chain, tdb] = await Promise.all([startChainFixture(), createTestDatabase()]);
  db = tdb.database;
}, 60_000);

afterAll(async () => {
  await chain?.stop();
  await tdb?.dispose();
});

describe("indexer", () => {
  it("applies listings, sales, auctions and approvals in block, transaction and log order", async () => {
    const [a1, a2, a3, a4] = [1, 2, 3, 4].map((i) => chain.address(i));
    const t1 = await chain.mint(1, 1n, 1);
    const t2 = await chain.mint(1, 1n, 2);
    const t3 = await chain.mint(2, 2n, 1);
    tokens.push(t1, t2, t3);
    const market = chain.deployment.marketplace;
    await chain.send(1, "collectible", "setApprovalForAll", [market, true]);
    await chain.send(2, "collectible", "setApprovalForAll", [market, true]);
    await chain.send(1, "marketplace", "list", [t1, 1000n]);
    await chain.send(1, "marketplace", "updatePrice", [t1, 2000n]);
    // Listed then bought in the same block: applied the other way round, the listing would survive.
    await chain.oneBlock(async () => {
      await chain.submit(1, "marketplace", "list", [t2, 500n]);
      await chain.submit(3, "marketplace", "buy", [t2, 500n], 500n);
    });
    await chain.send(2, "marketplace", "createAuction", [t3, 100n, 1]);
    // Two bids in one block: the later one is the highest.
    await chain.oneBlock(async () => {
      await chain.submit(1, "marketplace", "bid", [t3], 100n);
      await chain.submit(3, "marketplace", "bid", [t3], 200n);
    });
    // Revoking the operator kills a1's listing of t1 for good (the seller's approval epoch moves).
    await chain.send(1, "collectible", "setApprovalForAll", [market, false]);
    await chain.send(3, "collectible", "transferFrom", [a3, a4, t2]);

    const indexer = chain.indexer(db);
    const r = await indexer.catchUp();
    expect(r.applied).toBeGreaterThan(15);
    await chain.assertAgrees(db, tokens);

    const sales = await db.query<{ seller: string; buyer: string; price_wei: string; kind: string }>(
      "SELECT seller, buyer, price_wei::text AS price_wei, kind FROM indexer_sales WHERE token_id = $1",
      [t2.toString()],
    );
    expect(sales).toEqual([{ seller: a1, buyer: a3, price_wei: "500", kind: "listing" }]);
    expect(
      await count("SELECT count(*)::int AS n FROM indexer_bids WHERE token_id = $1", [t3.toString()]),
    ).toBe(2);
    const notes = await db.query<{ kind: string; recipient: string }>(
      "SELECT kind, recipient FROM indexer_notifications ORDER BY block_number, log_index, kind",
    );
    expect(notes).toEqual([
      { kind: "nft_sold", recipient: a1 },
      { kind: "purchase_confirmed", recipient: a3 },
      { kind: "outbid", recipient: a1 },
    ]);

    // The auction ends; anyone settles; the winner owns the token.
    await chain.rpc("evm_increaseTime", [2 * 86_400]);
    await chain.rpc("evm_mine");
    await chain.send(5, "marketplace", "settle", [t3]);
    await indexer.catchUp();
    await chain.assertAgrees(db, tokens);
    const [t3row] = await db.query<{ owner: string; status: string }>(
      `SELECT t.owner, a.status FROM indexer_tokens t JOIN indexer_auctions a USING (chain_id, token_id)
        WHERE t.token_id = $1`,
      [t3.toString()],
    );
    expect(t3row).toEqual({ owner: a3, status: "settled" });
    const ended = await db.query<{ kind: string; recipient: string }>(
      "SELECT kind, recipient FROM indexer_notifications WHERE kind IN ('auction_won', 'auction_ended') ORDER BY kind",
    );
    expect(ended).toEqual([
      { kind: "auction_ended", recipient: a2 },
      { kind: "auction_won", recipient: a3 },
    ]);
    // Every log of our contracts was stored once.
    const logs = await chain.client.getLogs({
      address: [chain.deployment.collectible, chain.deployment.marketplace],
      fromBlock: chain.deployment.blockNumber,
    });
    expect(await count("SELECT count(*)::int AS n FROM indexer_events")).toBe(logs.length);
  });

  it("keeps each auction's own minimum increment from AuctionCreated; migration 0140 fills it for rows indexed before", async () => {
    const t3 = tokens[2] as bigint;
    const increment = async () =>
      (
        await db.query<{ bps: number | null }>(
          "SELECT min_increment_bps AS bps FROM indexer_auctions WHERE token_id = $1",
          [t3.toString()],
        )
      )[0]?.bps;
    expect(await increment()).toBe(500);
    // A database indexed before the column existed: the migration takes the value from the recorded event.
    await db.query("ALTER TABLE indexer_auctions DROP COLUMN min_increment_bps");
    await db.query("DELETE FROM schema_migrations WHERE name = '0140_indexer_auction_increment.sql'");
    expect(await migrate(db)).toEqual(["0140_indexer_auction_increment.sql"]);
    expect(await increment()).toBe(500);
  });

  it("re-running blocks already applied changes nothing (idempotent per chain, tx hash and log index)", async () => {
    const before = await snapshot(db);
    const start = chain.deployment.blockNumber - 1n;
    const block = await chain.client.getBlock({ blockNumber: start });
    // As if the checkpoint had been lost: every block is read and applied again.
    await db.query("UPDATE indexer_checkpoints SET block_number = $2, block_hash = $3 WHERE chain_id = $1", [
      CHAIN,
      start.toString(),
      block.hash,
    ]);
    const r = await chain.indexer(db, { batchBlocks: 3 }).catchUp();
    expect(r.applied).toBe(0);
    expect(await snapshot(db)).toEqual(before);
    await chain.assertAgrees(db, tokens);
  });

  it("rolls back a reorganisation to the common ancestor and applies the new history", async () => {
    const indexer = chain.indexer(db);
    // Not indexed before the fork: the batch that reads it also reads the lost blocks, so the rollback
    // must undo that batch whole and apply this block again.
    await chain.send(1, "collectible", "approve", [chain.address(8), tokens[0]]);
    const snap = await chain.rpc<string>("evm_snapshot");
    const lost = await chain.mint(1, 3n, 1);
    await chain.send(1, "collectible", "setApprovalForAll", [chain.deployment.marketplace, true]);
    await chain.send(1, "marketplace", "list", [tokens[0], 3000n]);
    await chain.send(4, "collectible", "transferFrom", [chain.address(4), chain.address(6), tokens[1]]);
    await indexer.catchUp();
    await chain.assertAgrees(db, [...tokens, lost]);
    expect(
      await count("SELECT count(*)::int AS n FROM indexer_tokens WHERE token_id = $1", [lost.toString()]),
    ).toBe(1);

    // The chain forgets those blocks and mines a different (longer) history.
    await chain.rpc("evm_revert", [snap]);
    const other = await chain.mint(2, 4n, 1);
    await chain.send(4, "collectible", "transferFrom", [chain.address(4), chain.address(7), tokens[1]]);
    await chain.send(2, "collectible", "setApprovalForAll", [chain.deployment.marketplace, false]);
    await chain.rpc("anvil_mine", ["0x3"]);
    const r = await indexer.catchUp();
    expect(r.checkpoint).toBe(await chain.client.getBlockNumber());
    await chain.assertAgrees(db, [...tokens, other]);
    for (const t of ["indexer_tokens", "indexer_transfers"]) {
      expect(await count(`SELECT count(*)::int AS n FROM ${t} WHERE token_id = $1`, [lost.toString()])).toBe(
        0,
      );
    }
    // The rolled-back database is exactly what indexing the new chain from scratch gives.
    const fresh = await createTestDatabase();
    try {
      await chain.indexer(fresh.database).catchUp();
      expect(await snapshot(db)).toEqual(await snapshot(fresh.database));
    } finally {
      await fresh.dispose();
    }
    tokens.push(other);
  });

  it("resumes after a stop in the middle of a run of events: nothing lost, nothing applied twice", async () => {
    const first = chain.indexer(db, { batchBlocks: 1, pollMs: 20 });
    first.start();
    const head0 = await chain.client.getBlockNumber();
    // 24 blocks of events while the indexer runs a block per batch.
    for (let i = 0; i < 12; i++) {
      const t = await chain.mint(5, 5n, i + 1);
      await chain.send(5, "collectible", "transferFrom", [chain.address(5), chain.address(6), t]);
      tokens.push(t);
    }
    await first.stop();
    const cp = BigInt(
      (await db.query<{ b: string }>("SELECT block_number::text AS b FROM indexer_checkpoints"))[0]?.b ?? "0",
    );
    const head = await chain.client.getBlockNumber();
    expect(cp).toBeGreaterThan(head0);
    expect(cp).toBeLessThan(head);

    const second = chain.indexer(db, { batchBlocks: 5 });
    await second.catchUp();
    await chain.assertAgrees(db, tokens);
    const logs = await chain.client.getLogs({
      address: [chain.deployment.collectible],
      event: {
        type: "event",
        name: "Transfer",
        inputs: [
          { type: "address", name: "from", indexed: true },
          { type: "address", name: "to", indexed: true },
          { type: "uint256", name: "tokenId", indexed: true },
        ],
      },
      fromBlock: chain.deployment.blockNumber,
    });
    expect(await count("SELECT count(*)::int AS n FROM indexer_transfers")).toBe(logs.length);
  });

  it("lets one indexer per chain be active at a time", async () => {
    const a = chain.indexer(db, { pollMs: 50 });
    const b = chain.indexer(db, { pollMs: 50 });
    a.start();
    await until(() => a.active);
    b.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(b.active).toBe(false);
    await a.stop();
    await until(() => b.active, 10_000);
    await b.stop();
  });
});

async function until(cond: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
