import { listNftsQuerySchema } from "@diginoor/api/catalogue";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { seedCatalogue } from "../seed/seed.ts";
import { createCatalogueService } from "../src/modules/catalogue/service.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

let t: TestDatabase;
let queries = 0;
/** The database, counting the hand-written list queries that reach it. */
let counted: Database;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalogue(t.database.db);
  counted = {
    ...t.database,
    query: (text, params) => {
      queries++;
      return t.database.query(text, params);
    },
  };
});
afterAll(() => t?.dispose());

const parse = (q: Record<string, string>) => listNftsQuerySchema.parse(q);

describe("NFT list micro-cache", () => {
  it("serves identical queries from one database round trip within its lifetime", async () => {
    const service = createCatalogueService(counted, { listCacheTtlMs: 60_000 });
    queries = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => service.listNfts(parse({ tier: "rare" }))),
    );
    expect(queries).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    // "Q" and "q" are the same search; another filter is another entry.
    await service.listNfts(parse({ q: "Kabali" }));
    await service.listNfts(parse({ q: "kabali" }));
    await service.listNfts(parse({ tier: "common" }));
    expect(queries).toBe(3);
  });

  it("expires entries, so changes show after the lifetime", async () => {
    const clock = createTestClock(Date.now());
    const service = createCatalogueService(counted, { listCacheTtlMs: 1000, clock });
    const before = await service.listNfts(parse({ sort: "price_asc", limit: "1" }));
    const cheapest = before.items[0];
    if (!cheapest) throw new Error("no NFTs");
    await t.database.db.execute(
      sql`UPDATE nfts SET editions_available = editions_available - 1 WHERE id = ${cheapest.id}`,
    );
    const cached = await service.listNfts(parse({ sort: "price_asc", limit: "1" }));
    expect(cached.items[0]?.editionsAvailable).toBe(cheapest.editionsAvailable);
    clock.advance(999);
    const stillCached = await service.listNfts(parse({ sort: "price_asc", limit: "1" }));
    expect(stillCached.items[0]?.editionsAvailable).toBe(cheapest.editionsAvailable);
    clock.advance(1);
    const fresh = await service.listNfts(parse({ sort: "price_asc", limit: "1" }));
    expect(fresh.items[0]?.editionsAvailable).toBe(cheapest.editionsAvailable - 1);
  });

  it("still rejects a bad cursor, and does not cache failures", async () => {
    const service = createCatalogueService(counted, { listCacheTtlMs: 60_000 });
    await expect(service.listNfts(parse({ cursor: "garbage" }))).rejects.toMatchObject({ status: 400 });
    let fail = true;
    const flakyDb: Database = {
      ...t.database,
      query: (text, params) => {
        if (fail) return Promise.reject(new Error("connection lost"));
        return t.database.query(text, params);
      },
    };
    const flaky = createCatalogueService(flakyDb, { listCacheTtlMs: 60_000 });
    await expect(flaky.listNfts(parse({ tier: "rare" }))).rejects.toThrow("connection lost");
    fail = false;
    const ok = await flaky.listNfts(parse({ tier: "rare" }));
    expect(ok.items.length).toBeGreaterThan(0);
  });
});
