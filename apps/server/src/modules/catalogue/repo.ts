import type { Query } from "../../db/query.ts";
import { createHash } from "node:crypto";
// Catalogue queries. Every list is one indexed SQL statement; pages use keyset conditions on
// (sort key, id), never OFFSET, so deep pages cost the same as the first and walks are stable.
import type { NftSort, SaleType, Tier } from "@diginoor/api/catalogue";
import { and, asc, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Database, Db } from "../../db/client.ts";
import {
  celebrities,
  collections,
  filmCelebrities,
  films,
  nfts,
  productionHouses,
  teamMembers,
} from "./tables.ts";
import { rowsOf } from "../../lib/rate-limit.ts";
import type { NftCursor } from "./cursor.ts";

export interface NftFilter {
  tier?: Tier;
  film?: string;
  celebrity?: string;
  saleType?: SaleType;
  minPriceCents?: number;
  maxPriceCents?: number;
  q?: string;
}

/** The columns of an NFT card, plus the sort keys needed to build a cursor from the last row. */
const summaryColumns = {
  id: nfts.id,
  title: nfts.title,
  tier: nfts.tier,
  filmSlug: films.slug,
  filmName: films.name,
  celebritySlug: celebrities.slug,
  celebrityName: celebrities.name,
  priceUsdCents: nfts.priceUsdCents,
  saleType: nfts.saleType,
  auctionEndsAt: nfts.auctionEndsAt,
  thumbnailUrl: nfts.thumbnailUrl,
  editionsAvailable: nfts.editionsAvailable,
  editionSize: nfts.editionSize,
  createdAt: nfts.createdAt,
  sortTitle: sql<string>`${nfts.sortTitle}`.as("sort_title"),
  // Exact microseconds (a JS Date keeps only milliseconds) so the "newest" cursor is exact.
  createdAtMicros: sql<string>`(extract(epoch from ${nfts.createdAt}) * 1000000)::bigint::text`.as(
    "created_us",
  ),
};

export type NftSummaryRow = {
  id: string;
  title: string;
  tier: Tier;
  filmSlug: string;
  filmName: string;
  celebritySlug: string;
  celebrityName: string;
  priceUsdCents: number;
  saleType: SaleType;
  auctionEndsAt: Date | string | null;
  thumbnailUrl: string;
  editionsAvailable: number;
  editionSize: number;
  createdAt: Date | string;
  sortTitle: string;
  createdAtMicros: string;
};

/** Escapes LIKE wildcards so user text matches literally (`%`, `_` and the escape character `\`). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function summaries(db: Db) {
  return db
    .select(summaryColumns)
    .from(nfts)
    .innerJoin(films, eq(films.id, nfts.filmId))
    .innerJoin(celebrities, eq(celebrities.id, nfts.celebrityId));
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** Card columns of the hot list query, in plain SQL (dates formatted as ISO 8601 by PostgreSQL). */
const LIST_COLUMNS = `n.id, n.title, n.tier::text AS tier, f.slug AS "filmSlug", f.name AS "filmName",
  c.slug AS "celebritySlug", c.name AS "celebrityName", n.price_usd_cents AS "priceUsdCents",
  n.sale_type::text AS "saleType", to_char(n.auction_ends_at AT TIME ZONE 'UTC', ${ISO}) AS "auctionEndsAt",
  n.thumbnail_url AS "thumbnailUrl", n.editions_available AS "editionsAvailable", n.edition_size AS "editionSize",
  to_char(n.created_at AT TIME ZONE 'UTC', ${ISO}) AS "createdAt", n.sort_title AS "sortTitle",
  (extract(epoch from n.created_at) * 1000000)::bigint::text AS "createdAtMicros"`;

const LIST_ORDER: Record<NftSort, string> = {
  newest: "n.created_at DESC, n.id DESC",
  price_asc: "n.price_usd_cents ASC, n.id ASC",
  price_desc: "n.price_usd_cents DESC, n.id DESC",
  title: "n.sort_title ASC, n.id ASC",
};

/** The sort key column of each order and its direction. */
const SORT_KEY: Record<NftSort, { col: string; dir: "ASC" | "DESC" }> = {
  newest: { col: "created_at", dir: "DESC" },
  price_asc: { col: "price_usd_cents", dir: "ASC" },
  price_desc: { col: "price_usd_cents", dir: "DESC" },
  title: { col: "sort_title", dir: "ASC" },
};

/** Equality filters, most selective first: each has a (column, sort key, id) index for every order. */
const EQ_FILTERS = ["film", "celebrity", "tier", "saleType"] as const;

/**
 * How the page was found (see docs/decisions/022-catalogue-search-plans.md):
 * - `index`: one index range scan of a (filter, sort key, id) index, all conditions in the index;
 * - `walk`: a bounded walk of a sort index, the other conditions checked on the rows walked;
 * - `candidates`: every matching row found through the filter and trigram indexes, then sorted.
 */
export type ListPlan = "index" | "walk" | "candidates";

export interface ListNftsArgs {
  filter: NftFilter;
  sort: NftSort;
  limit: number;
  after?: NftCursor;
  /** Rows the first bounded walk may read (tests make it small); later steps read ten times more. */
  walkRows?: number;
  /** Force one plan (tests compare them); by default the steps below are tried in turn. */
  plan?: ListPlan;
}

/** Rows the first bounded walk reads at most: enough to fill a page when one row in twenty matches. */
export function defaultWalkRows(limit: number): number {
  return Math.max(500, 20 * (limit + 1));
}

/**
 * One page of NFTs: `limit + 1` rows are read so the caller knows whether another page exists.
 * This is the hottest query of the site, so it is written as plain parameterised SQL and run on the
 * driver directly (the query builder cost more CPU than the query itself; see docs/benchmarks.md).
 *
 * Its cost should not depend on how the matching rows lie in the sort order (editions of one drop
 * sort together by title; a film's NFTs were created together), which the planner cannot know: it
 * assumes matches are spread evenly and walks a sort index past tens of thousands of rows. So a list
 * whose conditions all fit one index is that index's range scan; any other list tries bounded steps
 * (docs/decisions/022-catalogue-search-plans.md): walk the sort order for at most W rows (finishes
 * when matches are common near the start); else collect at most 10W matching rows through the
 * trigram and filter indexes and sort them (finishes when matches are few, the case the planner gets
 * wrong); else (thousands of matches, none near the start) the planner's own plan. Every step
 * returns exactly the rows of `WHERE <conditions> ORDER BY <key>, id LIMIT limit + 1`, or says it
 * could not finish within its budget.
 */
export async function listNfts(
  database: Pick<Database, "query">,
  args: ListNftsArgs,
): Promise<NftSummaryRow[] & { plan?: ListPlan }> {
  const f = args.filter;
  const eqCount = EQ_FILTERS.filter((k) => f[k] !== undefined).length;
  const priceBounded = f.minPriceCents !== undefined || f.maxPriceCents !== undefined;
  const fitsIndex =
    !f.q && eqCount <= 1 && (!priceBounded || args.sort === "price_asc" || args.sort === "price_desc");
  const tag = (rows: NftSummaryRow[], p: ListPlan) => Object.assign(rows, { plan: p });
  if (args.plan === "index" || (!args.plan && fitsIndex)) {
    return tag((await runList(database, args, { plan: "index" })).rows, "index");
  }
  if (args.plan === "walk") return tag((await runList(database, args, { plan: "walk" })).rows, "walk");
  if (args.plan !== "candidates") {
    const w = args.walkRows ?? defaultWalkRows(args.limit);
    const steps: Step[] = [
      { plan: "walk", budget: w },
      { plan: "candidates", budget: 10 * w },
    ];
    for (const step of steps) {
      const r = await runList(database, args, step);
      if (r.complete) return tag(r.rows, step.plan);
    }
    // Many matches, but not near the start of the order: the planner's own plan.
    return tag((await runList(database, args, { plan: "index" })).rows, "index");
  }
  return tag((await runList(database, args, { plan: "candidates" })).rows, "candidates");
}

/** One strategy with its budget (rows walked, or candidates collected); no budget: unbounded. */
type Step = { plan: ListPlan; budget?: number };

async function runList(
  database: Pick<Database, "query">,
  args: ListNftsArgs,
  step: Step,
): Promise<{ rows: NftSummaryRow[]; complete: boolean }> {
  const plan = step.plan;
  const values: unknown[] = [];
  const p = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const f = args.filter;
  const eq: Record<(typeof EQ_FILTERS)[number], () => string> = {
    // Sub-selects on the unique slugs, so the planner can use the (film_id, …) and (celebrity_id, …) indexes.
    film: () => `n.film_id = (SELECT id FROM films WHERE slug = ${p(f.film)})`,
    celebrity: () => `n.celebrity_id = (SELECT id FROM celebrities WHERE slug = ${p(f.celebrity)})`,
    tier: () => `n.tier = ${p(f.tier)}::nft_tier`,
    saleType: () => `n.sale_type = ${p(f.saleType)}::nft_sale_type`,
  };
  const eqConds = EQ_FILTERS.filter((k) => f[k] !== undefined).map((k) => eq[k]());
  const priceConds: string[] = [];
  if (f.minPriceCents !== undefined) priceConds.push(`n.price_usd_cents >= ${p(f.minPriceCents)}::bigint`);
  if (f.maxPriceCents !== undefined) priceConds.push(`n.price_usd_cents <= ${p(f.maxPriceCents)}::bigint`);
  const textConds: string[] = [];
  if (f.q) {
    const q = f.q.toLowerCase();
    // Three characters or more: LIKE, which the trigram index serves. Shorter words have no
    // trigram (the index would read all of itself), so they are a plain substring test.
    textConds.push(
      q.length >= 3 ? `n.search_text LIKE ${p(`%${escapeLike(q)}%`)}` : `strpos(n.search_text, ${p(q)}) > 0`,
    );
  }
  const cursorConds: string[] = [];
  const c = args.after;
  if (c) {
    switch (c.sort) {
      case "newest":
        cursorConds.push(
          `(n.created_at, n.id) < ('epoch'::timestamptz + ${p(c.createdAtMicros)}::bigint * interval '1 microsecond', ${p(c.id)})`,
        );
        break;
      case "price_asc":
        cursorConds.push(`(n.price_usd_cents, n.id) > (${p(c.priceUsdCents)}::bigint, ${p(c.id)})`);
        break;
      case "price_desc":
        cursorConds.push(`(n.price_usd_cents, n.id) < (${p(c.priceUsdCents)}::bigint, ${p(c.id)})`);
        break;
      case "title":
        cursorConds.push(`(n.sort_title, n.id) > (${p(c.sortTitle)}::text, ${p(c.id)})`);
        break;
    }
  }
  const order = LIST_ORDER[args.sort];
  const whereOf = (conds: string[]) => (conds.length ? `WHERE ${conds.join(" AND ")}` : "");
  const limit = () => `LIMIT ${p(args.limit + 1)}::int`;
  const joins = "JOIN films f ON f.id = n.film_id JOIN celebrities c ON c.id = n.celebrity_id";
  let text: string;
  if (plan === "index") {
    text = `SELECT ${LIST_COLUMNS} FROM nfts n ${joins}
    ${whereOf([...eqConds, ...priceConds, ...textConds, ...cursorConds])}
    ORDER BY ${order} ${limit()}`;
  } else if (plan === "walk") {
    // The inner scan holds only what its index can answer in order (the cursor, the first equality
    // filter, price bounds under a price order), so it reads at most `walkRows` index entries.
    const priceInIndex = args.sort === "price_asc" || args.sort === "price_desc";
    const inner = [...cursorConds, ...eqConds.slice(0, 1), ...(priceInIndex ? priceConds : [])];
    const outer = [...eqConds.slice(1), ...(priceInIndex ? [] : priceConds), ...textConds];
    const walkRows = step.budget ?? args.walkRows ?? defaultWalkRows(args.limit);
    // Budgets are our own integers, written into the text: a parameter would leave a generic plan
    // guessing the LIMIT (it assumes a tenth of the table) and sorting instead of walking.
    const w = String(Math.trunc(walkRows));
    // "walked" (evaluated once, from the index alone when it can) tells whether the walk reached the
    // end of the order, in which case a short page is complete too.
    text = `SELECT ${LIST_COLUMNS},
      (SELECT count(*) FROM (SELECT 1 FROM nfts n ${whereOf(inner)} ORDER BY ${order} LIMIT ${w}::int) x)::int AS "walked"
    FROM (SELECT * FROM nfts n ${whereOf(inner)} ORDER BY ${order} LIMIT ${w}::int) n ${joins}
    ${whereOf(outer)}
    ORDER BY ${order} ${limit()}`;
  } else {
    // MATERIALIZED keeps the planner from walking a sort index instead: the matching ids are
    // collected first (bitmap scans of the trigram and filter indexes), then the page is sorted.
    // With a budget, at most that many are collected, and the count tells whether that was all.
    const key = SORT_KEY[args.sort];
    const cap = step.budget === undefined ? "" : `LIMIT ${Math.trunc(step.budget) + 1}`;
    text = `WITH m AS MATERIALIZED (
      SELECT n.id, n.${key.col} AS k FROM nfts n
      ${whereOf([...eqConds, ...priceConds, ...textConds, ...cursorConds])} ${cap}
    ), page AS (SELECT id FROM m ORDER BY k ${key.dir}, id ${key.dir} ${limit()})
    SELECT ${LIST_COLUMNS}${cap ? `, (SELECT count(*) FROM m)::int AS "candidates"` : ""}
    FROM page JOIN nfts n ON n.id = page.id ${joins}
    ORDER BY ${order}`;
  }
  // Shapes without a search word are named prepared statements, parsed and planned once per
  // connection. Searches are planned for their actual word: a generic plan cannot know whether the
  // word is rare (trigram index) or common, and a wrong guess reads the whole table.
  const rows = await database.query<NftSummaryRow & { candidates?: number; walked?: number }>(
    text,
    values,
    f.q ? undefined : { name: statementName(text) },
  );
  let complete: boolean;
  if (plan === "walk" && step.budget !== undefined)
    complete = rows.length > args.limit || (rows.length > 0 && Number(rows[0]?.walked) < step.budget);
  else if (plan === "candidates" && step.budget !== undefined)
    complete = rows.length === 0 || Number(rows[0]?.candidates) <= step.budget;
  else complete = true;
  for (const r of rows) {
    delete r.candidates;
    delete r.walked;
  }
  return { rows, complete };
}

/** A card row with the search text the list matches, as the in-memory search index loads it. */
export type IndexedNftRow = NftSummaryRow & { searchText: string };

const INDEX_COLUMNS = `${LIST_COLUMNS}, n.search_text AS "searchText"`;
const INDEX_JOINS = "LEFT JOIN films f ON f.id = n.film_id LEFT JOIN celebrities c ON c.id = n.celebrity_id";

/**
 * The oldest transaction still running (xid8, as text): every transaction before it has ended, so
 * its changes are visible to any statement that starts after this one.
 */
export async function oldestRunningXid(database: Pick<Database, "query">): Promise<string> {
  const rows = await database.query<{ xmin: string }>(
    "SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin",
    [],
    { name: "catalogue_index_xmin" },
  );
  return (rows[0] as { xmin: string }).xmin;
}

/** Every NFT's card row with its search text (the search index's full load). */
export async function allIndexRows(database: Pick<Database, "query">): Promise<IndexedNftRow[]> {
  return database.query<IndexedNftRow>(`SELECT ${INDEX_COLUMNS} FROM nfts n ${INDEX_JOINS}`, []);
}

/**
 * NFTs changed by transactions from `sinceXid` on (those committed by now): the current row of each,
 * or `deleted` when it is gone.
 */
export async function changedIndexRows(
  database: Pick<Database, "query">,
  sinceXid: string,
): Promise<{ rows: IndexedNftRow[]; deleted: string[] }> {
  const found = await database.query<IndexedNftRow & { changedId: string }>(
    `WITH ch AS (SELECT DISTINCT nft_id FROM catalogue_changes WHERE xid >= $1::xid8)
     SELECT ch.nft_id AS "changedId", ${INDEX_COLUMNS} FROM ch LEFT JOIN nfts n ON n.id = ch.nft_id ${INDEX_JOINS}`,
    [sinceXid],
    { name: "catalogue_index_changes" },
  );
  const rows: IndexedNftRow[] = [];
  const deleted: string[] = [];
  for (const r of found) {
    if (r.id === null) deleted.push(r.changedId);
    else {
      const { changedId: _, ...row } = r;
      rows.push(row);
    }
  }
  return { rows, deleted };
}

/** Forgets changes of transactions before `beforeXid` (every reader has read them). */
export async function pruneCatalogueChanges(
  database: Pick<Database, "query">,
  beforeXid: string,
): Promise<void> {
  await database.query("DELETE FROM catalogue_changes WHERE xid < $1::xid8", [beforeXid]);
}

const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `nfts_list_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    statementNames.set(text, name);
  }
  return name;
}

export async function findNft(db: Db, id: string) {
  const rows = await db
    .select({
      summary: summaryColumns,
      description: nfts.description,
      about: nfts.about,
      category: nfts.category,
      filmId: nfts.filmId,
      celebrityId: nfts.celebrityId,
      studioSlug: productionHouses.slug,
      studioName: productionHouses.name,
      collectionSlug: collections.slug,
      collectionName: collections.name,
      imageUrl: nfts.imageUrl,
      videoUrl: nfts.videoUrl,
      exclusiveRewards: nfts.exclusiveRewards,
      royaltyBps: nfts.royaltyBps,
      blockchain: nfts.blockchain,
      auctionDurationDays: nfts.auctionDurationDays,
    })
    .from(nfts)
    .innerJoin(films, eq(films.id, nfts.filmId))
    .innerJoin(celebrities, eq(celebrities.id, nfts.celebrityId))
    .innerJoin(productionHouses, eq(productionHouses.id, nfts.productionHouseId))
    .leftJoin(collections, eq(collections.id, nfts.collectionId))
    .where(eq(nfts.id, id))
    .limit(1);
  const row = rows[0];
  return row ? { ...row, summary: row.summary as NftSummaryRow } : undefined;
}

/** "More NFTs you might like": newest of the same film, then of the same star. */
export async function relatedNfts(
  db: Db,
  nft: { id: string; filmId: number; celebrityId: number },
  limit: number,
): Promise<NftSummaryRow[]> {
  const sameFilm = (await summaries(db)
    .where(and(eq(nfts.filmId, nft.filmId), ne(nfts.id, nft.id)))
    .orderBy(desc(nfts.createdAt), desc(nfts.id))
    .limit(limit)) as NftSummaryRow[];
  if (sameFilm.length >= limit) return sameFilm;
  const sameStar = (await summaries(db)
    .where(and(eq(nfts.celebrityId, nft.celebrityId), ne(nfts.id, nft.id), ne(nfts.filmId, nft.filmId)))
    .orderBy(desc(nfts.createdAt), desc(nfts.id))
    .limit(limit - sameFilm.length)) as NftSummaryRow[];
  return [...sameFilm, ...sameStar];
}

const filmColumns = {
  id: films.id,
  slug: films.slug,
  name: films.name,
  tagline: films.tagline,
  description: films.description,
  posterUrl: films.posterUrl,
  bannerUrl: films.bannerUrl,
  thumbnailUrl: films.thumbnailUrl,
  releaseYear: films.releaseYear,
  note: films.note,
  productionHouseId: films.productionHouseId,
};

/** NFT counts per film id. */
export async function nftCountsByFilm(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .select({ filmId: nfts.filmId, n: sql<number>`count(*)::int` })
    .from(nfts)
    .groupBy(nfts.filmId);
  return new Map(rows.map((r) => [r.filmId, Number(r.n)]));
}

export async function listFilms(db: Db) {
  return db.select(filmColumns).from(films).orderBy(asc(films.displayOrder), asc(films.id));
}

export async function findFilm(db: Db, slug: string) {
  const rows = await db
    .select({
      ...filmColumns,
      studioSlug: productionHouses.slug,
      studioName: productionHouses.name,
      nftCount: sql<number>`(SELECT count(*)::int FROM nfts WHERE nfts.film_id = ${films.id})`,
    })
    .from(films)
    .leftJoin(productionHouses, eq(productionHouses.id, films.productionHouseId))
    .where(eq(films.slug, slug))
    .limit(1);
  return rows[0];
}

export async function filmCast(db: Db, filmId: number) {
  return db
    .select({ slug: celebrities.slug, name: celebrities.name })
    .from(filmCelebrities)
    .innerJoin(celebrities, eq(celebrities.id, filmCelebrities.celebrityId))
    .where(eq(filmCelebrities.filmId, filmId))
    .orderBy(asc(filmCelebrities.billingOrder), asc(celebrities.slug));
}

export async function filmNfts(db: Db, filmId: number, limit: number): Promise<NftSummaryRow[]> {
  return (await summaries(db)
    .where(eq(nfts.filmId, filmId))
    .orderBy(desc(nfts.createdAt), desc(nfts.id))
    .limit(limit)) as NftSummaryRow[];
}

export async function listCollections(db: Db) {
  return db
    .select({
      slug: collections.slug,
      name: collections.name,
      description: collections.description,
      filmId: collections.filmId,
      bannerUrl: collections.bannerUrl,
      thumbnailUrl: collections.thumbnailUrl,
      href: collections.href,
      isFeatured: collections.isFeatured,
      isHot: collections.isHot,
      comingSoon: collections.comingSoon,
      displayOrder: collections.displayOrder,
      hotOrder: collections.hotOrder,
    })
    .from(collections)
    .where(sql`${collections.isFeatured} OR ${collections.isHot}`);
}

/** Best sellers: most editions sold, then most recent. */
export async function topSellers(db: Db, limit: number): Promise<NftSummaryRow[]> {
  return (await summaries(db)
    .orderBy(sql`(${nfts.editionSize} - ${nfts.editionsAvailable}) DESC`, desc(nfts.createdAt), desc(nfts.id))
    .limit(limit)) as NftSummaryRow[];
}

/** Films and stars that have NFTs, and the price range, for the filter controls. */
export async function filterValues(db: Db) {
  const filmRows = await db
    .select({ slug: films.slug, name: films.name })
    .from(films)
    .where(sql`EXISTS (SELECT 1 FROM nfts WHERE nfts.film_id = ${films.id})`)
    .orderBy(asc(films.displayOrder), asc(films.id));
  const celebRows = await db
    .select({ slug: celebrities.slug, name: celebrities.name })
    .from(celebrities)
    .where(sql`EXISTS (SELECT 1 FROM nfts WHERE nfts.celebrity_id = ${celebrities.id})`)
    .orderBy(asc(celebrities.name));
  const range = rowsOf<{ min: number | string | null; max: number | string | null }>(
    await db.execute(sql`SELECT min(price_usd_cents) AS min, max(price_usd_cents) AS max FROM nfts`),
  )[0];
  return {
    films: filmRows,
    celebrities: celebRows,
    minPriceUsdCents: Number(range?.min ?? 0),
    maxPriceUsdCents: Number(range?.max ?? 0),
  };
}

export async function listPartners(db: Db) {
  return db
    .select({ slug: productionHouses.slug, name: productionHouses.name, logoUrl: productionHouses.logoUrl })
    .from(productionHouses)
    .where(eq(productionHouses.isPartner, true))
    .orderBy(asc(productionHouses.displayOrder), asc(productionHouses.id));
}

export async function listTeam(db: Db) {
  return db
    .select({ name: teamMembers.name, role: teamMembers.role, avatarUrl: teamMembers.avatarUrl })
    .from(teamMembers)
    .orderBy(asc(teamMembers.displayOrder), asc(teamMembers.id));
}

/** What a minted token's metadata shows of its catalogue NFT (the ERC-721 JSON's fields and traits). */
function chainNftSelect(db: Db) {
  return db
    .select({
      id: nfts.id,
      catalogueNumber: nfts.catalogueNumber,
      title: nfts.title,
      description: nfts.description,
      tier: nfts.tier,
      category: nfts.category,
      imageUrl: nfts.imageUrl,
      videoUrl: nfts.videoUrl,
      editionSize: nfts.editionSize,
      film: films.name,
      celebrity: celebrities.name,
      productionHouse: productionHouses.name,
    })
    .from(nfts)
    .innerJoin(films, eq(films.id, nfts.filmId))
    .innerJoin(celebrities, eq(celebrities.id, nfts.celebrityId))
    .innerJoin(productionHouses, eq(productionHouses.id, nfts.productionHouseId));
}

/** What the chain side needs of NFTs it knows by catalogue number (token metadata, token → NFT id). */
export async function nftsByCatalogueNumber(db: Db, numbers: number[]) {
  if (!numbers.length) return [];
  return chainNftSelect(db).where(inArray(nfts.catalogueNumber, numbers));
}

/** Which catalogue NFTs an edit of one NFT, film, star or production house can change the metadata of. */
export type MetadataSubject =
  | { nftId: string }
  | { filmId: number }
  | { celebrityId: number }
  | { productionHouseId: number };

/** The metadata fields (as nftsByCatalogueNumber reads them) of the NFTs `of` names, by catalogue number. */
export async function metadataSourcesOf(db: Db, of: MetadataSubject) {
  const where =
    "nftId" in of
      ? eq(nfts.id, of.nftId)
      : "filmId" in of
        ? eq(nfts.filmId, of.filmId)
        : "celebrityId" in of
          ? eq(nfts.celebrityId, of.celebrityId)
          : eq(nfts.productionHouseId, of.productionHouseId);
  return chainNftSelect(db).where(where).orderBy(nfts.catalogueNumber);
}

/** The catalogue number of NFT `id` (the number the contracts know it by). */
export async function catalogueNumberOf(db: Db, id: string): Promise<number | undefined> {
  const rows = await db.select({ n: nfts.catalogueNumber }).from(nfts).where(eq(nfts.id, id)).limit(1);
  return rows[0]?.n ?? undefined;
}

/** Raw SQL, on the database or inside a transaction (Tx.query has this shape). */
export type { Query } from "../../db/query.ts";

export interface PurchaseTermsRow {
  id: string;
  title: string;
  image_url: string;
  sale_type: "fixed" | "auction";
  price_usd_cents: string;
  edition_size: number;
  editions_available: number;
  catalogue_number: string;
  royalty_bps: number;
  auction_duration_days: number | null;
  payout_address: string | null;
}

const PURCHASE_TERMS = `SELECT n.id, n.title, n.image_url, n.sale_type, n.price_usd_cents, n.edition_size,
    n.editions_available, n.catalogue_number, n.royalty_bps, n.auction_duration_days, p.payout_address
  FROM nfts n JOIN production_houses p ON p.id = n.production_house_id`;

/** What a purchase or a primary auction needs of one NFT; `lock` holds the row until the transaction ends. */
export async function purchaseTerms(
  q: Query,
  id: string,
  lock = false,
): Promise<PurchaseTermsRow | undefined> {
  const rows = await q<PurchaseTermsRow>(
    `${PURCHASE_TERMS} WHERE n.id = $1${lock ? " FOR UPDATE OF n" : ""}`,
    [id],
  );
  return rows[0];
}

/** What a purchase needs of several NFTs, in one query (lists of orders). */
export async function purchaseTermsMany(q: Query, ids: string[]): Promise<PurchaseTermsRow[]> {
  if (ids.length === 0) return [];
  return q<PurchaseTermsRow>(`${PURCHASE_TERMS} WHERE n.id = ANY($1::text[])`, [ids]);
}

/** Auction NFTs with an edition left to put up for auction. */
export async function auctionNftsWithEditions(q: Query): Promise<PurchaseTermsRow[]> {
  return q<PurchaseTermsRow>(
    `${PURCHASE_TERMS} WHERE n.sale_type = 'auction' AND n.editions_available > 0 ORDER BY n.catalogue_number`,
  );
}

/** Takes one available edition; false when none is left. */
export async function takeEdition(q: Query, id: string): Promise<boolean> {
  const rows = await q(
    "UPDATE nfts SET editions_available = editions_available - 1 WHERE id = $1 AND editions_available > 0 RETURNING 1",
    [id],
  );
  return rows.length > 0;
}

/** Gives an edition back (a reservation that lapsed); never above the edition size. */
export async function returnEdition(q: Query, id: string): Promise<void> {
  await q("UPDATE nfts SET editions_available = LEAST(edition_size, editions_available + 1) WHERE id = $1", [
    id,
  ]);
}

// ---- writes of the studio console (decision 132); the service decides, these only query

export type StudioRow = typeof productionHouses.$inferSelect;
export type CelebrityRow = typeof celebrities.$inferSelect;
export type FilmRow = typeof films.$inferSelect;
export type NftRow = typeof nfts.$inferSelect;
export type NewStudio = typeof productionHouses.$inferInsert;
export type NewCelebrity = typeof celebrities.$inferInsert;
export type NewFilm = typeof films.$inferInsert;
export type NewNft = Omit<typeof nfts.$inferInsert, "searchText" | "sortTitle" | "catalogueNumber">;

/**
 * A change that sets nothing (every field absent): the row is read, not updated (an UPDATE with
 * no column is no statement, and drizzle throws "No values to set").
 */
const nothingToSet = (v: object) => Object.values(v).every((x) => x === undefined);

export function allStudios(db: Db): Promise<StudioRow[]> {
  return db.select().from(productionHouses).orderBy(asc(productionHouses.name), asc(productionHouses.id));
}
export async function studioById(db: Db, id: number): Promise<StudioRow | undefined> {
  return (await db.select().from(productionHouses).where(eq(productionHouses.id, id)).limit(1))[0];
}
export async function insertStudio(db: Db, v: NewStudio): Promise<StudioRow> {
  const [row] = await db.insert(productionHouses).values(v).returning();
  return row as StudioRow;
}
export async function updateStudio(
  db: Db,
  id: number,
  v: Partial<NewStudio>,
): Promise<StudioRow | undefined> {
  if (nothingToSet(v)) return studioById(db, id);
  return (await db.update(productionHouses).set(v).where(eq(productionHouses.id, id)).returning())[0];
}

export function allCelebrities(db: Db): Promise<CelebrityRow[]> {
  return db.select().from(celebrities).orderBy(asc(celebrities.name), asc(celebrities.id));
}
export async function celebrityById(db: Db, id: number): Promise<CelebrityRow | undefined> {
  return (await db.select().from(celebrities).where(eq(celebrities.id, id)).limit(1))[0];
}
export async function insertCelebrity(db: Db, v: NewCelebrity): Promise<CelebrityRow> {
  const [row] = await db.insert(celebrities).values(v).returning();
  return row as CelebrityRow;
}
export async function updateCelebrity(
  db: Db,
  id: number,
  v: Partial<NewCelebrity>,
): Promise<CelebrityRow | undefined> {
  if (nothingToSet(v)) return celebrityById(db, id);
  return (await db.update(celebrities).set(v).where(eq(celebrities.id, id)).returning())[0];
}

/** Films, optionally of one production house only. */
export function allFilms(db: Db, houseId?: number): Promise<FilmRow[]> {
  return db
    .select()
    .from(films)
    .where(houseId === undefined ? undefined : eq(films.productionHouseId, houseId))
    .orderBy(asc(films.name), asc(films.id));
}
export async function filmById(db: Db, id: number): Promise<FilmRow | undefined> {
  return (await db.select().from(films).where(eq(films.id, id)).limit(1))[0];
}
export async function insertFilm(db: Db, v: NewFilm): Promise<FilmRow> {
  const [row] = await db.insert(films).values(v).returning();
  return row as FilmRow;
}
export async function updateFilm(db: Db, id: number, v: Partial<NewFilm>): Promise<FilmRow | undefined> {
  if (nothingToSet(v)) return filmById(db, id);
  return (await db.update(films).set(v).where(eq(films.id, id)).returning())[0];
}

/** NFTs newest first, optionally of one production house only (at most `limit`). */
export function allNfts(db: Db, o: { houseId?: number; limit: number }): Promise<NftRow[]> {
  return db
    .select()
    .from(nfts)
    .where(o.houseId === undefined ? undefined : eq(nfts.productionHouseId, o.houseId))
    .orderBy(desc(nfts.createdAt), desc(nfts.id))
    .limit(o.limit);
}
export async function nftById(db: Db, id: string): Promise<NftRow | undefined> {
  return (await db.select().from(nfts).where(eq(nfts.id, id)).limit(1))[0];
}
export async function insertNft(db: Db, v: NewNft): Promise<NftRow> {
  const [row] = await db.insert(nfts).values(v).returning();
  return row as NftRow;
}
export async function updateNft(db: Db, id: string, v: Partial<NewNft>): Promise<NftRow | undefined> {
  if (nothingToSet(v)) return nftById(db, id);
  return (await db.update(nfts).set(v).where(eq(nfts.id, id)).returning())[0];
}

/** Moves a film's NFTs to its new production house. */
export async function moveFilmNfts(db: Db, filmId: number, houseId: number): Promise<void> {
  await db.update(nfts).set({ productionHouseId: houseId }).where(eq(nfts.filmId, filmId));
}

/** The production house of each NFT named by catalogue number or by id (the studio earnings, decision 174). */
export function nftHouses(db: Db, numbers: number[], ids: string[]) {
  return db
    .select({ id: nfts.id, catalogueNumber: nfts.catalogueNumber, houseId: nfts.productionHouseId })
    .from(nfts)
    .where(
      or(
        inArray(nfts.catalogueNumber, numbers.length ? numbers : [-1]),
        inArray(nfts.id, ids.length ? ids : [""]),
      ),
    );
}
