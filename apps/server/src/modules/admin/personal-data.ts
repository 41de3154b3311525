// The audit log's part of the data rights (decision 170): the console's record of what was done to
// or by the account is kept (accountability), pseudonymised: the actor's address and any copy of the
// person's email, name, phone or handle in the before/after states are replaced by "[erased]".
import type { Query } from "../../db/query.ts";
import { containsAny, needlesOf, type PersonalSubject } from "../../lib/personal-data.ts";

export async function exportAuditEntries(q: Query, s: PersonalSubject) {
  return {
    entries: await q(
      `SELECT action, subject_type AS "subjectType", subject_id AS "subjectId", created_at AS "createdAt",
              (actor_id = $1) AS "byYou"
         FROM admin_audit_log WHERE actor_id = $1 OR (subject_type = 'user' AND subject_id = $1::text)
        ORDER BY id`,
      [s.userId],
    ),
  };
}

export async function pseudonymiseAuditEntries(q: Query, s: PersonalSubject) {
  const needles = needlesOf(s);
  await q(
    "UPDATE admin_audit_log SET actor_email = '[erased]' WHERE actor_id = $1 OR lower(actor_email) = $2",
    [s.userId, s.email.toLowerCase()],
  );
  const rows = await q<{ id: string; before: unknown; after: unknown }>(
    `SELECT id::text AS id, before, after FROM admin_audit_log
      WHERE ${containsAny("coalesce(before::text, '') || ' ' || coalesce(after::text, '')", 1)}`,
    [needles],
  );
  for (const r of rows) {
    await q("UPDATE admin_audit_log SET before = $2::jsonb, after = $3::jsonb WHERE id = $1::bigint", [
      r.id,
      scrub(r.before, needles),
      scrub(r.after, needles),
    ]);
  }
}

/** The JSON value with every string containing a needle replaced by "[erased]", as JSON text. */
function scrub(value: unknown, needles: string[]): string | null {
  if (value === null || value === undefined) return null;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return needles.some((n) => v.toLowerCase().includes(n)) ? "[erased]" : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return JSON.stringify(walk(value));
}
