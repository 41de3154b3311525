// The mail module's part of the data rights (decision 170): the mail log is the dev mailbox's
// stored mail (production mail goes out by SMTP and is not kept; delivery records hold job ids
// only). Exported for the person's address; at erasure every stored mail to them or naming them goes.
import type { Query } from "../../db/query.ts";
import { containsAny, needlesOf, type PersonalSubject } from "../../lib/personal-data.ts";

export async function exportMailLog(q: Query, s: PersonalSubject) {
  return {
    mail: await q(
      `SELECT subject, text_body AS "text", created_at AS "sentAt" FROM dev_mail
        WHERE lower(to_address) = $1 ORDER BY created_at`,
      [s.email.toLowerCase()],
    ),
  };
}

export async function eraseMailLog(q: Query, s: PersonalSubject) {
  await q(
    `DELETE FROM dev_mail WHERE lower(to_address) = $1
        OR ${containsAny("subject || ' ' || text_body || ' ' || html_body || ' ' || coalesce(headers::text, '')", 2)}`,
    [s.email.toLowerCase(), needlesOf(s)],
  );
}
