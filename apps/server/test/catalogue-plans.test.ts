// The list query's three plans (index range scan, bounded walk, candidate set; see
// docs/decisions/022-catalogue-search-plans.md) must return exactly what the simple query returns,
// for any combination of filters, price bounds, search words, sort orders, page sizes and cursors.
import type { NftSort, SaleType, Tier } from "@diginoor/api/catalogue";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { seedCatalogue } from "../seed/seed.ts";
import { rowsOf } from "../src/lib/rate-limit.ts";
import type { NftCursor } from "../src/modules/catalogue/cursor.ts";
import {
  type ListPlan,
  listNfts,
  type NftFilter,
  type NftSummaryRow,
} from "../src/modules/catalogue/repo.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

let t: TestDatabase;
let database: Database;
let films: string[];
let celebs: string[];
let prices: number[];
let words: string[];
let total: number;

/** Copies of the seed catalogue, as the benchmark makes them: editions of one drop sort together by title. */
const COPIES = 12;

beforeAll(async () => {
  t = await createTestDatabase();
  database = t.database;
  await seedCatalogue(database.db, { now: new Date("2026-01-15T12:00:00Z") });
  await database.db.execute(sql`
    INSERT INTO nfts (id, title, description, about, tier, category, film_id, celebrity_id, production_house_id,
                      collection_id, image_url, video_url, thumbnail_url, edition_size, editions_available,
                      exclusive_rewards, sale_type, price_usd_cents, auction_duration_days, auction_ends_at,
                      royalty_bps, created_at)
    SELECT 'cp' || lpad(to_hex(g), 6, '0') || substr(t.id, 1, 4), t.title || ' #' || g, t.description, t.about,
           t.tier, t.category, t.film_id, t.celebrity_id, t.production_house_id, t.collection_id, t.image_url,
           t.video_url, t.thumbnail_url, t.edition_size, t.editions_available, t.exclusive_rewards, t.sale_type,
           -- Some copies share a price (ties broken by id), others vary.
           CASE WHEN g % 3 = 0 THEN t.price_usd_cents ELSE t.price_usd_cents + (g % 7) * 100 END,
           t.auction_duration_days, t.auction_ends_at, t.royalty_bps,
           -- Some copies share a creation time to the microsecond.
           t.created_at - make_interval(secs => (g / 2) * 3600)
    FROM nfts t CROSS JOIN generate_series(1, ${COPIES}::int) AS g`);
  await database.db.execute(sql`ANALYZE nfts`);
  const q = <T>(text: string) => database.query<T>(text, []);
  films = (await q<{ slug: string }>("SELECT slug FROM films ORDER BY slug")).map((r) => r.slug);
  celebs = (await q<{ slug: string }>("SELECT slug FROM celebrities ORDER BY slug")).map((r) => r.slug);
  prices = (await q<{ p: string }>("SELECT DISTINCT price_usd_cents::text AS p FROM nfts ORDER BY 1")).map(
    (r) => Number(r.p),
  );
  const texts = (await q<{ s: string }>("SELECT DISTINCT search_text AS s FROM nfts")).map((r) => r.s);
  const found = new Set<string>();
  for (const s of texts) for (const w of s.split(/[^a-z0-9]+/)) if (w.length >= 3) found.add(w);
  words = [...found].sort();
  total = Number(
    rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM nfts`))[0]?.n,
  );
}, 180_000);
afterAll(() => t?.dispose());

function cursorOf(r: NftSummaryRow, sort: NftSort): NftCursor {
  switch (sort) {
    case "newest":
      return { sort, createdAtMicros: String(r.createdAtMicros), id: r.id };
    case "price_asc":
    case "price_desc":
      return { sort, priceUsdCents: Number(r.priceUsdCents), id: r.id };
    case "title":
      return { sort, sortTitle: r.sortTitle, id: r.id };
  }
}

/** Every page of a walk with one plan: ids in order, and the plans used. */
async function walkIds(filter: NftFilter, sort: NftSort, limit: number, plan?: ListPlan, walkRows?: number) {
  const ids: string[] = [];
  const plans = new Set<ListPlan>();
  let after: NftCursor | undefined;
  for (let page = 0; page < 10_000; page++) {
    const rows = await listNfts(database, { filter, sort, limit, after, plan, walkRows });
    if (rows.plan) plans.add(rows.plan);
    const items = rows.slice(0, limit);
    ids.push(...items.map((r) => r.id));
    const last = items[items.length - 1];
    if (rows.length <= limit || !last) return { ids, plans };
    after = cursorOf(last, sort);
  }
  throw new Error("pagination did not end");
}

const sorts: NftSort[] = ["newest", "price_asc", "price_desc", "title"];
const tiers: Tier[] = ["common", "rare", "ultimate", "legendary"];
const saleTypes: SaleType[] = ["fixed", "auction"];

const filterArb = () =>
  fc.record(
    {
      tier: fc.constantFrom(...tiers),
      saleType: fc.constantFrom(...saleTypes),
      film: fc.constantFrom(...films),
      celebrity: fc.constantFrom(...celebs),
      minPriceCents: fc.constantFrom(...prices),
      maxPriceCents: fc.constantFrom(...prices),
      q: fc.oneof(
        fc.constantFrom(...words),
        // Fragments of words (1 and 2 characters have no trigram), and text with LIKE wildcards.
        fc
          .constantFrom(...words)
          .chain((w) =>
            fc
              .integer({ min: 0, max: w.length - 1 })
              .chain((i) => fc.integer({ min: i + 1, max: w.length }).map((j) => w.slice(i, j))),
          ),
        fc.constantFrom("a", "e", "%", "_", "\\", "a%b", "kabali da", "#1", "#12", "zzz"),
      ),
    },
    { requiredKeys: [] },
  );

describe("catalogue list plans", () => {
  it("has enough rows for the plans to differ", () => {
    expect(total).toBeGreaterThan(500);
    expect(words.length).toBeGreaterThan(50);
  });

  it("walks every page with the same rows, in the same order, under every plan", async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArb(),
        fc.constantFrom(...sorts),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 120 }),
        async (filter, sort, limit, walkRows) => {
          const reference = await walkIds(filter, sort, limit, "index");
          const auto = await walkIds(filter, sort, limit);
          expect(auto.ids).toEqual(reference.ids);
          // A short walk falls back to the candidate set part way, which must join up seamlessly.
          const short = await walkIds(filter, sort, limit, undefined, walkRows);
          expect(short.ids).toEqual(reference.ids);
          const candidates = await walkIds(filter, sort, limit, "candidates");
          expect(candidates.ids).toEqual(reference.ids);
          expect(new Set(reference.ids).size).toBe(reference.ids.length);
        },
      ),
      { numRuns: 60 },
    );
  }, 180_000);

  it("finds each page's first rows the same way from any cursor", async () => {
    await fc.assert(
      fc.asyncProperty(
        filterArb(),
        fc.constantFrom(...sorts),
        fc.integer({ min: 1, max: 30 }),
        fc.nat(),
        async (filter, sort, limit, pick) => {
          // A cursor at any row of the unfiltered order, whether or not that row matches the filter.
          const all = await listNfts(database, { filter: {}, sort, limit: total, plan: "index" });
          const from = all[pick % all.length] as NftSummaryRow;
          const after = cursorOf(from, sort);
          const ids = async (plan: ListPlan, walkRows?: number) =>
            (await listNfts(database, { filter, sort, limit, after, plan, walkRows })).map((r) => r.id);
          const reference = await ids("index");
          expect(await ids("candidates")).toEqual(reference);
          const walked = await listNfts(database, {
            filter,
            sort,
            limit,
            after,
            plan: "walk",
            walkRows: 5000,
          });
          expect(walked.map((r) => r.id)).toEqual(reference);
        },
      ),
      { numRuns: 60 },
    );
  }, 180_000);

  it("chooses the index range scan only when one index holds every condition", async () => {
    const plan = async (filter: NftFilter, sort: NftSort) =>
      (await listNfts(database, { filter, sort, limit: 24 })).plan;
    expect(await plan({}, "title")).toBe("index");
    expect(await plan({ tier: "rare" }, "title")).toBe("index");
    expect(await plan({ film: films[0] as string, minPriceCents: 0 }, "price_asc")).toBe("index");
    // Anything else is a bounded walk, or the candidate set when the walk does not fill the page.
    expect(await plan({ tier: "rare", minPriceCents: 0 }, "title")).toBe("walk");
    expect(await plan({ q: "zzzzzz" }, "title")).toBe("candidates");
    expect(await plan({ q: "zzzzzz", tier: "rare", saleType: "fixed" }, "newest")).toBe("candidates");
  });

  it("returns full card rows from the candidate plan", async () => {
    const word = words[0] as string;
    const [a, b] = await Promise.all([
      listNfts(database, { filter: { q: word }, sort: "title", limit: 10, plan: "index" }),
      listNfts(database, { filter: { q: word }, sort: "title", limit: 10, plan: "candidates" }),
    ]);
    expect(a.length).toBeGreaterThan(0);
    expect([...b]).toEqual([...a]);
  });
});
