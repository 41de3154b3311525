import { createHash } from "node:crypto";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { sql } from "drizzle-orm";
import { avatarSvg, bannerSvg, logoSvg, nftArtSvg, posterSvg, prng } from "./artwork/svg.ts";
import { type ArtworkFile, writeArtwork } from "./artwork/write.ts";
import type { Storage } from "../src/lib/storage/storage.ts";
import { rowsOf } from "../src/lib/rate-limit.ts";
import {
  seedCelebrities,
  seedCollections,
  seedFilms,
  seedNfts,
  seedStudios,
  seedTeam,
} from "./catalogue-data.ts";
import type { Db } from "../src/db/client.ts";
import {
  celebrities,
  collections,
  filmCelebrities,
  films,
  nfts,
  productionHouses,
  teamMembers,
} from "../src/modules/catalogue/tables.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A stable, short, URL-safe public id derived from a seed slug (same slug → same id everywhere). */
export function nftPublicId(slug: string): string {
  const digest = createHash("sha256").update(`diginoor-nft:${slug}`).digest();
  let out = "";
  for (let i = 0; i < 10; i++) out += BASE62[(digest[i] as number) % 62];
  return out;
}

/** Storage keys (URLs under /media/) of the seed artwork, written through the media storage. */
export const mediaPaths = {
  nftImage: (slug: string) => `catalogue/nfts/${slug}.svg`,
  nftThumb: (slug: string) => `catalogue/nfts/${slug}.webp`,
  poster: (slug: string) => `catalogue/films/${slug}-poster.svg`,
  posterThumb: (slug: string) => `catalogue/films/${slug}-poster.webp`,
  banner: (slug: string) => `catalogue/films/${slug}-banner.svg`,
  collectionBanner: (slug: string) => `catalogue/collections/${slug}-banner.svg`,
  collectionThumb: (slug: string) => `catalogue/collections/${slug}.webp`,
  logo: (slug: string) => `catalogue/partners/${slug}.svg`,
  avatar: (slug: string) => `catalogue/team/${slug}.svg`,
};
const url = (p: string) => `/media/${p}`;

function byKey<T>(items: T[], key: (t: T) => string): Map<string, T> {
  return new Map(items.map((i) => [key(i), i]));
}

/** Every picture of the seed catalogue, as files to write if missing. */
export function catalogueArtwork(): ArtworkFile[] {
  const filmsBySlug = byKey(seedFilms, (f) => f.slug);
  const celebsBySlug = byKey(seedCelebrities, (c) => c.slug);
  const files: ArtworkFile[] = [];
  for (const n of seedNfts) {
    const film = filmsBySlug.get(n.film);
    const celeb = celebsBySlug.get(n.celebrity);
    if (!film || !celeb) throw new Error(`Seed NFT ${n.slug} names an unknown film or star`);
    files.push({
      svgPath: mediaPaths.nftImage(n.slug),
      webp: { path: mediaPaths.nftThumb(n.slug), width: 360 },
      render: () =>
        nftArtSvg({
          seed: n.slug,
          title: n.title,
          filmName: film.name,
          filmSlug: film.slug,
          celebrityName: celeb.name,
          tier: n.tier,
          category: n.category,
          editionSize: n.editionSize,
        }),
    });
  }
  for (const film of seedFilms) {
    files.push({
      svgPath: mediaPaths.poster(film.slug),
      webp: { path: mediaPaths.posterThumb(film.slug), width: 300 },
      render: () =>
        posterSvg({
          slug: film.slug,
          name: film.name,
          tagline: film.tagline,
          year: film.releaseYear,
          credit: film.credit,
        }),
    });
    files.push({
      svgPath: mediaPaths.banner(film.slug),
      render: () => bannerSvg({ slug: film.slug, name: film.name, tagline: film.tagline }),
    });
  }
  for (const c of seedCollections.filter((c) => c.comingSoon)) {
    files.push({
      svgPath: mediaPaths.collectionBanner(c.slug),
      webp: { path: mediaPaths.collectionThumb(c.slug), width: 300 },
      render: () =>
        bannerSvg({ slug: c.slug, name: c.name, tagline: c.description, paletteKey: "nonfungiblespb" }),
    });
  }
  for (const s of seedStudios) files.push({ svgPath: mediaPaths.logo(s.slug), render: () => logoSvg(s) });
  for (const m of seedTeam) files.push({ svgPath: mediaPaths.avatar(m.slug), render: () => avatarSvg(m) });
  return files;
}

export interface SeedOptions {
  /** Write the artwork into this media storage; omit to skip files (tests, benchmarks). */
  storage?: Storage;
  /** Reference time for creation dates and auction deadlines (default: now). */
  now?: Date;
}

export interface SeedResult {
  /** False when the catalogue already had data and nothing was inserted. */
  seeded: boolean;
  counts: {
    studios: number;
    films: number;
    celebrities: number;
    collections: number;
    nfts: number;
    team: number;
  };
  artworkFilesWritten: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Creates the launch catalogue when the database has none (idempotent: a second call, or a second
 * process starting at the same time, inserts nothing). Artwork files are written when missing.
 */
export async function seedCatalogue(db: Db, opts: SeedOptions = {}): Promise<SeedResult> {
  const now = opts.now ?? new Date();
  const counts = { studios: 0, films: 0, celebrities: 0, collections: 0, nfts: 0, team: 0 };

  const seeded = await db.transaction(async (tx) => {
    // Serialise concurrent seeders (several server processes starting against one database).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727273)`);
    const existing = rowsOf<{ n: number }>(await tx.execute(sql`SELECT count(*)::int AS n FROM films`));
    if (Number(existing[0]?.n ?? 0) > 0) return false;

    const studioRows = await tx
      .insert(productionHouses)
      .values(
        seedStudios.map((s, i) => ({
          slug: s.slug,
          name: s.name,
          description: s.description,
          logoUrl: url(mediaPaths.logo(s.slug)),
          isPartner: true,
          displayOrder: i + 1,
          // Demo payout addresses: anvil's public dev accounts 5-7, so local crypto sales and royalties
          // land somewhere visible (the browser tests' buyers use other accounts). A real studio's
          // address is set in the studio console.
          payoutAddress: ANVIL_ADDRESSES[5 + (i % 3)],
        })),
      )
      .returning({ id: productionHouses.id, slug: productionHouses.slug });
    const studioId = new Map(studioRows.map((r) => [r.slug, r.id]));
    counts.studios = studioRows.length;

    const celebRows = await tx
      .insert(celebrities)
      .values(seedCelebrities.map((c) => ({ slug: c.slug, name: c.name, bio: c.bio })))
      .returning({ id: celebrities.id, slug: celebrities.slug });
    const celebId = new Map(celebRows.map((r) => [r.slug, r.id]));
    counts.celebrities = celebRows.length;

    const filmRows = await tx
      .insert(films)
      .values(
        seedFilms.map((f, i) => ({
          slug: f.slug,
          name: f.name,
          tagline: f.tagline,
          description: f.description,
          releaseYear: f.releaseYear,
          productionHouseId: must(studioId, f.studio),
          posterUrl: url(mediaPaths.poster(f.slug)),
          bannerUrl: url(mediaPaths.banner(f.slug)),
          thumbnailUrl: url(mediaPaths.posterThumb(f.slug)),
          note: f.note,
          displayOrder: i + 1,
        })),
      )
      .returning({ id: films.id, slug: films.slug });
    const filmId = new Map(filmRows.map((r) => [r.slug, r.id]));
    counts.films = filmRows.length;

    await tx.insert(filmCelebrities).values(
      seedFilms.flatMap((f) =>
        f.cast.map((c, i) => ({
          filmId: must(filmId, f.slug),
          celebrityId: must(celebId, c.celebrity),
          role: c.role,
          billingOrder: i + 1,
        })),
      ),
    );

    const collectionRows = await tx
      .insert(collections)
      .values(
        seedCollections.map((c) => ({
          slug: c.slug,
          name: c.name,
          description: c.description,
          filmId: c.film ? must(filmId, c.film) : null,
          bannerUrl: url(c.film ? mediaPaths.banner(c.film) : mediaPaths.collectionBanner(c.slug)),
          thumbnailUrl: url(c.film ? mediaPaths.posterThumb(c.film) : mediaPaths.collectionThumb(c.slug)),
          href: c.film ? `/${c.film}` : null,
          isFeatured: c.featuredOrder !== null,
          isHot: c.hotOrder !== null,
          comingSoon: c.comingSoon,
          displayOrder: c.featuredOrder ?? 0,
          hotOrder: c.hotOrder ?? 0,
        })),
      )
      .returning({ id: collections.id, slug: collections.slug });
    const collectionOfFilm = new Map(
      seedCollections
        .filter((c) => c.film)
        .map((c) => [c.film as string, must(new Map(collectionRows.map((r) => [r.slug, r.id])), c.slug)]),
    );
    counts.collections = collectionRows.length;

    const filmsBySlug = byKey(seedFilms, (f) => f.slug);
    const studiosBySlug = byKey(seedStudios, (s) => s.slug);
    const nftRows = await tx
      .insert(nfts)
      .values(
        seedNfts.map((n, i) => {
          const film = filmsBySlug.get(n.film);
          if (!film) throw new Error(`Seed NFT ${n.slug}: unknown film ${n.film}`);
          const studio = studiosBySlug.get(film.studio);
          const rnd = prng(`editions:${n.slug}`);
          // Some editions already sold (deterministic), at least one left of each.
          const sold = n.editionSize === 1 ? 0 : Math.floor(n.editionSize * (0.05 + rnd() * 0.6));
          return {
            id: nftPublicId(n.slug),
            title: n.title,
            description: n.description,
            about: studio
              ? `${film.name} collectibles are produced with ${studio.name}. ${studio.description} Every token is licensed by the studio and the artists' estates, and 10% of every resale goes back to them.`
              : "",
            tier: n.tier,
            category: n.category,
            filmId: must(filmId, n.film),
            celebrityId: must(celebId, n.celebrity),
            productionHouseId: must(studioId, film.studio),
            collectionId: collectionOfFilm.get(n.film) ?? null,
            imageUrl: url(mediaPaths.nftImage(n.slug)),
            videoUrl: null,
            thumbnailUrl: url(mediaPaths.nftThumb(n.slug)),
            editionSize: n.editionSize,
            editionsAvailable: n.editionSize - sold,
            exclusiveRewards: n.exclusiveRewards ?? "",
            saleType: n.saleType,
            priceUsdCents: n.priceUsdCents,
            auctionDurationDays: n.saleType === "auction" ? (n.auctionDays ?? 7) : null,
            auctionEndsAt:
              n.saleType === "auction" && n.endsInDays !== undefined
                ? new Date(Math.floor((now.getTime() + n.endsInDays * DAY) / 60_000) * 60_000)
                : null,
            royaltyBps: 1000,
            // Newest first in list order; three hours apart.
            createdAt: new Date(now.getTime() - (i + 1) * 3 * HOUR),
          };
        }),
      )
      .returning({ id: nfts.id });
    counts.nfts = nftRows.length;

    const teamRows = await tx
      .insert(teamMembers)
      .values(
        seedTeam.map((m, i) => ({
          slug: m.slug,
          name: m.name,
          role: m.role,
          avatarUrl: url(mediaPaths.avatar(m.slug)),
          displayOrder: i + 1,
        })),
      )
      .returning({ id: teamMembers.id });
    counts.team = teamRows.length;
    return true;
  });

  const artworkFilesWritten = opts.storage ? await writeArtwork(opts.storage, catalogueArtwork()) : 0;
  return { seeded, counts, artworkFilesWritten };
}

function must<K, V>(map: Map<K, V>, key: K): V {
  const v = map.get(key);
  if (v === undefined) throw new Error(`Seed data refers to unknown ${String(key)}`);
  return v;
}
