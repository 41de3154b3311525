// The contact form's part of the data rights (decision 170): messages sent from the person's
// address are exported, and deleted at erasure.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportContactMessages(q: Query, s: PersonalSubject) {
  return {
    messages: await q(
      `SELECT name, email, message, created_at AS "createdAt" FROM contact_messages
        WHERE lower(email) = $1 ORDER BY created_at`,
      [s.email.toLowerCase()],
    ),
  };
}

export async function eraseContactMessages(q: Query, s: PersonalSubject) {
  await q("DELETE FROM contact_messages WHERE lower(email) = $1", [s.email.toLowerCase()]);
}
