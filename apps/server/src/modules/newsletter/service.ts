import type { Db } from "../../db/client.ts";
import { toCsv } from "../../lib/csv.ts";
import * as repo from "./repo.ts";

/** Newsletter subscriptions (subscribing twice is fine). */
export function createNewsletterService(db: Db) {
  return {
    async subscribe(email: string): Promise<void> {
      await repo.subscribeNewsletter(db, email);
    },

    /** Every subscriber as CSV (`email,subscribed_at`, CRLF lines), for the studio console's export. */
    async exportCsv(): Promise<{ csv: string; count: number }> {
      const rows = await repo.allSubscribers(db);
      const csv = toCsv(
        rows.map((r) => [r.email, r.createdAt.toISOString()]),
        { header: ["email", "subscribed_at"] },
      );
      return { csv, count: rows.length };
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export {
  eraseNewsletter,
  exportNewsletter,
  newsletterConsent,
  setNewsletterConsent,
} from "./personal-data.ts";
