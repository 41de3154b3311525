import type { Db } from "../../db/client.ts";
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
  };
}

export type ContactService = ReturnType<typeof createContactService>;
