// Drizzle definitions of the catalogue tables; they mirror migrations/0002_catalogue.sql exactly
// (the SQL file is the source of truth: COLLATE "C", CHECK constraints and the search_text triggers
// live there).
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

export const nftTier = pgEnum("nft_tier", ["common", "rare", "ultimate", "legendary"]);
export const nftSaleType = pgEnum("nft_sale_type", ["fixed", "auction"]);

export const productionHouses = pgTable("production_houses", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  logoUrl: text("logo_url").notNull(),
  isPartner: boolean("is_partner").notNull().default(true),
  displayOrder: integer("display_order").notNull().default(0),
  /** Where the studio is paid on chain and its royalties go (migrations/0084); null: no crypto sales yet. */
  payoutAddress: text("payout_address"),
});

export const films = pgTable("films", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  tagline: text("tagline").notNull().default(""),
  description: text("description").notNull().default(""),
  releaseYear: integer("release_year"),
  productionHouseId: integer("production_house_id").references(() => productionHouses.id),
  posterUrl: text("poster_url").notNull(),
  bannerUrl: text("banner_url").notNull(),
  thumbnailUrl: text("thumbnail_url").notNull(),
  note: text("note"),
  displayOrder: integer("display_order").notNull().default(0),
});

export const celebrities = pgTable("celebrities", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  bio: text("bio").notNull().default(""),
});

export const filmCelebrities = pgTable(
  "film_celebrities",
  {
    filmId: integer("film_id")
      .notNull()
      .references(() => films.id, { onDelete: "cascade" }),
    celebrityId: integer("celebrity_id")
      .notNull()
      .references(() => celebrities.id, { onDelete: "cascade" }),
    role: text("role").notNull().default(""),
    billingOrder: integer("billing_order").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.filmId, t.celebrityId] }),
    index("film_celebrities_celebrity_idx").on(t.celebrityId),
  ],
);

export const collections = pgTable("collections", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  filmId: integer("film_id").references(() => films.id),
  bannerUrl: text("banner_url").notNull(),
  thumbnailUrl: text("thumbnail_url").notNull(),
  href: text("href"),
  isFeatured: boolean("is_featured").notNull().default(false),
  isHot: boolean("is_hot").notNull().default(false),
  comingSoon: boolean("coming_soon").notNull().default(false),
  displayOrder: integer("display_order").notNull().default(0),
  hotOrder: integer("hot_order").notNull().default(0),
});

export const nfts = pgTable(
  "nfts",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    sortTitle: text("sort_title").generatedAlwaysAs(sql`lower(title)`),
    description: text("description").notNull().default(""),
    about: text("about").notNull().default(""),
    tier: nftTier("tier").notNull(),
    category: text("category").notNull(),
    filmId: integer("film_id")
      .notNull()
      .references(() => films.id),
    celebrityId: integer("celebrity_id")
      .notNull()
      .references(() => celebrities.id),
    productionHouseId: integer("production_house_id")
      .notNull()
      .references(() => productionHouses.id),
    collectionId: integer("collection_id").references(() => collections.id),
    imageUrl: text("image_url").notNull(),
    videoUrl: text("video_url"),
    thumbnailUrl: text("thumbnail_url").notNull(),
    editionSize: integer("edition_size").notNull(),
    editionsAvailable: integer("editions_available").notNull(),
    exclusiveRewards: text("exclusive_rewards").notNull().default(""),
    saleType: nftSaleType("sale_type").notNull(),
    /** USD cents; the reserve price for auctions. */
    priceUsdCents: bigint("price_usd_cents", { mode: "number" }).notNull(),
    auctionDurationDays: integer("auction_duration_days"),
    auctionEndsAt: timestamp("auction_ends_at", { withTimezone: true }),
    royaltyBps: integer("royalty_bps").notNull().default(1000),
    blockchain: text("blockchain").notNull().default("Polygon"),
    /** Maintained by the nfts_search_text_trg trigger; never written by the application. */
    searchText: text("search_text").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Number the contracts know this NFT by (added by migrations/0011_nft_catalogue_number.sql). */
    catalogueNumber: bigint("catalogue_number", { mode: "number" }).generatedByDefaultAsIdentity().unique(),
  },
  (t) => [
    index("nfts_newest_idx").on(t.createdAt, t.id),
    index("nfts_price_idx").on(t.priceUsdCents, t.id),
    index("nfts_title_idx").on(t.sortTitle, t.id),
    index("nfts_tier_newest_idx").on(t.tier, t.createdAt, t.id),
    index("nfts_tier_price_idx").on(t.tier, t.priceUsdCents, t.id),
    index("nfts_film_newest_idx").on(t.filmId, t.createdAt, t.id),
    index("nfts_film_price_idx").on(t.filmId, t.priceUsdCents, t.id),
    index("nfts_celebrity_newest_idx").on(t.celebrityId, t.createdAt, t.id),
    index("nfts_celebrity_price_idx").on(t.celebrityId, t.priceUsdCents, t.id),
    index("nfts_sale_type_newest_idx").on(t.saleType, t.createdAt, t.id),
    index("nfts_sale_type_price_idx").on(t.saleType, t.priceUsdCents, t.id),
    index("nfts_collection_idx").on(t.collectionId),
    index("nfts_production_house_idx").on(t.productionHouseId),
    index("nfts_search_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
  ],
);

export const teamMembers = pgTable("team_members", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  role: text("role").notNull(),
  avatarUrl: text("avatar_url").notNull(),
  displayOrder: integer("display_order").notNull().default(0),
});

/** Tables this module also owns whose Drizzle definitions are not written yet (scripts/check-tables.mjs reads this). */
export const ownedTables = ["catalogue_changes"] as const;
