// Drizzle definitions of the tax module's tables; they mirror migrations/0191_tax_records.sql (the SQL
// is the source of truth: CHECKs, the unique key and the foreign keys to users live there).
import {
  bigint,
  bigserial,
  boolean,
  date,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

export const taxProfiles = pgTable("tax_profiles", {
  userId: uuid("user_id").primaryKey(),
  residence: text("residence").$type<"india" | "elsewhere">().notNull(),
  specifiedPerson: boolean("specified_person").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

export const taxRecords = pgTable("tax_records", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  userId: uuid("user_id").notNull(),
  side: text("side").$type<"purchase" | "sale">().notNull(),
  source: text("source").notNull(),
  financialYear: text("financial_year").notNull(),
  occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
  chainId: integer("chain_id"),
  tokenId: numeric("token_id", { precision: 78, scale: 0 }),
  title: text("title").notNull(),
  paidWith: text("paid_with").$type<"crypto" | "card" | "auction">().notNull(),
  amountWei: numeric("amount_wei", { precision: 78, scale: 0 }),
  symbol: text("symbol"),
  usdCents: bigint("usd_cents", { mode: "bigint" }),
  valuePaise: bigint("value_paise", { mode: "bigint" }).notNull(),
  rateDay: date("rate_day", { mode: "string" }),
  inrMicrosPerUsd: bigint("inr_micros_per_usd", { mode: "bigint" }),
  usdMicrosPerToken: bigint("usd_micros_per_token", { mode: "bigint" }),
  tdsRateBps: integer("tds_rate_bps").notNull(),
  tdsThresholdPaise: bigint("tds_threshold_paise", { mode: "bigint" }),
  tdsPaise: bigint("tds_paise", { mode: "bigint" }).notNull(),
  tdsTreatment: text("tds_treatment")
    .$type<"not_applicable" | "below_threshold" | "deposited_by_diginoor" | "not_withheld">()
    .notNull(),
  acquisitionPaise: bigint("acquisition_paise", { mode: "bigint" }),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
});

export type TaxProfileRow = typeof taxProfiles.$inferSelect;
export type TaxRecordRow = typeof taxRecords.$inferSelect;
