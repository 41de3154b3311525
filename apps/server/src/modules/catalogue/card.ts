// An NFT's card as the list shows it, and its JSON text: built from a list row by the SQL list and,
// once per row, by the in-memory search index (search-index.ts), which keeps only the text.
import type { NftSummary } from "@diginoor/api/catalogue";
import type { NftSummaryRow } from "./repo.ts";

/** Drizzle gives Dates; the hand-written list query gives ISO strings formatted by PostgreSQL. */
export const iso = (d: Date | string) => (typeof d === "string" ? d : d.toISOString());

export function toSummary(r: NftSummaryRow): NftSummary {
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

/** The card's JSON text, as a page of the list carries it. */
export const cardJson = (r: NftSummaryRow): string => JSON.stringify(toSummary(r));
