// SQL of the KYC module (decision 175): attempts at the provider and the provider events applied.
import type { Query } from "../../db/query.ts";

export interface KycCheckRow {
  id: string;
  user_id: string;
  provider: string;
  session: string;
  state: "pending" | "verified" | "rejected";
  provider_ref: string | null;
  reason: string | null;
  created_at: Date;
  decided_at: Date | null;
}

const COLUMNS = "id, user_id, provider, session, state, provider_ref, reason, created_at, decided_at";

export async function insertCheck(
  q: Query,
  c: { userId: string; provider: string; session: string; now: Date },
): Promise<KycCheckRow> {
  const [row] = await q<KycCheckRow>(
    `INSERT INTO kyc_checks (user_id, provider, session, created_at) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [c.userId, c.provider, c.session, c.now],
  );
  return row as KycCheckRow;
}

/** The user's attempts, newest first. */
export function checksOf(q: Query, userId: string): Promise<KycCheckRow[]> {
  return q<KycCheckRow>(`SELECT ${COLUMNS} FROM kyc_checks WHERE user_id = $1 ORDER BY created_at DESC, id`, [
    userId,
  ]);
}

/** Of some users, those with a verified attempt. */
export async function verifiedAmong(q: Query, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await q<{ user_id: string }>(
    "SELECT DISTINCT user_id FROM kyc_checks WHERE state = 'verified' AND user_id = ANY($1::uuid[])",
    [userIds],
  );
  return new Set(rows.map((r) => r.user_id));
}

export async function findBySession(
  q: Query,
  session: string,
  lock = false,
): Promise<KycCheckRow | undefined> {
  const [row] = await q<KycCheckRow>(
    `SELECT ${COLUMNS} FROM kyc_checks WHERE session = $1${lock ? " FOR UPDATE" : ""}`,
    [session],
  );
  return row;
}

/** Claims a provider event; false when it was applied before (a duplicate delivery). */
export async function claimEvent(q: Query, provider: string, eventId: string, now: Date): Promise<boolean> {
  const rows = await q(
    `INSERT INTO kyc_events (provider, event_id, received_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING 1`,
    [provider, eventId, now],
  );
  return rows.length > 0;
}

/** Records the provider's decision on a pending attempt; false when it was decided already. */
export async function decide(
  q: Query,
  id: string,
  d: { state: "verified" | "rejected"; providerRef: string; reason: string | null; now: Date },
): Promise<boolean> {
  const rows = await q(
    `UPDATE kyc_checks SET state = $2, provider_ref = $3, reason = $4, decided_at = $5
      WHERE id = $1 AND state = 'pending' RETURNING 1`,
    [id, d.state, d.providerRef, d.reason, d.now],
  );
  return rows.length > 0;
}

/** The user's attempts as their data archive shows them (decision 170): references and results only. */
export function exportChecks(q: Query, userId: string) {
  return q(
    `SELECT provider, session, state, provider_ref AS "providerRef", reason, created_at AS "createdAt",
            decided_at AS "decidedAt"
       FROM kyc_checks WHERE user_id = $1 ORDER BY created_at`,
    [userId],
  );
}
