import type {
  AboutResponse,
  CollectionCard,
  CollectionsResponse,
  FilmDetail,
  FilmSummary,
  ListNftsParsed,
  NftDetail,
  NftListResponse,
} from "@diginoor/api/catalogue";
import { tierLabels } from "@diginoor/api/catalogue";
import type {
  AdminFilm,
  AdminNft,
  Celebrity,
  celebrityInputSchema,
  filmInputSchema,
  nftInputSchema,
  Studio,
  studioInputSchema,
} from "@diginoor/api/admin";
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Database, Db } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { decodeCursor, encodeCursor, type NftCursor } from "./cursor.ts";
import { type Clock, systemClock } from "../../platform/clock.ts";
import type { Tx } from "../../platform/tx.ts";
import * as repo from "./repo.ts";
import { cardJson, toSummary } from "./card.ts";
import type { SearchIndexSync } from "./index-sync.ts";

export type StudioInputParsed = z.output<typeof studioInputSchema>;
export type CelebrityInputParsed = z.output<typeof celebrityInputSchema>;
export type FilmInputParsed = z.output<typeof filmInputSchema>;
export type NftInputParsed = z.output<typeof nftInputSchema>;

/** How many NFTs the film page embeds; the rest are paged through GET /api/v1/nfts?film=… */
export const FILM_PAGE_NFTS = 60;
const TOP_SELLERS = 8;
const NFT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILM_SLUG = /^[a-z0-9-]{1,80}$/;
const RELATED = 6;

export { toSummary };

const PAGE_START = Buffer.from('{"items":[');
const COMMA = Buffer.from(",");

/** What a cursor after a row is made of. */
type CursorKeys = Pick<repo.NftSummaryRow, "id" | "priceUsdCents" | "createdAtMicros" | "sortTitle">;

/** The keyset cursor that continues after row `r`. */
export function cursorAfter(r: CursorKeys, sort: ListNftsParsed["sort"]): NftCursor {
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

/** A tiny time-based cache for the mostly static collection and film overviews (per process). */
class TtlCache<T> {
  private value: { at: number; data: Promise<T> } | undefined;
  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}
  clear(): void {
    this.value = undefined;
  }
  get(load: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    if (this.value && now - this.value.at < this.ttlMs) return this.value.data;
    const data = load();
    this.value = { at: now, data };
    // A failed load is not cached.
    data.catch(() => {
      if (this.value?.data === data) this.value = undefined;
    });
    return data;
  }
}

/**
 * Micro-cache of list pages: identical queries within `ttlMs` share one database round trip
 * (concurrent misses wait for the same query: single flight). Bounded; oldest entries go first.
 */
class PageCache<T> {
  private readonly entries = new Map<string, { at: number; data: Promise<T> }>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: Clock,
  ) {}
  clear(): void {
    this.entries.clear();
  }
  get(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.data;
    if (hit) this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    const data = load();
    this.entries.set(key, { at: now, data });
    data.catch(() => {
      if (this.entries.get(key)?.data === data) this.entries.delete(key);
    });
    return data;
  }
}

/** A list page as the route sends it (UTF-8 JSON), and as a body for callers in the process. */
export interface NftPage {
  json: Buffer;
  readonly body: NftListResponse;
}

export interface SaleTerms {
  id: string;
  title: string;
  saleType: "fixed" | "auction";
  /** USD cents: the fixed price, or the reserve of an auction. */
  priceUsdCents: number;
  editionsAvailable: number;
}

/** What a purchase or a primary auction needs of an NFT (read fresh, never cached). */
export interface PurchaseTerms {
  id: string;
  title: string;
  imageUrl: string;
  saleType: "fixed" | "auction";
  priceUsdCents: number;
  editionSize: number;
  editionsAvailable: number;
  /** The number the contracts know the NFT by. */
  catalogueNumber: bigint;
  royaltyBps: number;
  auctionDurationDays: number | null;
  /** The production house's payout address; null when it has none yet. */
  payoutAddress: string | null;
}

function toPurchaseTerms(r: repo.PurchaseTermsRow): PurchaseTerms {
  return {
    id: r.id,
    title: r.title,
    imageUrl: r.image_url,
    saleType: r.sale_type,
    priceUsdCents: Number(r.price_usd_cents),
    editionSize: r.edition_size,
    editionsAvailable: r.editions_available,
    catalogueNumber: BigInt(r.catalogue_number),
    royaltyBps: r.royalty_bps,
    auctionDurationDays: r.auction_duration_days,
    payoutAddress: r.payout_address,
  };
}

export interface CatalogueServiceOptions {
  /** Lifetime of cached /collections, /films and /about answers (0 disables caching). */
  cacheTtlMs?: number;
  /** Lifetime of cached NFT list pages (0 disables); see docs/decisions/021-catalogue-list-micro-cache.md. */
  listCacheTtlMs?: number;
  /** Time source of the caches (tests move a test clock instead of waiting). */
  clock?: Clock;
  /**
   * The in-memory search index that answers NFT lists once loaded (docs/decisions/023); without it,
   * or while it loads, lists are SQL queries (repo.listNfts).
   */
  searchIndex?: Pick<SearchIndexSync, "ready" | "list" | "catchUp">;
}

/** An NFT as the chain side sees it: what token metadata shows. */
export type ChainNft = Awaited<ReturnType<typeof repo.nftsByCatalogueNumber>>[number] & { tierLabel: string };

export function createCatalogueService(database: Database, opts: CatalogueServiceOptions = {}) {
  const db = database.db;
  const ttl = opts.cacheTtlMs ?? 10_000;
  const clock = opts.clock ?? systemClock;
  const collectionsCache = new TtlCache<CollectionsResponse>(ttl, clock);
  const filmsCache = new TtlCache<{ items: FilmSummary[] }>(ttl, clock);
  const aboutCache = new TtlCache<AboutResponse>(ttl, clock);
  // 500 pages of at most 100 NFTs, each kept as objects and as JSON: a few tens of MB at worst.
  const listCache = new PageCache<NftPage>(opts.listCacheTtlMs ?? 1_000, 500, clock);
  const index = opts.searchIndex;

  async function listNfts(query: ListNftsParsed): Promise<NftListResponse> {
    return (await listNftsPage(query)).body;
  }

  /** A page of NFTs with its JSON text, serialised once per cache entry rather than once per request. */
  async function listNftsPage(query: ListNftsParsed): Promise<NftPage> {
    // The cursor is validated before the cache, so a bad cursor is always a 400.
    const after = query.cursor ? decodeCursor(query.cursor, query.sort) : undefined;
    const key = JSON.stringify([
      query.tier,
      query.film,
      query.celebrity,
      query.saleType,
      query.minPriceCents,
      query.maxPriceCents,
      query.q?.trim().toLowerCase(),
      query.sort,
      query.limit,
      query.cursor,
    ]);
    return listCache.get(key, () => loadNftPage(query, after));
  }

  /**
   * The search index keeps each row's card as UTF-8 JSON (`card`), so a page is those bytes joined: no
   * card objects built, serialised and encoded per request, and little for the garbage collector (under
   * browsing that rarely repeats a query, most requests build a page). The body is parsed back only
   * when asked for (server-rendered pages).
   */
  async function loadNftPage(query: ListNftsParsed, after: NftCursor | undefined): Promise<NftPage> {
    // PostgreSQL text cannot hold NUL, so no NFT can match one: drop it rather than fail.
    const q = query.q?.trim();
    const filter: repo.NftFilter = {
      tier: query.tier,
      film: query.film,
      celebrity: query.celebrity,
      saleType: query.saleType,
      minPriceCents: query.minPriceCents,
      maxPriceCents: query.maxPriceCents,
      q: q ? q : undefined,
    };
    const rows: (CursorKeys & { card: Buffer })[] = index?.ready()
      ? await index.list(filter, query.sort, query.limit, after)
      : (await repo.listNfts(database, { filter, sort: query.sort, limit: query.limit, after })).map((r) => ({
          ...r,
          card: Buffer.from(cardJson(r)),
        }));
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > query.limit && last ? encodeCursor(cursorAfter(last, query.sort)) : null;
    const parts: Buffer[] = [PAGE_START];
    for (const r of page) {
      if (parts.length > 1) parts.push(COMMA);
      parts.push(r.card);
    }
    parts.push(Buffer.from(`],"nextCursor":${JSON.stringify(nextCursor)}}`));
    const json = Buffer.concat(parts);
    let body: NftListResponse | undefined;
    return {
      json,
      get body() {
        body ??= JSON.parse(json.toString()) as NftListResponse;
        return body;
      },
    };
  }

  /** What a sale needs to know about an NFT, read fresh (never from a cache). 404 for unknown ids. */
  async function saleTerms(id: string): Promise<SaleTerms> {
    if (!NFT_ID.test(id)) throw AppError.notFound("NFT");
    const nft = await repo.findNft(db, id);
    if (!nft) throw AppError.notFound("NFT");
    const s = nft.summary;
    return {
      id: s.id,
      title: s.title,
      saleType: s.saleType,
      priceUsdCents: Number(s.priceUsdCents),
      editionsAvailable: s.editionsAvailable,
    };
  }

  async function getNft(id: string): Promise<NftDetail> {
    // Ids are short URL-safe strings; anything else cannot exist (and a NUL byte would upset PostgreSQL).
    if (!NFT_ID.test(id)) throw AppError.notFound("NFT");
    const nft = await repo.findNft(db, id);
    if (!nft) throw AppError.notFound("NFT");
    const s = nft.summary;
    const related = await repo.relatedNfts(
      db,
      { id: s.id, filmId: nft.filmId, celebrityId: nft.celebrityId },
      RELATED,
    );
    const edition = s.editionSize === 1 ? "1 of 1" : `${s.editionsAvailable} of ${s.editionSize} remaining`;
    return {
      ...toSummary(s),
      description: nft.description,
      about: nft.about,
      category: nft.category,
      productionHouse: { slug: nft.studioSlug, name: nft.studioName },
      collection:
        nft.collectionSlug && nft.collectionName
          ? { slug: nft.collectionSlug, name: nft.collectionName }
          : null,
      imageUrl: nft.imageUrl,
      videoUrl: nft.videoUrl,
      exclusiveRewards: nft.exclusiveRewards,
      royaltyBps: nft.royaltyBps,
      blockchain: nft.blockchain,
      properties: [
        { label: "Category", value: nft.category },
        { label: "Movie", value: s.filmName },
        { label: "Celebrity", value: s.celebrityName },
        { label: "Production house", value: nft.studioName },
        { label: "Rarity", value: tierLabels[s.tier] },
        { label: "Edition", value: edition },
        ...(s.saleType === "auction" && nft.auctionDurationDays
          ? [{ label: "Auction length", value: `${nft.auctionDurationDays} days` }]
          : []),
      ],
      related: related.map(toSummary),
    };
  }

  function filmSummary(f: Awaited<ReturnType<typeof repo.listFilms>>[number], nftCount: number): FilmSummary {
    return {
      slug: f.slug,
      name: f.name,
      tagline: f.tagline,
      description: f.description,
      posterUrl: f.posterUrl,
      bannerUrl: f.bannerUrl,
      thumbnailUrl: f.thumbnailUrl,
      releaseYear: f.releaseYear,
      nftCount,
      note: f.note,
    };
  }

  function listFilms(): Promise<{ items: FilmSummary[] }> {
    return filmsCache.get(async () => {
      const [rows, counts] = await Promise.all([repo.listFilms(db), repo.nftCountsByFilm(db)]);
      return { items: rows.map((f) => filmSummary(f, counts.get(f.id) ?? 0)) };
    });
  }

  async function getFilm(slug: string): Promise<FilmDetail> {
    if (!FILM_SLUG.test(slug)) throw AppError.notFound("Film");
    const film = await repo.findFilm(db, slug);
    if (!film) throw AppError.notFound("Film");
    const [cast, items] = await Promise.all([
      repo.filmCast(db, film.id),
      repo.filmNfts(db, film.id, FILM_PAGE_NFTS),
    ]);
    return {
      ...filmSummary(film, Number(film.nftCount)),
      celebrities: cast,
      productionHouse:
        film.studioSlug && film.studioName ? { slug: film.studioSlug, name: film.studioName } : null,
      nfts: items.map(toSummary),
    };
  }

  function getCollections(): Promise<CollectionsResponse> {
    return collectionsCache.get(async () => {
      const [rows, counts, top, filters] = await Promise.all([
        repo.listCollections(db),
        repo.nftCountsByFilm(db),
        repo.topSellers(db, TOP_SELLERS),
        repo.filterValues(db),
      ]);
      const card = (c: (typeof rows)[number]): CollectionCard => ({
        slug: c.slug,
        name: c.name,
        description: c.description,
        bannerUrl: c.bannerUrl,
        thumbnailUrl: c.thumbnailUrl,
        href: c.comingSoon ? null : c.href,
        nftCount: c.filmId ? (counts.get(c.filmId) ?? 0) : 0,
        comingSoon: c.comingSoon,
      });
      return {
        featured: rows
          .filter((c) => c.isFeatured)
          .sort((a, b) => a.displayOrder - b.displayOrder)
          .map(card),
        hot: rows
          .filter((c) => c.isHot)
          .sort((a, b) => a.hotOrder - b.hotOrder)
          .map(card),
        topSellers: top.map(toSummary),
        filters,
      };
    });
  }

  function getAbout(): Promise<AboutResponse> {
    return aboutCache.get(async () => {
      const [partners, team] = await Promise.all([repo.listPartners(db), repo.listTeam(db)]);
      return { partners, team };
    });
  }

  /** NFTs by the number the contracts know them by (token metadata and token → NFT id of the chain side). */
  async function nftsByCatalogueNumber(numbers: number[]): Promise<Map<number, ChainNft>> {
    const rows = await repo.nftsByCatalogueNumber(db, [...new Set(numbers)]);
    return new Map(rows.map((r) => [Number(r.catalogueNumber), { ...r, tierLabel: tierLabels[r.tier] }]));
  }

  /** The catalogue number of NFT `id`; 404 when there is no such NFT. */
  async function catalogueNumberOf(id: string): Promise<number> {
    if (!NFT_ID.test(id)) throw AppError.notFound("NFT");
    const n = await repo.catalogueNumberOf(db, id);
    if (n === undefined) throw AppError.notFound("NFT");
    return n;
  }

  const invalidationListeners = new Set<() => void>();

  return {
    /**
     * Forgets every cached answer of this process (the studio console calls it after each write it
     * commits, here and, through pub/sub, in the other processes), then tells the listeners (the
     * sitemap) to forget theirs.
     */
    invalidate(): void {
      collectionsCache.clear();
      filmsCache.clear();
      aboutCache.clear();
      listCache.clear();
      // The change log reaches the index anyway (notifications, poll); this only hurries it.
      index?.catchUp().catch(() => {});
      for (const listener of invalidationListeners) listener();
    },
    /**
     * Brings the list index up to date with what has committed by now (after the start-up seed, so
     * the first visitor does not wait for the next poll to see the catalogue).
     */
    async catchUpIndex(): Promise<void> {
      await index?.catchUp();
    },
    /** Calls `fn` after every invalidate(); returns what stops it. */
    onInvalidate(fn: () => void): () => void {
      invalidationListeners.add(fn);
      return () => invalidationListeners.delete(fn);
    },
    nftsByCatalogueNumber,
    catalogueNumberOf,
    listNfts,
    listNftsPage,
    getNft,
    saleTerms,
    /** Purchase terms of NFT `id`; inside `tx`, the NFT row stays locked until it ends. 404 for unknown ids. */
    async purchaseTerms(id: string, tx?: Tx): Promise<PurchaseTerms> {
      if (!NFT_ID.test(id)) throw AppError.notFound("NFT");
      const q: repo.Query = tx ? (t, p) => tx.query(t, p) : (t, p) => database.query(t, p);
      const row = await repo.purchaseTerms(q, id, !!tx);
      if (!row) throw AppError.notFound("NFT");
      return toPurchaseTerms(row);
    },
    /** Purchase terms of several NFTs in one query, by id (unknown ids are left out). */
    async purchaseTermsOf(ids: string[]): Promise<Map<string, PurchaseTerms>> {
      const rows = await repo.purchaseTermsMany((t, p) => database.query(t, p), [...new Set(ids)]);
      return new Map(rows.map((r) => [r.id, toPurchaseTerms(r)]));
    },
    /** Auction NFTs that still have an edition to put up for auction. */
    async auctionNftsWithEditions(): Promise<PurchaseTerms[]> {
      return (await repo.auctionNftsWithEditions((t, p) => database.query(t, p))).map(toPurchaseTerms);
    },
    /** Takes one available edition in `tx` (the count on the public pages drops by one); false when sold out. */
    takeEdition: (tx: Tx, id: string) => repo.takeEdition((t, p) => tx.query(t, p), id),
    /** Gives an edition back in `tx` (a lapsed reservation). */
    returnEdition: (tx: Tx, id: string) => repo.returnEdition((t, p) => tx.query(t, p), id),
    listFilms,
    getFilm,
    getCollections,
    getAbout,
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;

// ---- the studio console's catalogue writes (modules/admin calls these inside its transaction,
// with the transaction's `db`; it decides who may, these check the catalogue's own rules)

/** Film pages that predate /films/:slug (the web app's fixed routes, kept for their links). */
export const LEGACY_FILM_PAGES = [
  "kabali",
  "sivaji",
  "chandramukhi",
  "pasumainayaganvivek",
  "nonfungiblespb",
];

/** Where a film's public page is: the old fixed routes, else /films/:slug. */
export function filmHref(slug: string): string {
  return LEGACY_FILM_PAGES.includes(slug) ? `/${slug}` : `/films/${slug}`;
}

export function studioView(r: repo.StudioRow): Studio {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    logoUrl: r.logoUrl,
    isPartner: r.isPartner,
  };
}
export function celebrityView(r: repo.CelebrityRow): Celebrity {
  return { id: r.id, slug: r.slug, name: r.name, bio: r.bio };
}
export function filmView(r: repo.FilmRow): AdminFilm {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    tagline: r.tagline,
    description: r.description,
    releaseYear: r.releaseYear,
    productionHouseId: r.productionHouseId,
    posterUrl: r.posterUrl,
    bannerUrl: r.bannerUrl,
    thumbnailUrl: r.thumbnailUrl,
    note: r.note,
    href: filmHref(r.slug),
  };
}
export function nftView(r: repo.NftRow): AdminNft {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    about: r.about,
    tier: r.tier,
    category: r.category,
    filmId: r.filmId,
    celebrityId: r.celebrityId,
    productionHouseId: r.productionHouseId,
    imageUrl: r.imageUrl,
    thumbnailUrl: r.thumbnailUrl,
    editionSize: r.editionSize,
    editionsAvailable: r.editionsAvailable,
    saleType: r.saleType,
    priceUsdCents: Number(r.priceUsdCents),
    auctionDurationDays: r.auctionDurationDays,
    royaltyBps: r.royaltyBps,
    exclusiveRewards: r.exclusiveRewards,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Runs a write, turning PostgreSQL's refusals into answers: duplicate slug → 409, bad reference → 404. */
async function write<T>(what: string, run: () => Promise<T | undefined>): Promise<T> {
  let result: T | undefined;
  try {
    result = await run();
  } catch (err) {
    const code = pgCode(err);
    if (code === "23505") throw AppError.conflict(`A ${what.toLowerCase()} with this slug exists already`);
    if (code === "23503") throw AppError.notFound("Referenced production house, film or celebrity");
    if (code === "23514") throw AppError.badRequest(`The ${what.toLowerCase()} breaks a catalogue rule`);
    throw err;
  }
  if (result === undefined) throw AppError.notFound(what);
  return result;
}

function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^\d{2}[0-9A-Z]{3}$/.test(e.code)) return e.code;
  }
  return undefined;
}

type Change<T> = { before: T; after: T };

export type { MetadataSubject } from "./repo.ts";

/**
 * The catalogue NFTs whose minted tokens' metadata (the fields nftsByCatalogueNumber reads) differ between two
 * reads of `metadataSources` around a console write: what the ERC-4906 refresh must announce (issue 37).
 */
export const metadataSources = {
  read: (db: Db, of: repo.MetadataSubject) => repo.metadataSourcesOf(db, of),
  changed(
    before: Awaited<ReturnType<typeof repo.metadataSourcesOf>>,
    after: Awaited<ReturnType<typeof repo.metadataSourcesOf>>,
  ): number[] {
    const was = new Map(before.map((r) => [Number(r.catalogueNumber), JSON.stringify(r)]));
    const is = new Map(after.map((r) => [Number(r.catalogueNumber), JSON.stringify(r)]));
    const numbers = new Set([...was.keys(), ...is.keys()]);
    return [...numbers].filter((n) => was.get(n) !== is.get(n)).sort((a, b) => a - b);
  },
};

export const studios = {
  list: async (db: Db, onlyId?: number) =>
    (await repo.allStudios(db)).filter((s) => onlyId === undefined || s.id === onlyId).map(studioView),
  async get(db: Db, id: number): Promise<Studio> {
    const row = await repo.studioById(db, id);
    if (!row) throw AppError.notFound("Studio");
    return studioView(row);
  },
  create: async (db: Db, v: StudioInputParsed) =>
    studioView(await write("Studio", () => repo.insertStudio(db, v))),
  async update(db: Db, id: number, v: Partial<StudioInputParsed>): Promise<Change<Studio>> {
    const before = await studios.get(db, id);
    const after = studioView(await write("Studio", () => repo.updateStudio(db, id, v)));
    return { before, after };
  },
};

export const celebritiesAdmin = {
  list: async (db: Db) => (await repo.allCelebrities(db)).map(celebrityView),
  async get(db: Db, id: number): Promise<Celebrity> {
    const row = await repo.celebrityById(db, id);
    if (!row) throw AppError.notFound("Celebrity");
    return celebrityView(row);
  },
  create: async (db: Db, v: CelebrityInputParsed) =>
    celebrityView(await write("Celebrity", () => repo.insertCelebrity(db, v))),
  async update(db: Db, id: number, v: Partial<CelebrityInputParsed>): Promise<Change<Celebrity>> {
    const before = await celebritiesAdmin.get(db, id);
    const after = celebrityView(await write("Celebrity", () => repo.updateCelebrity(db, id, v)));
    return { before, after };
  },
};

export const filmsAdmin = {
  list: async (db: Db, houseId?: number) => (await repo.allFilms(db, houseId)).map(filmView),
  async get(db: Db, id: number): Promise<AdminFilm> {
    const row = await repo.filmById(db, id);
    if (!row) throw AppError.notFound("Film");
    return filmView(row);
  },
  create: async (db: Db, v: FilmInputParsed) => filmView(await write("Film", () => repo.insertFilm(db, v))),
  /** A film's NFTs move with it when its production house changes (they carry the house too). */
  async update(db: Db, id: number, v: Partial<FilmInputParsed>): Promise<Change<AdminFilm>> {
    const before = await filmsAdmin.get(db, id);
    const after = filmView(await write("Film", () => repo.updateFilm(db, id, v)));
    if (after.productionHouseId !== before.productionHouseId && after.productionHouseId !== null) {
      await repo.moveFilmNfts(db, id, after.productionHouseId);
    }
    return { before, after };
  },
};

/** A new NFT id: 10 URL-safe random characters. */
function newNftId(): string {
  return randomBytes(8).toString("base64url").slice(0, 10);
}

async function houseOfFilm(db: Db, filmId: number): Promise<number> {
  const film = await repo.filmById(db, filmId);
  if (!film) throw AppError.notFound("Film");
  if (film.productionHouseId === null) {
    throw AppError.badRequest("The film has no production house: set one before adding NFTs");
  }
  return film.productionHouseId;
}

export const nftsAdmin = {
  list: async (db: Db, houseId?: number) => (await repo.allNfts(db, { houseId, limit: 1000 })).map(nftView),
  async get(db: Db, id: string): Promise<AdminNft> {
    const row = await repo.nftById(db, id);
    if (!row) throw AppError.notFound("NFT");
    return nftView(row);
  },
  /** The production house an NFT of `filmId` belongs to (its film's). */
  houseOfFilm,
  async create(db: Db, v: NftInputParsed): Promise<AdminNft> {
    const productionHouseId = await houseOfFilm(db, v.filmId);
    if (!(await repo.celebrityById(db, v.celebrityId))) throw AppError.notFound("Celebrity");
    return nftView(
      await write("NFT", () =>
        repo.insertNft(db, {
          ...v,
          id: newNftId(),
          productionHouseId,
          editionsAvailable: v.editionSize,
          auctionDurationDays: v.saleType === "auction" ? v.auctionDurationDays : null,
        }),
      ),
    );
  },
  /**
   * Edition size moves the available count by as much (never below the editions sold); sale type,
   * price and auction length are fixed once an auction's clock runs (it is on chain by then).
   */
  async update(db: Db, id: string, v: Partial<NftInputParsed>): Promise<Change<AdminNft>> {
    const row = await repo.nftById(db, id);
    if (!row) throw AppError.notFound("NFT");
    const before = nftView(row);
    const set: Partial<repo.NewNft> = { ...v };
    if (v.filmId !== undefined) set.productionHouseId = await houseOfFilm(db, v.filmId);
    if (v.celebrityId !== undefined && !(await repo.celebrityById(db, v.celebrityId))) {
      throw AppError.notFound("Celebrity");
    }
    const saleTerms =
      v.saleType !== undefined || v.priceUsdCents !== undefined || v.auctionDurationDays !== undefined;
    if (saleTerms && row.auctionEndsAt !== null) {
      throw AppError.conflict("This NFT's auction has opened: its reserve, length and sale type are fixed");
    }
    const saleType = v.saleType ?? row.saleType;
    const days = v.auctionDurationDays !== undefined ? v.auctionDurationDays : row.auctionDurationDays;
    if (saleType === "fixed") set.auctionDurationDays = null;
    else if (days === null) {
      throw AppError.validation("NFT", [
        { field: "auctionDurationDays", message: "is required for auctions" },
      ]);
    }
    if (v.editionSize !== undefined) {
      const sold = row.editionSize - row.editionsAvailable;
      if (v.editionSize < sold) {
        throw AppError.conflict(`${sold} editions are sold already: the edition size cannot be smaller`);
      }
      set.editionsAvailable = v.editionSize - sold;
    }
    const after = nftView(await write("NFT", () => repo.updateNft(db, id, set)));
    return { before, after };
  },
};

/** The production house of each NFT named by catalogue number or id, read on `db` (a transaction's too). */
export const nftHouses = (db: Db, numbers: number[], ids: string[]) => repo.nftHouses(db, numbers, ids);
