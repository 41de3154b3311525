// The newsletter's part of the data rights (decision 170): a subscription is a mail consent,
// recorded with its time; exported, and withdrawn (deleted) at erasure.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportNewsletter(q: Query, s: PersonalSubject) {
  const rows = await q<{ createdAt: Date }>(
    `SELECT created_at AS "createdAt" FROM newsletter_subscribers WHERE lower(email) = $1`,
    [s.email.toLowerCase()],
  );
  return { subscribed: rows.length > 0, subscribedAt: rows[0]?.createdAt ?? null };
}

export async function eraseNewsletter(q: Query, s: PersonalSubject) {
  await q("DELETE FROM newsletter_subscribers WHERE lower(email) = $1", [s.email.toLowerCase()]);
}
