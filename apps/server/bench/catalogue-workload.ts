// The catalogue benchmarks' data: 100,000 NFTs seeded by multiplying the launch catalogue, and the
// mixed browsing workload (random filters, bounds, words and sorts) drawn from the catalogue's words.
// Shared by catalogue.ts (over HTTP) and catalogue-index.ts (the search index alone).
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/client.ts";
import { rowsOf } from "../src/lib/rate-limit.ts";
import { seedCatalogue } from "../seed/seed.ts";

/** Seeds the launch catalogue, then multiplies it into `total` NFTs with one INSERT … SELECT. */
export async function seedMany(database: Database, total: number): Promise<number> {
  await seedCatalogue(database.db);
  const base = Number(
    rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM nfts`))[0]?.n,
  );
  const extra = Math.max(0, total - base);
  await database.db.execute(sql`
    WITH t AS (SELECT row_number() OVER (ORDER BY id) - 1 AS k, nfts.* FROM nfts),
         n AS (SELECT count(*) AS c FROM t)
    INSERT INTO nfts (id, title, description, about, tier, category, film_id, celebrity_id, production_house_id,
                      collection_id, image_url, video_url, thumbnail_url, edition_size, editions_available,
                      exclusive_rewards, sale_type, price_usd_cents, auction_duration_days, auction_ends_at,
                      royalty_bps, created_at)
    SELECT 'bn' || lpad(to_hex(g), 8, '0'),
           t.title || ' #' || (g / (SELECT c FROM n) + 2),
           t.description, t.about, t.tier, t.category, t.film_id, t.celebrity_id, t.production_house_id,
           t.collection_id, t.image_url, t.video_url, t.thumbnail_url, t.edition_size,
           greatest(1, t.edition_size - (g % t.edition_size)), t.exclusive_rewards, t.sale_type,
           -- Vary prices around the template's, keeping whole cents.
           greatest(100, t.price_usd_cents + ((g * 7919) % 997) * 100 - 49800),
           t.auction_duration_days, t.auction_ends_at, t.royalty_bps,
           now() - make_interval(secs => g * 37)
    FROM generate_series(1, ${extra}::int) AS g
    JOIN t ON t.k = g % (SELECT c FROM n)`);
  await database.db.execute(sql`ANALYZE`);
  return Number(
    rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM nfts`))[0]?.n,
  );
}

// ─── mixed workload ─────────────────────────────────────────────────────────

/** Words people would type: every word of 3+ letters in titles, film and star names and descriptions. */
async function searchVocabulary(database: Database) {
  const q = <T>(text: string) => database.query<T>(text, []);
  const words = (
    await q<{ w: string }>(
      `SELECT DISTINCT w FROM nfts, regexp_split_to_table(search_text, '[^a-z0-9]+') AS w WHERE length(w) >= 3`,
    )
  ).map((r) => r.w);
  const films = (await q<{ slug: string }>("SELECT slug FROM films")).map((r) => r.slug);
  const celebrities = (await q<{ slug: string }>("SELECT slug FROM celebrities")).map((r) => r.slug);
  const prices = (
    await q<{ p: string }>("SELECT price_usd_cents::text AS p FROM nfts TABLESAMPLE SYSTEM (5)")
  ).map((r) => Number(r.p));
  return { words, films, celebrities, prices };
}

/**
 * Browsing as many visitors do it at once: each request a fresh random combination of tier, sale
 * type, film, star, price bounds, a search word (whole, or its first letters as typed so far) and a
 * sort order, so the list micro-cache almost never answers.
 */
function mixedWorkload(words: string[], films: string[], celebrities: string[], prices: number[]) {
  let seed = 0x9e3779b9;
  const rand = () => {
    // mulberry32: reproducible across runs
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const sorts = ["newest", "price_asc", "price_desc", "title"] as const;
  const tiers = ["common", "rare", "ultimate", "legendary"] as const;
  const path = () => {
    const params = new URLSearchParams();
    if (rand() < 0.6) {
      const w = pick(words);
      params.set("q", rand() < 0.3 && w.length > 4 ? w.slice(0, 3 + Math.floor(rand() * (w.length - 3))) : w);
    }
    if (rand() < 0.3) params.set("tier", pick(tiers));
    if (rand() < 0.3) params.set("saleType", rand() < 0.5 ? "fixed" : "auction");
    if (rand() < 0.2) params.set("film", pick(films));
    if (rand() < 0.15) params.set("celebrity", pick(celebrities));
    let lo = rand() < 0.25 ? pick(prices) : undefined;
    let hi = rand() < 0.25 ? pick(prices) : undefined;
    if (lo !== undefined && hi !== undefined && lo > hi) [lo, hi] = [hi, lo];
    if (lo !== undefined) params.set("minPriceCents", String(lo));
    if (hi !== undefined) params.set("maxPriceCents", String(hi));
    params.set("sort", pick(sorts));
    return `/api/v1/nfts?${params}`;
  };
  return {
    path,
    setupRequest: (req: Record<string, unknown>) => ({ ...req, path: path() }),
  };
}

/** The mixed workload over this database's words, films, stars and prices. */
export async function mixedWorkloadOf(database: Database) {
  const v = await searchVocabulary(database);
  return mixedWorkload(v.words, v.films, v.celebrities, v.prices);
}
