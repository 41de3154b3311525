import { and, asc, desc, eq, lte, sql, sum } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type TaxProfileRow, type TaxRecordRow, taxProfiles, taxRecords } from "./tables.ts";

export async function findProfile(db: Db, userId: string): Promise<TaxProfileRow | undefined> {
  const rows = await db.select().from(taxProfiles).where(eq(taxProfiles.userId, userId)).limit(1);
  return rows[0];
}

export async function upsertProfile(db: Db, row: TaxProfileRow): Promise<TaxProfileRow> {
  const [saved] = await db
    .insert(taxProfiles)
    .values(row)
    .onConflictDoUpdate({
      target: taxProfiles.userId,
      set: { residence: row.residence, specifiedPerson: row.specifiedPerson, updatedAt: row.updatedAt },
    })
    .returning();
  if (!saved) throw new Error("upsertProfile: nothing returned");
  return saved;
}

/** Users who declared Indian residence. */
export async function residents(db: Db): Promise<string[]> {
  const rows = await db
    .select({ userId: taxProfiles.userId })
    .from(taxProfiles)
    .where(eq(taxProfiles.residence, "india"));
  return rows.map((r) => r.userId);
}

/** The sources already recorded for a user, as `side|source`. */
export async function recordedSources(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db
    .select({ side: taxRecords.side, source: taxRecords.source })
    .from(taxRecords)
    .where(eq(taxRecords.userId, userId));
  return new Set(rows.map((r) => `${r.side}|${r.source}`));
}

/** Inserts a record unless its (user, side, source) is recorded already. */
export async function insertRecord(db: Db, row: Omit<TaxRecordRow, "id">): Promise<void> {
  await db.insert(taxRecords).values(row).onConflictDoNothing();
}

/** The value of a user's sales recorded in a financial year before `before`, in paise. */
export async function salesInYear(db: Db, userId: string, fy: string, before: Date): Promise<bigint> {
  const [row] = await db
    .select({ total: sum(taxRecords.valuePaise) })
    .from(taxRecords)
    .where(
      and(
        eq(taxRecords.userId, userId),
        eq(taxRecords.side, "sale"),
        eq(taxRecords.financialYear, fy),
        lte(taxRecords.occurredAt, before),
      ),
    );
  return BigInt(row?.total ?? 0);
}

/** The user's latest recorded purchase of a token up to `at` (its acquisition cost). */
export async function lastPurchaseOf(
  db: Db,
  userId: string,
  tokenId: string,
  at: Date,
): Promise<TaxRecordRow | undefined> {
  const rows = await db
    .select()
    .from(taxRecords)
    .where(
      and(
        eq(taxRecords.userId, userId),
        eq(taxRecords.side, "purchase"),
        eq(taxRecords.tokenId, tokenId),
        lte(taxRecords.occurredAt, at),
      ),
    )
    .orderBy(desc(taxRecords.occurredAt))
    .limit(1);
  return rows[0];
}

export async function recordsOfYear(db: Db, userId: string, fy: string): Promise<TaxRecordRow[]> {
  return db
    .select()
    .from(taxRecords)
    .where(and(eq(taxRecords.userId, userId), eq(taxRecords.financialYear, fy)))
    .orderBy(asc(taxRecords.occurredAt), asc(taxRecords.id));
}

export async function allRecordsOf(db: Db, userId: string): Promise<TaxRecordRow[]> {
  return db
    .select()
    .from(taxRecords)
    .where(eq(taxRecords.userId, userId))
    .orderBy(asc(taxRecords.occurredAt));
}

/** Per financial year: how many purchases and sales, and the TDS, newest year first. */
export async function yearsOf(db: Db, userId: string) {
  return db
    .select({
      financialYear: taxRecords.financialYear,
      purchases: sql<number>`count(*) FILTER (WHERE ${taxRecords.side} = 'purchase')::int`,
      sales: sql<number>`count(*) FILTER (WHERE ${taxRecords.side} = 'sale')::int`,
      tdsPaise: sql<string>`coalesce(sum(${taxRecords.tdsPaise}), 0)::text`,
    })
    .from(taxRecords)
    .where(eq(taxRecords.userId, userId))
    .groupBy(taxRecords.financialYear)
    .orderBy(desc(taxRecords.financialYear));
}
