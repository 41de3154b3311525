import type {
  AboutResponse,
  CollectionCard,
  CollectionsResponse,
  FilmDetail,
  FilmSummary,
  ListNftsParsed,
  NftDetail,
  NftListResponse,
  NftSummary,
} from "@diginoor/api/catalogue";
import { tierLabels } from "@diginoor/api/catalogue";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { decodeCursor, encodeCursor, type NftCursor } from "./cursor.ts";
import { type Clock, systemClock } from "../../platform/clock.ts";
import type { Tx } from "../../platform/tx.ts";
import * as repo from "./repo.ts";

/** How many NFTs the film page embeds; the rest are paged through GET /api/v1/nfts?film=… */
export const FILM_PAGE_NFTS = 60;
const TOP_SELLERS = 8;
const NFT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILM_SLUG = /^[a-z0-9-]{1,80}$/;
const RELATED = 6;

/** Drizzle gives Dates; the hand-written list query gives ISO strings formatted by PostgreSQL. */
const iso = (d: Date | string) => (typeof d === "string" ? d : d.toISOString());

export function toSummary(r: repo.NftSummaryRow): NftSummary {
  return {
    id: r.id,
    title: r.title,
    tier: r.tier,
    film: { slug: r.filmSlug, name: r.filmName },
    celebrity: { slug: r.celebritySlug, name: r.celebrityName },
    priceUsdCents: Number(r.priceUsdCents),
    saleType: r.saleType,
    auctionEndsAt: r.auctionEndsAt === null ? null : iso(r.auctionEndsAt),
    thumbnailUrl: r.thumbnailUrl,
    editionsAvailable: r.editionsAvailable,
    editionSize: r.editionSize,
    createdAt: iso(r.createdAt),
  };
}

function cursorAfter(r: repo.NftSummaryRow, sort: ListNftsParsed["sort"]): NftCursor {
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

export interface NftPage {
  body: NftListResponse;
  json: string;
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
    return listCache.get(key, async () => {
      const body = await loadNftPage(query, after);
      return { body, json: JSON.stringify(body) };
    });
  }

  async function loadNftPage(query: ListNftsParsed, after: NftCursor | undefined): Promise<NftListResponse> {
    // PostgreSQL text cannot hold NUL, so no NFT can match one: drop it rather than fail.
    const q = query.q?.trim();
    const rows = await repo.listNfts(database, {
      filter: {
        tier: query.tier,
        film: query.film,
        celebrity: query.celebrity,
        saleType: query.saleType,
        minPriceCents: query.minPriceCents,
        maxPriceCents: query.maxPriceCents,
        q: q ? q : undefined,
      },
      sort: query.sort,
      limit: query.limit,
      after,
    });
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toSummary),
      nextCursor: rows.length > query.limit && last ? encodeCursor(cursorAfter(last, query.sort)) : null,
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

  return {
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
