// Drizzle definition of the newsletter module's table; it mirrors migrations/0002_catalogue.sql.
import { sql } from "drizzle-orm";
import { bigserial, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("newsletter_subscribers_email_idx").on(sql`lower(${t.email})`)],
);
