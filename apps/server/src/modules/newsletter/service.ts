import type { Db } from "../../db/client.ts";
import * as repo from "./repo.ts";

/** Newsletter subscriptions (subscribing twice is fine). */
export function createNewsletterService(db: Db) {
  return {
    async subscribe(email: string): Promise<void> {
      await repo.subscribeNewsletter(db, email);
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
