// Drizzle definition of the quotes table; it mirrors migrations/0071_quotes.sql (the SQL is the source
// of truth: CHECKs and the foreign keys to users and nfts live there).
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull(),
    nftId: text("nft_id").notNull(),
    chainId: integer("chain_id").notNull(),
    symbol: text("symbol").notNull(),
    usdCents: bigint("usd_cents", { mode: "number" }).notNull(),
    priceWei: numeric("price_wei", { precision: 78, scale: 0 }).notNull(),
    usdMicrosPerToken: bigint("usd_micros_per_token", { mode: "bigint" }).notNull(),
    inrMicrosPerUsd: bigint("inr_micros_per_usd", { mode: "bigint" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("quotes_user_idx").on(t.userId, t.createdAt)],
);

export type QuoteRow = typeof quotes.$inferSelect;

/** The day's stored rates (migration 0190): the first answer of the rates provider on each IST day. */
export const dailyRates = pgTable("daily_rates", {
  day: date("day", { mode: "string" }).primaryKey(),
  usdMicrosPerToken: jsonb("usd_micros_per_token").$type<Record<string, string>>().notNull(),
  inrMicrosPerUsd: bigint("inr_micros_per_usd", { mode: "bigint" }).notNull(),
  provider: text("provider").notNull(),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
});

export type DailyRatesRow = typeof dailyRates.$inferSelect;
