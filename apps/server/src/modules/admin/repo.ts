// Typed queries on the admin module's tables (audit log, hidden tokens). No rules here.
import { desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { adminAuditLog, hiddenTokens } from "./tables.ts";

export type AuditRow = typeof adminAuditLog.$inferSelect;
export type NewAuditRow = typeof adminAuditLog.$inferInsert;
export type HiddenTokenRow = typeof hiddenTokens.$inferSelect;

export async function insertAudit(db: Db, row: NewAuditRow): Promise<void> {
  await db.insert(adminAuditLog).values(row);
}

/** Audit entries newest first, before id `before`; `limit` rows at most. */
export function listAudit(db: Db, o: { before?: number; limit: number }): Promise<AuditRow[]> {
  return db
    .select()
    .from(adminAuditLog)
    .where(o.before === undefined ? undefined : lt(adminAuditLog.id, o.before))
    .orderBy(desc(adminAuditLog.id))
    .limit(o.limit);
}

export function listHiddenTokens(db: Db): Promise<HiddenTokenRow[]> {
  return db.select().from(hiddenTokens).orderBy(desc(hiddenTokens.createdAt));
}

export async function findHiddenToken(db: Db, tokenId: string): Promise<HiddenTokenRow | undefined> {
  return (await db.select().from(hiddenTokens).where(eq(hiddenTokens.tokenId, tokenId)).limit(1))[0];
}

/** Which of `tokenIds` are hidden. */
export async function hiddenAmong(db: Db, tokenIds: string[]): Promise<Set<string>> {
  if (tokenIds.length === 0) return new Set();
  const rows = await db
    .select({ tokenId: hiddenTokens.tokenId })
    .from(hiddenTokens)
    .where(inArray(hiddenTokens.tokenId, tokenIds));
  return new Set(rows.map((r) => r.tokenId));
}

export async function upsertHiddenToken(
  db: Db,
  row: { tokenId: string; reason: "suspended" | "voided"; note: string; hiddenBy: string },
): Promise<HiddenTokenRow> {
  const [saved] = await db
    .insert(hiddenTokens)
    .values(row)
    .onConflictDoUpdate({
      target: hiddenTokens.tokenId,
      set: { reason: row.reason, note: row.note, hiddenBy: row.hiddenBy },
    })
    .returning();
  return saved as HiddenTokenRow;
}

export async function deleteHiddenToken(db: Db, tokenId: string): Promise<HiddenTokenRow | undefined> {
  return (await db.delete(hiddenTokens).where(eq(hiddenTokens.tokenId, tokenId)).returning())[0];
}
