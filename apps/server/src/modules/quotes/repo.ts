import { eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type QuoteRow, quotes } from "./tables.ts";

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
