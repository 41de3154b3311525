import type { Db } from "../../db/client.ts";
import { contactMessages } from "./tables.ts";

export async function insertContactMessage(
  db: Db,
  msg: { name: string; email: string; message: string; ip: string | null },
): Promise<void> {
  await db.insert(contactMessages).values(msg);
}
