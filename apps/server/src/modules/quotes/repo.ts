import { desc, eq, lt, lte } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type DailyRatesRow, dailyRates, type QuoteRow, quotes } from "./tables.ts";

export async function insertQuote(db: Db, q: Omit<QuoteRow, "id">): Promise<QuoteRow> {
  const [row] = await db.insert(quotes).values(q).returning();
  if (!row) throw new Error("insertQuote: insert returned nothing");
  return row;
}

export async function findQuote(db: Db, id: string): Promise<QuoteRow | undefined> {
  const rows = await db.select().from(quotes).where(eq(quotes.id, id)).limit(1);
  return rows[0];
}

/** Quotes expired over a day ago are of no further use. */
export async function deleteOldQuotes(db: Db, now: Date): Promise<void> {
  await db.delete(quotes).where(lt(quotes.expiresAt, new Date(now.getTime() - 24 * 3600 * 1000)));
}

/** Stores a day's rates unless that day has some already; returns the day's row either way. */
export async function keepDailyRates(db: Db, row: DailyRatesRow): Promise<DailyRatesRow> {
  await db.insert(dailyRates).values(row).onConflictDoNothing();
  const [kept] = await db.select().from(dailyRates).where(eq(dailyRates.day, row.day)).limit(1);
  if (!kept) throw new Error("keepDailyRates: the day's row is missing");
  return kept;
}

/** The stored rates of `day`, or else of the latest day before it that has some. */
export async function dailyRatesOnOrBefore(db: Db, day: string): Promise<DailyRatesRow | undefined> {
  const rows = await db
    .select()
    .from(dailyRates)
    .where(lte(dailyRates.day, day))
    .orderBy(desc(dailyRates.day))
    .limit(1);
  return rows[0];
}
