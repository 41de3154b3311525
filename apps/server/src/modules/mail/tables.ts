// Drizzle definition of the mail module's table (the dev mailbox); it mirrors migrations/0003_accounts.sql (and 0101's headers).
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const devMail = pgTable(
  "dev_mail",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    links: jsonb("links").$type<string[]>().notNull().default([]),
    /** Extra headers (migration 0101), e.g. List-Unsubscribe. */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index("dev_mail_created_idx").on(t.createdAt.desc())],
);

/** Tables this module also owns whose Drizzle definitions are not written yet (scripts/check-tables.mjs reads this). */
export const ownedTables = ["mail_deliveries"] as const;
