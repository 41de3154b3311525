import type { Db } from "../../db/client.ts";
import * as repo from "./repo.ts";

/**
 * One CSV field (RFC 4180): quoted when needed, and a leading = + - @ or tab/CR neutralised with
 * an apostrophe so a spreadsheet never runs it as a formula (CSV injection).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Newsletter subscriptions (subscribing twice is fine). */
export function createNewsletterService(db: Db) {
  return {
    async subscribe(email: string): Promise<void> {
      await repo.subscribeNewsletter(db, email);
    },

    /** Every subscriber as CSV (`email,subscribed_at`, CRLF lines), for the studio console's export. */
    async exportCsv(): Promise<{ csv: string; count: number }> {
      const rows = await repo.allSubscribers(db);
      const lines = [
        "email,subscribed_at",
        ...rows.map((r) => `${csvField(r.email)},${r.createdAt.toISOString()}`),
      ];
      return { csv: `${lines.join("\r\n")}\r\n`, count: rows.length };
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
