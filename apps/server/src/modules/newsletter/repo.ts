import type { Db } from "../../db/client.ts";
import { newsletterSubscribers } from "./tables.ts";

/** Subscribes an address; an address already subscribed (in any letter case) is left as it is. */
export async function subscribeNewsletter(db: Db, email: string): Promise<void> {
  await db.insert(newsletterSubscribers).values({ email }).onConflictDoNothing();
}
