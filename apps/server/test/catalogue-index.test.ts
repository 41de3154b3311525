// The in-memory search index (docs/decisions/023-catalogue-search-index.md) must return exactly the
// rows of the SQL list, page after page by cursor, for any combination of filters, price bounds,
// search words and sort orders, while NFTs are inserted, repriced, renamed, sold and deleted and
// films renamed, the changes reaching it through the change log.
import { listNftsQuerySchema, type NftSort } from "@diginoor/api/catalogue";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { seedCatalogue } from "../seed/seed.ts";
import type { NftCursor } from "../src/modules/catalogue/cursor.ts";
import { createSearchIndexSync, type SearchIndexSync } from "../src/modules/catalogue/index-sync.ts";
import { listNfts, type NftFilter, type NftSummaryRow } from "../src/modules/catalogue/repo.ts";
import { cardJson } from "../src/modules/catalogue/card.ts";
import { createCatalogueService } from "../src/modules/catalogue/service.ts";
import {
  CatalogueSearchIndex,
  compareCodePoints,
  type IndexHit,
  type IndexRow,
} from "../src/modules/catalogue/search-index.ts";
import { createPubSub, type PubSub } from "../src/platform/pubsub/pubsub.ts";
import { cursorOf, filterArb, seedCatalogueCopies, sorts, type Vocabulary } from "./catalogue-copies.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";
import { postgresPass } from "./passes.ts";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";

let t: TestDatabase;
let database: Database;
let v: Vocabulary;
let pubsub: PubSub;
let sync: SearchIndexSync;
/** The same, walking the order before testing any candidate set (the path of large sets). */
let walking: SearchIndexSync;

beforeAll(async () => {
  t = await createTestDatabase();
  database = t.database;
  v = await seedCatalogueCopies(database, 8);
  pubsub = createPubSub(database);
  sync = createSearchIndexSync({ database, pubsub, catchUpOnRead: true, pollMs: 60_000 });
  await sync.start();
  walking = createSearchIndexSync({
    database,
    pubsub,
    catchUpOnRead: true,
    pollMs: 60_000,
    directCandidates: 0,
  });
  await walking.start();
}, 180_000);
afterAll(async () => {
  await sync?.stop();
  await walking?.stop();
  await pubsub?.close();
  await t?.dispose();
});

/** A row listed: its card's JSON text and its cursor keys (what the index returns of a row). */
type Listed = IndexHit;
type Lister = (filter: NftFilter, sort: NftSort, limit: number, after?: NftCursor) => Promise<Listed[]>;
/** A SQL list row as the index lists it: its card (as the service builds it) and cursor keys. */
const listed = (r: NftSummaryRow): Listed => ({
  id: r.id,
  card: Buffer.from(cardJson(r)),
  priceUsdCents: Number(r.priceUsdCents),
  createdAtMicros: r.createdAtMicros,
  sortTitle: r.sortTitle,
});
const fromSql: Lister = async (filter, sort, limit, after) =>
  (await listNfts(database, { filter, sort, limit, after, plan: "index" })).map(listed);
const listerOf =
  (s: () => SearchIndexSync): Lister =>
  async (filter, sort, limit, after) =>
    s().list(filter, sort, limit, after);
const fromIndex = listerOf(() => sync);
const fromWalkingIndex = listerOf(() => walking);

/**
 * Every page of a walk: the rows in order, each card as its text (vitest's toEqual compares a Buffer
 * byte by byte through its generic iterable equality: comparing walks of Buffers took 25 of the 30 s).
 */
async function walk(list: Lister, filter: NftFilter, sort: NftSort, limit: number) {
  return (await walkRows(list, filter, sort, limit)).map((r) => ({ ...r, card: r.card.toString("utf8") }));
}

async function walkRows(list: Lister, filter: NftFilter, sort: NftSort, limit: number) {
  const rows: Listed[] = [];
  let after: NftCursor | undefined;
  for (let page = 0; page < 10_000; page++) {
    const got = await list(filter, sort, limit, after);
    const items = got.slice(0, limit);
    rows.push(...items);
    const last = items[items.length - 1];
    if (got.length <= limit || !last) return rows;
    after = cursorOf(last, sort);
  }
  throw new Error("pagination did not end");
}

/** A random change to the catalogue, of every kind that moves a row in or out of a list. */
const changeArb = () =>
  fc.oneof(
    fc.record({
      kind: fc.constant("insert" as const),
      n: fc.nat(),
      price: fc.nat({ max: 500_000 }),
      title: fc.constantFrom("Kabali rain", "Ünïcode drop", "zzz new", "a", "𝒳 mark", "\uffff end"),
    }),
    fc.record({ kind: fc.constant("price" as const), n: fc.nat(), price: fc.nat({ max: 500_000 }) }),
    fc.record({
      kind: fc.constant("title" as const),
      n: fc.nat(),
      title: fc.constantFrom("Renamed rain", "Kabali Da", "ÄÖ first", "#12 lucky"),
    }),
    fc.record({ kind: fc.constant("sell" as const), n: fc.nat() }),
    fc.record({ kind: fc.constant("delete" as const), n: fc.nat() }),
    fc.record({
      kind: fc.constant("film" as const),
      n: fc.nat(),
      name: fc.constantFrom("Kabali Returns", "Sivaji", "Rainfall"),
    }),
  );
type Change = ReturnType<typeof changeArb> extends fc.Arbitrary<infer C> ? C : never;

let inserted = 0;
let compared = 0;
async function applyChange(c: Change): Promise<void> {
  const ids = (await database.query<{ id: string }>("SELECT id FROM nfts ORDER BY id", [])).map((r) => r.id);
  const id = ids[c.n % ids.length] as string;
  switch (c.kind) {
    case "insert":
      await database.query(
        `INSERT INTO nfts (id, title, description, about, tier, category, film_id, celebrity_id, production_house_id,
                           image_url, thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents,
                           auction_duration_days, created_at)
         SELECT $2, $3, description, about, tier, category, film_id, celebrity_id, production_house_id, image_url,
                thumbnail_url, edition_size, editions_available, sale_type, $4, auction_duration_days, created_at
         FROM nfts WHERE id = $1`,
        [id, `ins${(inserted++).toString(36).padStart(6, "0")}`, c.title, c.price],
      );
      break;
    case "price":
      await database.query("UPDATE nfts SET price_usd_cents = $2 WHERE id = $1", [id, c.price]);
      break;
    case "title":
      await database.query("UPDATE nfts SET title = $2 WHERE id = $1", [id, c.title]);
      break;
    case "sell":
      await database.query(
        "UPDATE nfts SET editions_available = greatest(0, editions_available - 1) WHERE id = $1",
        [id],
      );
      break;
    case "delete":
      await database.query("DELETE FROM nfts WHERE id = $1", [id]);
      break;
    case "film":
      await database.query(
        "UPDATE films SET name = $2, slug = 'f' || id || '-' || $3 WHERE id = (SELECT film_id FROM nfts WHERE id = $1)",
        [id, c.name, String(c.n % 100)],
      );
      break;
  }
}

/** A card row for the index alone (no database). */
function row(id: string, price: number, title = id): IndexRow {
  return {
    id,
    title,
    tier: "common",
    filmSlug: "f",
    filmName: "F",
    celebritySlug: "c",
    celebrityName: "C",
    priceUsdCents: price,
    saleType: "fixed",
    auctionEndsAt: null,
    thumbnailUrl: "/t.png",
    editionsAvailable: 1,
    editionSize: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    sortTitle: title.toLowerCase(),
    createdAtMicros: "1767225600000000",
    searchText: title.toLowerCase(),
  };
}

describe("catalogue search index", () => {
  it("keeps its orders right when one catch-up inserts rows and moves others", () => {
    const index = new CatalogueSearchIndex();
    const rows = Array.from({ length: 40 }, (_, i) => row(`nft${String(i).padStart(3, "0")}`, (i * 37) % 11));
    index.replaceAll(rows);
    expect(index.list({}, "price_asc", 100).length).toBe(40);
    // An insert first (it shifts positions), then price changes, in one batch; then a delete.
    const changed = [row("new001", 5), row("nft007", 99), row("new002", 0), row("nft020", 3)];
    index.apply(changed, []);
    index.apply([], ["nft011"]);
    const expected = [...rows.filter((r) => !["nft007", "nft020", "nft011"].includes(r.id)), ...changed]
      .sort((a, b) => Number(a.priceUsdCents) - Number(b.priceUsdCents) || (a.id < b.id ? -1 : 1))
      .map((r) => r.id);
    expect(index.list({}, "price_asc", 100).map((r) => r.id)).toEqual(expected);
    expect(index.list({}, "price_desc", 100).map((r) => r.id)).toEqual([...expected].reverse());
  });

  it("sends a page's JSON built from each row's card text, equal to the SQL list's, and new after a change", async () => {
    const fromIndexService = createCatalogueService(database, { listCacheTtlMs: 0, searchIndex: sync });
    const fromSqlService = createCatalogueService(database, { listCacheTtlMs: 0 });
    const query = listNftsQuerySchema.parse({ sort: "price_desc", limit: "7" });
    const page = await fromIndexService.listNftsPage(query);
    const reference = await fromSqlService.listNfts(query);
    expect(JSON.parse(page.json.toString())).toEqual(reference);
    expect(page.json.toString()).toBe(JSON.stringify(reference));
    expect(page.body).toEqual(reference);
    // The next page by cursor, from the same rows' cached card texts.
    const next = listNftsQuerySchema.parse({ sort: "price_desc", limit: "7", cursor: reference.nextCursor });
    expect((await fromIndexService.listNftsPage(next)).json.toString()).toBe(
      JSON.stringify(await fromSqlService.listNfts(next)),
    );
    // A change to what a card shows (editions left, title) reaches the text of the next page sent.
    const first = reference.items[0];
    if (!first) throw new Error("no NFTs");
    await database.query(
      "UPDATE nfts SET editions_available = editions_available - 1, title = $2 WHERE id = $1",
      [first.id, `${first.title} (renamed)`],
    );
    const after = JSON.parse((await fromIndexService.listNftsPage(query)).json.toString());
    expect(after.items[0]).toMatchObject({
      id: first.id,
      title: `${first.title} (renamed)`,
      editionsAvailable: first.editionsAvailable - 1,
    });
    expect(after).toEqual(await fromSqlService.listNfts(query));
  });

  it('orders titles as COLLATE "C" does: by code point', async () => {
    const samples = ["a", "B", "é", "z", "\uffff", "𝒳", "\ue000", "ab", "a b", ""];
    const rows = await database.query<{ s: string }>(
      `SELECT s FROM unnest($1::text[]) AS s ORDER BY s COLLATE "C"`,
      [samples],
    );
    expect([...samples].sort(compareCodePoints)).toEqual(rows.map((r) => r.s));
  });

  it("walks every page with the rows of the SQL list, in the same order, while the catalogue changes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(changeArb(), { maxLength: 4 }),
        // Every filter, or one or two of them (which match more rows, so walks run longer).
        fc.oneof(
          filterArb(v),
          filterArb(v).chain((f) =>
            fc
              .subarray(Object.entries(f), { maxLength: Math.min(2, Object.keys(f).length) })
              .map(Object.fromEntries),
          ),
        ),
        fc.constantFrom(...sorts),
        fc.integer({ min: 3, max: 60 }),
        async (changes, filter, sort, limit) => {
          for (const c of changes) await applyChange(c);
          const reference = await walk(fromSql, filter, sort, limit);
          const indexed = await walk(fromIndex, filter, sort, limit);
          expect(indexed).toEqual(reference);
          expect(await walk(fromWalkingIndex, filter, sort, limit)).toEqual(reference);
          compared += reference.length;
        },
      ),
      { numRuns: 80 },
    );
    // The runs compared pages, not only empty lists.
    expect(compared).toBeGreaterThan(2000);
  }, 240_000);

  it("finds each page the same way from any cursor", async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArb(v),
        fc.constantFrom(...sorts),
        fc.integer({ min: 1, max: 30 }),
        fc.nat(),
        async (filter, sort, limit, pick) => {
          const all = await fromSql({}, sort, 100_000);
          const after = cursorOf(all[pick % all.length] as Listed, sort);
          expect(await fromIndex(filter, sort, limit, after)).toEqual(
            await fromSql(filter, sort, limit, after),
          );
        },
      ),
      { numRuns: 60 },
    );
  }, 180_000);

  it("accepts cursors no row has: beyond every key, and titles with unpaired surrogates", async () => {
    const cursors: NftCursor[] = [
      { sort: "newest", createdAtMicros: "99999999999999999", id: "zzzzzz" },
      { sort: "newest", createdAtMicros: "-99999999999999999", id: "aaaaaa" },
      { sort: "price_asc", priceUsdCents: 0, id: "-" },
      { sort: "title", sortTitle: "k\ud800x", id: "a" },
      { sort: "title", sortTitle: "kabali", id: "zzzzzzzzz" },
    ];
    for (const after of cursors) {
      for (const filter of [{}, { q: "rain" }, { tier: "rare" as const }]) {
        expect(await fromIndex(filter, after.sort, 10, after)).toEqual(
          await fromSql(filter, after.sort, 10, after),
        );
      }
    }
  });

  it("pages across runs of equal prices by id, in both directions, as the SQL list does", async () => {
    // The most common price of the catalogue: a run of rows that only their ids order.
    const [common] = await database.query<{ p: number; n: number }>(
      "SELECT price_usd_cents::int AS p, count(*)::int AS n FROM nfts GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
      [],
    );
    if (!common || common.n < 3) throw new Error("no price is shared by three NFTs");
    const bounds = { minPriceCents: common.p, maxPriceCents: common.p };
    for (const sort of ["price_asc", "price_desc"] as const) {
      for (const limit of [1, 2]) {
        const reference = await walk(fromSql, bounds, sort, limit);
        expect(reference.length).toBe(common.n);
        expect(await walk(fromIndex, bounds, sort, limit)).toEqual(reference);
        expect(await walk(fromWalkingIndex, bounds, sort, limit)).toEqual(reference);
        // A page that starts inside the run, from a cursor on one of its rows.
        const after = cursorOf(reference[0]!, sort);
        expect(await fromIndex({}, sort, 3, after)).toEqual(await fromSql({}, sort, 3, after));
      }
    }
  });

  it("answers empty lists: values no NFT has, bounds that cross, a word no text holds", async () => {
    const empty: NftFilter[] = [
      { film: "no-such-film" },
      { celebrity: "no-such-star" },
      { minPriceCents: 500, maxPriceCents: 499 },
      { minPriceCents: 2_000_000_000 },
      { q: "zqxjkv" },
      { q: "zq" },
      { q: "rain", maxPriceCents: -1 },
    ];
    for (const filter of empty) {
      for (const sort of sorts) {
        expect(await fromSql(filter, sort, 10)).toEqual([]);
        expect(await fromIndex(filter, sort, 10)).toEqual([]);
        expect(await fromWalkingIndex(filter, sort, 10)).toEqual([]);
      }
    }
  });

  it("finds a word's first letters together with price bounds, walked page by page", async () => {
    const prices = (
      await database.query<{ p: number }>("SELECT price_usd_cents::int AS p FROM nfts ORDER BY 1", [])
    ).map((r) => r.p);
    const lo = prices[Math.floor(prices.length / 4)] as number;
    const hi = prices[Math.floor((prices.length * 3) / 4)] as number;
    let found = 0;
    for (const word of v.words.filter((w) => w.length >= 5).slice(0, 3)) {
      for (const q of [word.slice(0, 2), word.slice(0, 4)]) {
        for (const filter of [
          { q, minPriceCents: lo },
          { q, maxPriceCents: hi },
          { q, minPriceCents: lo, maxPriceCents: hi },
        ]) {
          for (const sort of sorts) {
            const reference = await walk(fromSql, filter, sort, 7);
            expect(await walk(fromIndex, filter, sort, 7)).toEqual(reference);
            expect(await walk(fromWalkingIndex, filter, sort, 7)).toEqual(reference);
            found += reference.length;
          }
        }
      }
    }
    expect(found).toBeGreaterThan(0);
  }, 120_000);
});

describe.runIf(postgresPass)(
  "catalogue search index on a PostgreSQL server shared by several processes",
  () => {
    let server: ServerDatabase;
    let serverPubsub: PubSub;
    let follower: SearchIndexSync;
    const clients: pg.Client[] = [];
    /** Another process's connection: a plain client of its own. */
    const connect = async () => {
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      clients.push(c);
      return c;
    };
    const priceIn = (s: SearchIndexSync, id: string) =>
      s.index.list({}, "newest", 1_000_000).find((r) => r.id === id)?.priceUsdCents;

    beforeAll(async () => {
      server = await createServerDatabase();
      await seedCatalogue(server.database.db);
      serverPubsub = createPubSub(server.database);
      // No poll (an hour): only notifications, or explicit catch-ups, move this index.
      follower = createSearchIndexSync({
        database: server.database,
        pubsub: serverPubsub,
        pollMs: 3_600_000,
      });
      await follower.start();
    }, 60_000);
    afterAll(async () => {
      for (const c of clients) await c.end();
      await follower?.stop();
      await serverPubsub?.close();
      await server?.dispose();
    });

    const ids = async () =>
      (await server.database.query<{ id: string }>("SELECT id FROM nfts ORDER BY id LIMIT 3", [])).map(
        (r) => r.id,
      );

    it("hears a change committed through another connection by NOTIFY, within a second", async () => {
      const [id] = await ids();
      const other = await connect();
      const started = Date.now();
      await other.query("UPDATE nfts SET price_usd_cents = 123457 WHERE id = $1", [id]);
      while (Number(priceIn(follower, id as string)) !== 123457) {
        if (Date.now() - started > 1000) throw new Error("the index did not hear the change within 1 s");
        await new Promise((r) => setTimeout(r, 10));
      }
    });

    it("does not skip a transaction that began earlier and commits after a later one was read", async () => {
      const [early, late] = await ids();
      const a = await connect();
      const b = await connect();
      await a.query("BEGIN");
      // The early transaction takes its id now, with its write...
      await a.query("UPDATE nfts SET price_usd_cents = 222 WHERE id = $1", [early]);
      // ...a later one commits, and the index reads it while the early one still runs.
      await b.query("UPDATE nfts SET price_usd_cents = 333 WHERE id = $1", [late]);
      await follower.catchUp();
      expect(Number(priceIn(follower, late as string))).toBe(333);
      expect(Number(priceIn(follower, early as string))).not.toBe(222);
      await a.query("COMMIT");
      await follower.catchUp();
      expect(Number(priceIn(follower, early as string))).toBe(222);
    });

    it("a second process's index loads the same rows and follows the same changes", async () => {
      const second = await openDatabase({ url: server.url, poolSize: 2 });
      const secondPubsub = createPubSub(second);
      const mirror = createSearchIndexSync({ database: second, pubsub: secondPubsub, catchUpOnRead: true });
      try {
        await mirror.start();
        await server.database.query("DELETE FROM nfts WHERE id = (SELECT min(id) FROM nfts)", []);
        await follower.catchUp();
        for (const sort of sorts) {
          expect(await mirror.list({ q: "a" }, sort, 1000)).toEqual(
            follower.index.list({ q: "a" }, sort, 1000),
          );
        }
      } finally {
        await mirror.stop();
        await secondPubsub.close();
        await second.close();
      }
    });
  },
);
