import { desc, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { contactMessages } from "./tables.ts";

export async function insertContactMessage(
  db: Db,
  msg: { name: string; email: string; message: string; ip: string | null },
): Promise<void> {
  await db.insert(contactMessages).values(msg);
}

/** Messages newest first, before id `before`; `limit` rows at most. */
export function listContactMessages(db: Db, o: { before?: number; limit: number }) {
  return db
    .select()
    .from(contactMessages)
    .where(o.before === undefined ? undefined : lt(contactMessages.id, o.before))
    .orderBy(desc(contactMessages.id))
    .limit(o.limit);
}
