// The newsletter's part of the data rights (decision 170): a subscription is a mail consent,
// recorded with its time; exported, and withdrawn (deleted) at erasure.
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";

export async function exportNewsletter(q: Query, s: PersonalSubject) {
  const consent = await newsletterConsent(q, s.email);
  return { subscribed: consent.subscribed, subscribedAt: consent.since };
}

/** Whether `email` gets the newsletter, and since when (the subscription's time is the consent's). */
export async function newsletterConsent(q: Query, email: string) {
  const rows = await q<{ createdAt: Date }>(
    `SELECT created_at AS "createdAt" FROM newsletter_subscribers WHERE lower(email) = $1`,
    [email.toLowerCase()],
  );
  const since = rows[0]?.createdAt;
  return { subscribed: !!since, since: since ? new Date(since).toISOString() : null };
}

/** Gives (an existing consent keeps its time) or withdraws the newsletter consent of `email`. */
export async function setNewsletterConsent(q: Query, email: string, subscribed: boolean) {
  if (subscribed) {
    await q("INSERT INTO newsletter_subscribers (email) VALUES ($1) ON CONFLICT DO NOTHING", [
      email.toLowerCase(),
    ]);
  } else {
    await eraseNewsletter(q, { email });
  }
  return newsletterConsent(q, email);
}

export async function eraseNewsletter(q: Query, s: Pick<PersonalSubject, "email">) {
  await q("DELETE FROM newsletter_subscribers WHERE lower(email) = $1", [s.email.toLowerCase()]);
}
