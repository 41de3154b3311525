import type { Db } from "../../db/client.ts";
import { pageOf } from "../../lib/paging.ts";
import * as repo from "./repo.ts";

export interface ContactMessage {
  name: string;
  email: string;
  message: string;
}

/** Messages sent to the team through the contact form. */
export function createContactService(db: Db) {
  return {
    async submit(msg: ContactMessage, ip: string | null): Promise<void> {
      await repo.insertContactMessage(db, { ...msg, ip });
    },

    /** The inbox of the studio console: newest first, keyset pages by id (the sender's IP is not shown). */
    async inbox(o: { before?: number; limit: number }) {
      const rows = await repo.listContactMessages(db, { before: o.before, limit: o.limit + 1 });
      return pageOf(
        rows,
        o.limit,
        (r) => ({
          id: r.id,
          name: r.name,
          email: r.email,
          message: r.message,
          createdAt: r.createdAt.toISOString(),
        }),
        (r) => String(r.id),
      );
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { eraseContactMessages, exportContactMessages } from "./personal-data.ts";
