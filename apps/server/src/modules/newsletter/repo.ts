import { asc } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { newsletterSubscribers } from "./tables.ts";

/** Subscribes an address; an address already subscribed (in any letter case) is left as it is. */
export async function subscribeNewsletter(db: Db, email: string): Promise<void> {
  await db.insert(newsletterSubscribers).values({ email }).onConflictDoNothing();
}

/** Every subscriber, oldest first. */
export function allSubscribers(db: Db) {
  return db
    .select({ email: newsletterSubscribers.email, createdAt: newsletterSubscribers.createdAt })
    .from(newsletterSubscribers)
    .orderBy(asc(newsletterSubscribers.id));
}
