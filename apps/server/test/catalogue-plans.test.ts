// The list query's three plans (index range scan, bounded walk, candidate set; see
// docs/decisions/022-catalogue-search-plans.md) must return exactly what the simple query returns,
// for any combination of filters, price bounds, search words, sort orders, page sizes and cursors.
import type { NftSort } from "@diginoor/api/catalogue";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import type { NftCursor } from "../src/modules/catalogue/cursor.ts";
import {
  type ListPlan,
  listNfts,
  type NftFilter,
  type NftSummaryRow,
} from "../src/modules/catalogue/repo.ts";
import {
  cursorOf,
  filterArb as filterOf,
  seedCatalogueCopies,
  sorts,
  type Vocabulary,
} from "./catalogue-copies.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

let t: TestDatabase;
let database: Database;
let v: Vocabulary;
let films: string[];
let words: string[];
let total: number;

/** Copies of the seed catalogue, as the benchmark makes them: editions of one drop sort together by title. */
const COPIES = 12;

beforeAll(async () => {
  t = await createTestDatabase();
  database = t.database;
  v = await seedCatalogueCopies(database, COPIES);
  ({ films, words, total } = v);
}, 180_000);
afterAll(() => t?.dispose());

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

const filterArb = () => filterOf(v);

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
