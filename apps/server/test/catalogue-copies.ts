// The catalogue the list tests page through: the seed catalogue plus copies of each NFT, as the
// benchmark makes them (editions of one drop sort together by title; some share a price or a
// creation time to the microsecond), and random list filters over its values.
import type { NftSort, SaleType, Tier } from "@diginoor/api/catalogue";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import type { Database } from "../src/db/client.ts";
import { cursorAfter } from "../src/modules/catalogue/service.ts";
import { seedCatalogue } from "../seed/seed.ts";

export interface Vocabulary {
  films: string[];
  celebs: string[];
  prices: number[];
  words: string[];
  total: number;
}

/** Seeds the catalogue with `copies` copies of every NFT; returns the values filters can take. */
export async function seedCatalogueCopies(database: Database, copies: number): Promise<Vocabulary> {
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
    FROM nfts t CROSS JOIN generate_series(1, ${copies}::int) AS g`);
  await database.db.execute(sql`ANALYZE nfts`);
  return catalogueVocabulary(database);
}

export async function catalogueVocabulary(database: Database): Promise<Vocabulary> {
  const q = <T>(text: string) => database.query<T>(text, []);
  const films = (await q<{ slug: string }>("SELECT slug FROM films ORDER BY slug")).map((r) => r.slug);
  const celebs = (await q<{ slug: string }>("SELECT slug FROM celebrities ORDER BY slug")).map((r) => r.slug);
  const prices = (
    await q<{ p: string }>("SELECT DISTINCT price_usd_cents::text AS p FROM nfts ORDER BY 1")
  ).map((r) => Number(r.p));
  const texts = (await q<{ s: string }>("SELECT DISTINCT search_text AS s FROM nfts")).map((r) => r.s);
  const found = new Set<string>();
  for (const s of texts) for (const w of s.split(/[^a-z0-9]+/)) if (w.length >= 3) found.add(w);
  const total = Number((await q<{ n: number }>("SELECT count(*)::int AS n FROM nfts"))[0]?.n);
  return { films, celebs, prices, words: [...found].sort(), total };
}

export const cursorOf = cursorAfter;

export const sorts: NftSort[] = ["newest", "price_asc", "price_desc", "title"];
export const tiers: Tier[] = ["common", "rare", "ultimate", "legendary"];
export const saleTypes: SaleType[] = ["fixed", "auction"];

/** Random list filters: any subset of equality filters, price bounds and a search word. */
export const filterArb = (v: Vocabulary) =>
  fc.record(
    {
      tier: fc.constantFrom(...tiers),
      saleType: fc.constantFrom(...saleTypes),
      film: fc.constantFrom(...v.films),
      celebrity: fc.constantFrom(...v.celebs),
      minPriceCents: fc.constantFrom(...v.prices),
      maxPriceCents: fc.constantFrom(...v.prices),
      q: fc.oneof(
        fc.constantFrom(...v.words),
        // Fragments of words (1 and 2 characters have no trigram), and text with LIKE wildcards.
        fc
          .constantFrom(...v.words)
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
