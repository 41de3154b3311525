import type { NftListResponse, NftSummary } from "@diginoor/api/catalogue";
import { nftListResponseSchema, tiers } from "@diginoor/api/catalogue";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nftPublicId, seedCatalogue } from "../seed/seed.ts";
import { rowsOf } from "../src/lib/rate-limit.ts";
import { FEATURED_SONG_SLUG, seedNfts } from "../seed/catalogue-data.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const result = await seedCatalogue(t.ctx.db, { now: new Date("2026-01-15T12:00:00Z") });
  expect(result.seeded).toBe(true);
});
afterAll(() => t?.close());

async function get(url: string) {
  const res = await t.app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

async function list(query: string): Promise<NftListResponse> {
  const res = await get(`/api/v1/nfts${query ? `?${query}` : ""}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  // The route sends pre-serialised JSON; check it against the shared contract here.
  return nftListResponseSchema.parse(res.body);
}

/** Follows nextCursor until the end; returns every item in order. */
async function walk(query: string, limit: number, startCursor: string | null = null): Promise<NftSummary[]> {
  const all: NftSummary[] = [];
  let cursor: string | null = startCursor;
  for (let page = 0; page < 200; page++) {
    const q: string = [query, `limit=${limit}`, cursor ? `cursor=${encodeURIComponent(cursor)}` : ""]
      .filter(Boolean)
      .join("&");
    const body = await list(q);
    expect(body.items.length).toBeLessThanOrEqual(limit);
    all.push(...body.items);
    cursor = body.nextCursor;
    if (!cursor) return all;
    expect(body.items.length).toBe(limit);
  }
  throw new Error("pagination did not end");
}

const expectValidation = (
  body: { error: { code: string; details?: { field: string }[] } },
  field: string,
) => {
  expect(body.error.code).toBe("validation_failed");
  expect(body.error.details?.map((d) => d.field)).toContain(field);
};

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("seed catalogue", () => {
  it("has the spec's films, at least 40 NFTs across all tiers and both sale types", async () => {
    const all = await walk("", 100);
    expect(all.length).toBe(seedNfts.length);
    expect(all.length).toBeGreaterThanOrEqual(40);
    for (const tier of tiers) expect(all.some((n) => n.tier === tier)).toBe(true);
    expect(all.some((n) => n.saleType === "fixed")).toBe(true);
    expect(all.some((n) => n.saleType === "auction")).toBe(true);
    const films = new Set(all.map((n) => n.film.slug));
    for (const f of ["kabali", "sivaji", "chandramukhi", "pasumainayaganvivek", "nonfungiblespb"]) {
      expect(films.has(f)).toBe(true);
    }
    for (const n of all) {
      expect(Number.isInteger(n.priceUsdCents)).toBe(true);
      expect(n.editionsAvailable).toBeLessThanOrEqual(n.editionSize);
      expect(n.thumbnailUrl).toMatch(/^\/media\/catalogue\//);
      const bounds = { common: [100, 500], rare: [25, 100], ultimate: [5, 20], legendary: [1, 1] }[n.tier];
      expect(n.editionSize).toBeGreaterThanOrEqual(bounds[0] as number);
      expect(n.editionSize).toBeLessThanOrEqual(bounds[1] as number);
    }
    // Some auctions run (deadline after seed time), some have not started yet.
    const auctions = all.filter((n) => n.saleType === "auction");
    expect(auctions.some((n) => n.auctionEndsAt && n.auctionEndsAt > "2026-01-15T12:00:00Z")).toBe(true);
    expect(auctions.some((n) => n.auctionEndsAt === null)).toBe(true);
    expect(all.filter((n) => n.saleType === "fixed").every((n) => n.auctionEndsAt === null)).toBe(true);
  });

  it("features the one-of-one song NFT with a $150,000 reserve", async () => {
    const res = await get(`/api/v1/nfts/${nftPublicId(FEATURED_SONG_SLUG)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tier: "legendary",
      saleType: "auction",
      priceUsdCents: 15_000_000,
      editionSize: 1,
      royaltyBps: 1000,
      film: { slug: "nonfungiblespb" },
      celebrity: { slug: "spb" },
    });
    expect(res.body.exclusiveRewards).toMatch(/30 minutes/);
    expect(res.body.exclusiveRewards).toMatch(/51%/);
  });

  it("is idempotent: seeding again inserts nothing", async () => {
    const again = await seedCatalogue(t.ctx.db);
    expect(again.seeded).toBe(false);
    const rows = rowsOf<{ n: number }>(await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM nfts`));
    expect(Number(rows[0]?.n)).toBe(seedNfts.length);
  });
});

describe("GET /api/v1/nfts filters", () => {
  it("returns card fields and defaults to 24 newest", async () => {
    const body = await list("");
    expect(body.items.length).toBe(24);
    expect(body.nextCursor).toEqual(expect.any(String));
    const n = body.items[0] as NftSummary;
    for (const key of [
      "id",
      "title",
      "tier",
      "film",
      "celebrity",
      "priceUsdCents",
      "saleType",
      "thumbnailUrl",
    ]) {
      expect(n).toHaveProperty(key);
    }
    expect(n.film).toEqual({ slug: expect.any(String), name: expect.any(String) });
  });

  it.each(tiers)("filters by tier=%s", async (tier) => {
    const items = await walk(`tier=${tier}`, 100);
    expect(items.length).toBe(seedNfts.filter((n) => n.tier === tier).length);
    expect(items.every((n) => n.tier === tier)).toBe(true);
  });

  it("filters by film slug (case-insensitive) and returns nothing for an unknown film", async () => {
    const items = await walk("film=Kabali", 100);
    expect(items.length).toBe(seedNfts.filter((n) => n.film === "kabali").length);
    expect(items.every((n) => n.film.slug === "kabali")).toBe(true);
    expect((await list("film=no-such-film")).items).toEqual([]);
  });

  it("filters by celebrity slug", async () => {
    const items = await walk("celebrity=jyothika", 100);
    expect(items.length).toBe(seedNfts.filter((n) => n.celebrity === "jyothika").length);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((n) => n.celebrity.slug === "jyothika")).toBe(true);
  });

  it("filters by sale type", async () => {
    for (const saleType of ["fixed", "auction"] as const) {
      const items = await walk(`saleType=${saleType}`, 100);
      expect(items.length).toBe(seedNfts.filter((n) => n.saleType === saleType).length);
      expect(items.every((n) => n.saleType === saleType)).toBe(true);
    }
  });

  it("filters by price range, inclusive", async () => {
    const items = await walk("minPriceCents=1500&maxPriceCents=2000", 100);
    const expected = seedNfts.filter((n) => n.priceUsdCents >= 1500 && n.priceUsdCents <= 2000);
    expect(items.length).toBe(expected.length);
    expect(items.some((n) => n.priceUsdCents === 1500)).toBe(true);
    expect(items.some((n) => n.priceUsdCents === 2000)).toBe(true);
    expect((await walk("minPriceCents=10000000", 100)).map((n) => n.priceUsdCents)).toEqual([15_000_000]);
    expect((await list("maxPriceCents=1199")).items).toEqual([]);
  });

  it("combines filters", async () => {
    const items = await walk("film=chandramukhi&tier=legendary&saleType=auction", 100);
    expect(items.map((n) => n.title)).toEqual(["Chandramukhi's Anklet"]);
    const rare = await walk("celebrity=rajinikanth&tier=rare&maxPriceCents=10000", 100);
    expect(rare.length).toBe(
      seedNfts.filter((n) => n.celebrity === "rajinikanth" && n.tier === "rare" && n.priceUsdCents <= 10000)
        .length,
    );
  });
});

describe("GET /api/v1/nfts sorting and pagination", () => {
  it("sorts newest first by default", async () => {
    const items = await walk("", 100);
    const dates = items.map((n) => n.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("sorts by price ascending and descending, ties broken by id", async () => {
    const asc = await walk("sort=price_asc", 100);
    for (let i = 1; i < asc.length; i++) {
      const a = asc[i - 1] as NftSummary;
      const b = asc[i] as NftSummary;
      expect(
        a.priceUsdCents < b.priceUsdCents || (a.priceUsdCents === b.priceUsdCents && byId(a.id, b.id) < 0),
      ).toBe(true);
    }
    const descending = await walk("sort=price_desc", 100);
    expect(descending.map((n) => n.id)).toEqual(asc.map((n) => n.id).reverse());
  });

  it("sorts by title, case-insensitively", async () => {
    const items = await walk("sort=title", 100);
    const titles = items.map((n) => n.title.toLowerCase());
    expect(titles).toEqual([...titles].sort(byId));
  });

  const combos = [
    "",
    "sort=price_asc",
    "sort=price_desc",
    "sort=title",
    "tier=common&sort=price_asc",
    "film=sivaji&sort=newest",
    "saleType=fixed&sort=price_desc&minPriceCents=1200&maxPriceCents=100000",
    "q=the&sort=title",
  ];
  it.each(combos)("walks every page of '%s' exactly once, for several page sizes", async (query) => {
    const reference = (await walk(query, 100)).map((n) => n.id);
    expect(reference.length).toBeGreaterThan(0);
    expect(new Set(reference).size).toBe(reference.length);
    for (const limit of [1, 2, 7]) {
      const ids = (await walk(query, limit)).map((n) => n.id);
      expect(ids).toEqual(reference);
    }
  });

  it("stays stable when a new NFT is added mid-walk", async () => {
    const first = await list("sort=price_asc&limit=5");
    // A new NFT cheaper than everything seen so far must not shift later pages.
    await t.ctx.db.execute(sql`
      INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url, thumbnail_url,
                        edition_size, editions_available, sale_type, price_usd_cents)
      SELECT 'zzTEMPnft1', 'Temporary', 'common', 'Still', film_id, celebrity_id, production_house_id, image_url,
             thumbnail_url, 100, 100, 'fixed', 1 FROM nfts LIMIT 1`);
    try {
      const rest = await walk("sort=price_asc", 5, first.nextCursor);
      const ids = [...first.items, ...rest].map((n) => n.id);
      expect(ids).not.toContain("zzTEMPnft1");
      expect(new Set(ids).size).toBe(seedNfts.length);
    } finally {
      await t.ctx.db.execute(sql`DELETE FROM nfts WHERE id = 'zzTEMPnft1'`);
    }
  });
});

describe("GET /api/v1/nfts text search", () => {
  it("matches titles, case-insensitively and by substring", async () => {
    const items = await walk("q=KABA", 100);
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((n) => n.title === "Kabali Da!")).toBe(true);
    expect(items.every((n) => n.film.slug === "kabali" || n.title.toLowerCase().includes("kaba"))).toBe(true);
  });

  it("matches the film name, the celebrity name and the description", async () => {
    const byFilm = await walk("q=chandramukhi", 100);
    expect(byFilm.filter((n) => n.film.slug === "chandramukhi").length).toBe(
      seedNfts.filter((n) => n.film === "chandramukhi").length,
    );
    const byStar = await walk("q=nayanthara", 100);
    expect(byStar.map((n) => n.celebrity.slug)).toContain("nayanthara");
    const byDescription = await walk("q=kuala lumpur", 100);
    expect(byDescription.map((n) => n.title)).toEqual(["Malaysian Dawn"]);
  });

  it("treats % and _ literally", async () => {
    // Only texts that really contain "%" match, not everything.
    const withPercent = seedNfts.filter((n) => `${n.title} ${n.description}`.includes("%"));
    expect(withPercent.length).toBeLessThan(seedNfts.length);
    expect((await walk("q=%25", 100)).map((n) => n.id).sort()).toEqual(
      withPercent.map((n) => nftPublicId(n.slug)).sort(),
    );
    expect((await list("q=_")).items).toEqual([]);
    expect((await list("q=%25%25%25")).items).toEqual([]);
    // "51%" appears in the featured song's description.
    expect((await list("q=51%25")).items.map((n) => n.film.slug)).toEqual(["nonfungiblespb"]);
  });

  it.each([
    "'; DROP TABLE nfts;--",
    "<script>alert(1)</script>",
    "\\",
    "' OR '1'='1",
    '"',
    "ñ€😀",
    "%_\\%",
    "  ",
  ])("answers 200 for the metacharacters %j", async (q) => {
    const res = await get(`/api/v1/nfts?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.items)).toBe(true);
  });

  it("still has every NFT after hostile queries", async () => {
    expect((await walk("", 100)).length).toBe(seedNfts.length);
  });

  it("refuses a NUL character in the search text with a 400 naming q", async () => {
    const res = await get(`/api/v1/nfts?q=${encodeURIComponent("kabali\u0000")}`);
    expect(res.status).toBe(400);
    expectValidation(res.body, "q");
  });

  it("rejects overlong search text", async () => {
    const res = await get(`/api/v1/nfts?q=${"a".repeat(101)}`);
    expect(res.status).toBe(400);
    expectValidation(res.body, "q");
  });
});

describe("GET /api/v1/nfts bad input", () => {
  it.each(["0", "-1", "101", "abc", "1e3", "1.5", "", "99999999999999999999"])(
    "limit=%j is a 400 naming limit",
    async (limit) => {
      const res = await get(`/api/v1/nfts?limit=${limit}`);
      expect(res.status).toBe(400);
      expectValidation(res.body, "limit");
    },
  );

  it.each([
    ["tier", "mythic"],
    ["sort", "random"],
    ["saleType", "barter"],
    ["minPriceCents", "-5"],
    ["maxPriceCents", "ten"],
    ["film", "../etc/passwd"],
    ["celebrity", "a b"],
  ])("%s=%j is a 400 naming the field", async (field, value) => {
    const res = await get(`/api/v1/nfts?${field}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expectValidation(res.body, field);
  });

  it("rejects a minimum above the maximum", async () => {
    const res = await get("/api/v1/nfts?minPriceCents=500&maxPriceCents=100");
    expect(res.status).toBe(400);
    expectValidation(res.body, "minPriceCents");
  });

  it("rejects unknown and repeated query parameters", async () => {
    const unknown = await get("/api/v1/nfts?colour=red");
    expect(unknown.status).toBe(400);
    expectValidation(unknown.body, "colour");
    const repeated = await get("/api/v1/nfts?tier=rare&tier=common");
    expect(repeated.status).toBe(400);
    expectValidation(repeated.body, "tier");
  });

  it.each([
    ["random text", "not-a-cursor!!"],
    ["base64 of garbage", Buffer.from("garbage{{").toString("base64url")],
    ["base64 of a JSON object", Buffer.from('{"a":1}').toString("base64url")],
    ["wrong key type", Buffer.from('["newest",12,"abcdefgh"]').toString("base64url")],
    ["bad id", Buffer.from('["newest","1","<script>"]').toString("base64url")],
    ["unknown sort", Buffer.from('["cheapest",1,"abcdefgh"]').toString("base64url")],
    ["overlong", "a".repeat(1300)],
  ])("rejects a malformed cursor (%s) with 400 naming cursor", async (_name, cursor) => {
    const res = await get(`/api/v1/nfts?cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(400);
    expectValidation(res.body, "cursor");
  });

  it("rejects a cursor made for another sort order", async () => {
    const page = await list("sort=price_asc&limit=3");
    const res = await get(`/api/v1/nfts?sort=title&cursor=${page.nextCursor}`);
    expect(res.status).toBe(400);
    expectValidation(res.body, "cursor");
    const defaultSort = await get(`/api/v1/nfts?cursor=${page.nextCursor}`);
    expect(defaultSort.status).toBe(400);
  });
});

describe("GET /api/v1/nfts/:id", () => {
  it("returns the full NFT with properties and related NFTs", async () => {
    const id = nftPublicId("chandramukhi-raa-raa");
    const res = await get(`/api/v1/nfts/${id}`);
    expect(res.status).toBe(200);
    const nft = res.body;
    expect(nft).toMatchObject({
      id,
      title: "Raa Raa",
      tier: "rare",
      category: "Song",
      film: { slug: "chandramukhi", name: "Chandramukhi" },
      celebrity: { slug: "jyothika", name: "Jyothika" },
      productionHouse: { slug: "chola-screen-works" },
      collection: { slug: "chandramukhi" },
      blockchain: "Polygon",
      royaltyBps: 1000,
    });
    expect(nft.imageUrl).toMatch(/^\/media\/catalogue\/nfts\/.+\.svg$/);
    const labels = nft.properties.map((p: { label: string }) => p.label);
    for (const l of ["Category", "Movie", "Celebrity", "Production house", "Rarity"])
      expect(labels).toContain(l);
    expect(nft.related.length).toBeGreaterThan(0);
    expect(nft.related.map((r: NftSummary) => r.id)).not.toContain(id);
    expect(
      nft.related.every((r: NftSummary) => r.film.slug === "chandramukhi" || r.celebrity.slug === "jyothika"),
    ).toBe(true);
  });

  it.each(["doesnotexist", "a", "x".repeat(64), "%27%20OR%201%3D1", "..%2F..%2Fetc"])(
    "answers 404 for %j",
    async (id) => {
      const res = await get(`/api/v1/nfts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    },
  );
});

describe("films, collections and about", () => {
  it("lists the films with counts and the notes of the two late-artist collections", async () => {
    const res = await get("/api/v1/films");
    expect(res.status).toBe(200);
    const slugs = res.body.items.map((f: { slug: string }) => f.slug);
    expect(slugs).toEqual(["kabali", "sivaji", "chandramukhi", "pasumainayaganvivek", "nonfungiblespb"]);
    const vivek = res.body.items.find((f: { slug: string }) => f.slug === "pasumainayaganvivek");
    expect(vivek.note).toMatch(/sapling/);
    const spb = res.body.items.find((f: { slug: string }) => f.slug === "nonfungiblespb");
    expect(spb.note).toMatch(/30 minutes/);
    const total = res.body.items.reduce((s: number, f: { nftCount: number }) => s + f.nftCount, 0);
    expect(total).toBe(seedNfts.length);
  });

  it("returns a film with its cast, studio and NFTs", async () => {
    const res = await get("/api/v1/films/Chandramukhi");
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe("chandramukhi");
    expect(res.body.releaseYear).toBe(2005);
    expect(res.body.celebrities.map((c: { slug: string }) => c.slug)).toEqual([
      "rajinikanth",
      "jyothika",
      "nayanthara",
    ]);
    expect(res.body.productionHouse).toEqual({ slug: "chola-screen-works", name: "Chola Screen Works" });
    expect(res.body.nfts.length).toBe(seedNfts.filter((n) => n.film === "chandramukhi").length);
    expect(res.body.nftCount).toBe(res.body.nfts.length);
  });

  it("answers 404 for an unknown film", async () => {
    const res = await get("/api/v1/films/no-such-film");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: "not_found", message: "Film not found" } });
  });

  it("returns the collections page: featured, hot with coming soon, top sellers and filters", async () => {
    const res = await get("/api/v1/collections");
    expect(res.status).toBe(200);
    const c = res.body;
    expect(c.featured.map((x: { slug: string }) => x.slug)).toEqual([
      "sivaji",
      "chandramukhi",
      "kabali",
      "pasumainayaganvivek",
    ]);
    expect(c.hot.map((x: { slug: string }) => x.slug)).toEqual([
      "kabali",
      "sivaji",
      "chandramukhi",
      "pasumainayaganvivek",
      "coming-soon",
    ]);
    const soon = c.hot[4];
    expect(soon).toMatchObject({ comingSoon: true, href: null, nftCount: 0 });
    expect(c.featured[0]).toMatchObject({ href: "/sivaji", comingSoon: false });
    expect(c.featured[0].nftCount).toBeGreaterThan(0);
    expect(c.topSellers.length).toBe(8);
    const sold = c.topSellers.map((n: NftSummary) => n.editionSize - n.editionsAvailable);
    expect(sold).toEqual([...sold].sort((a: number, b: number) => b - a));
    expect(c.filters.minPriceUsdCents).toBe(Math.min(...seedNfts.map((n) => n.priceUsdCents)));
    expect(c.filters.maxPriceUsdCents).toBe(15_000_000);
    expect(c.filters.films.map((f: { slug: string }) => f.slug)).toContain("kabali");
    expect(c.filters.celebrities.map((f: { slug: string }) => f.slug)).toContain("rajinikanth");
  });

  it("returns five partners and ten team members", async () => {
    const res = await get("/api/v1/about");
    expect(res.status).toBe(200);
    expect(res.body.partners).toHaveLength(5);
    expect(res.body.team).toHaveLength(10);
    for (const m of res.body.team) {
      expect(m.role).not.toBe("");
      expect(m.avatarUrl).toMatch(/^\/media\/catalogue\/team\//);
    }
  });

  it("documents every catalogue route in the OpenAPI document", async () => {
    const doc = (await get("/api/openapi.json")).body;
    for (const p of [
      "/api/v1/nfts",
      "/api/v1/nfts/{id}",
      "/api/v1/films",
      "/api/v1/films/{slug}",
      "/api/v1/collections",
      "/api/v1/about",
      "/api/v1/contact",
      "/api/v1/newsletter",
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    const params = doc.paths["/api/v1/nfts"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(
      expect.arrayContaining(["tier", "film", "celebrity", "saleType", "q", "sort", "limit", "cursor"]),
    );
  });
});

describe("no input produces a 500", () => {
  const keys = [
    "tier",
    "film",
    "celebrity",
    "saleType",
    "minPriceCents",
    "maxPriceCents",
    "q",
    "sort",
    "limit",
    "cursor",
    "x",
  ];
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: "binary", maxLength: 30 }),
    fc.integer().map(String),
    fc.constantFrom(
      "rare",
      "newest",
      "price_asc",
      "title",
      "auction",
      "kabali",
      "24",
      "-0",
      "0x10",
      "%",
      "\\",
    ),
    fc.base64String({ maxLength: 60 }),
  );
  it("GET /api/v1/nfts answers 200 or 400 to any query string", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 5 }), async (params) => {
        const res = await t.app.inject({ method: "GET", url: `/api/v1/nfts?${new URLSearchParams(params)}` });
        expect([200, 400], res.body).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().error.code).toBe("validation_failed");
      }),
      { numRuns: 200 },
    );
  });

  it("GET /api/v1/nfts/:id and /api/v1/films/:slug answer 200 or 404 to any id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", minLength: 1, maxLength: 80 }), async (id) => {
        for (const base of ["/api/v1/nfts/", "/api/v1/films/"]) {
          const res = await t.app.inject({ method: "GET", url: base + encodeURIComponent(id) });
          expect([200, 400, 404], res.body).toContain(res.statusCode);
        }
      }),
      { numRuns: 100 },
    );
  });
});
