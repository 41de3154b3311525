// The accounts module's part of the data rights (decision 170): the account and its sessions in the
// archive; at erasure, the sessions and links end and the account row is stripped of everything
// personal (it stays, because orders, tickets and prizes that must be kept name it).
import { randomBytes, randomUUID } from "node:crypto";
import type { Query } from "../../db/query.ts";
import type { PersonalSubject } from "../../lib/personal-data.ts";
import { forgetRateLimitSubject, type RateLimiter } from "../../lib/rate-limit.ts";
import { sha256Hex } from "../../lib/storage/storage.ts";

/** The erased account's name, shown wherever the row is still referenced (order lists of the console). */
export const ERASED_NAME = "Deleted account";

interface AccountRow {
  id: string;
  name: string;
  handle: string;
  email: string;
  phone: string | null;
  role: string;
  password_hash: string | null;
  google_sub: string | null;
  email_verified_at: Date | null;
  avatar_key: string | null;
  avatar_url: string | null;
  cover_key: string | null;
  cover_url: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** The live (not erased) account with this id, as the privacy module needs it. */
export async function accountForRights(q: Query, userId: string) {
  const [row] = await q<AccountRow>("SELECT * FROM users WHERE id = $1 AND deleted_at IS NULL", [userId]);
  if (!row) return undefined;
  return {
    subject: { userId: row.id, email: row.email, name: row.name, phone: row.phone, handle: row.handle },
    hasPassword: !!row.password_hash,
    images: [row.avatar_key, row.cover_key].filter((k): k is string => !!k),
  };
}

/** The archive's `account` part: the profile and every session. */
export async function exportAccount(q: Query, s: PersonalSubject) {
  const [u] = await q<AccountRow>("SELECT * FROM users WHERE id = $1", [s.userId]);
  const sessions = await q(
    `SELECT created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt",
            user_agent AS "userAgent", ip
       FROM sessions WHERE user_id = $1 ORDER BY created_at`,
    [s.userId],
  );
  return {
    profile: u && {
      id: u.id,
      name: u.name,
      handle: u.handle,
      email: u.email,
      emailVerifiedAt: u.email_verified_at,
      phone: u.phone,
      role: u.role,
      signsInWithPassword: !!u.password_hash,
      signsInWithGoogle: !!u.google_sub,
      avatarUrl: u.avatar_url,
      coverUrl: u.cover_url,
      createdAt: u.created_at,
      updatedAt: u.updated_at,
    },
    sessions,
  };
}

/**
 * Erases the account (in the erasure's transaction): sessions and email links end, the handle is
 * held back (as its hash) for `graceDays`, the rate-limit counters keyed by the address go, and the
 * row keeps only its id, role, dates and the references of kept records.
 */
export async function eraseAccount(
  q: Query,
  s: PersonalSubject,
  o: { now: Date; graceDays: number; rateLimiter: Pick<RateLimiter, "subjectKey"> },
) {
  await q("DELETE FROM sessions WHERE user_id = $1", [s.userId]);
  await q("DELETE FROM auth_tokens WHERE user_id = $1", [s.userId]);
  // The counters keyed by the address (as typed at sign-in, and lower-cased) and by the account.
  for (const subject of new Set([s.email, s.email.toLowerCase(), s.userId]))
    await forgetRateLimitSubject(q, o.rateLimiter, subject);
  const freeAfter = new Date(o.now.getTime() + o.graceDays * 86_400_000);
  await q(
    `INSERT INTO released_handles (handle_sha256, free_after) VALUES ($1, $2)
     ON CONFLICT (handle_sha256) DO UPDATE SET free_after = EXCLUDED.free_after`,
    [sha256Hex(Buffer.from(s.handle, "utf8")), freeAfter.toISOString()],
  );
  await q(
    `UPDATE users SET name = $2, email = $3, phone = NULL, password_hash = NULL, google_sub = NULL,
            avatar_key = NULL, avatar_url = NULL, cover_key = NULL, cover_url = NULL,
            handle = $4, suspended_at = coalesce(suspended_at, $5), deleted_at = $5, updated_at = $5
      WHERE id = $1`,
    [
      s.userId,
      ERASED_NAME,
      `erased-${randomUUID()}@erased.invalid`,
      `erased-${randomBytes(6).toString("hex")}`,
      o.now.toISOString(),
    ],
  );
}

/** Drops the hashes of erased accounts' handles whose grace period is over; returns how many. */
export async function releaseHandles(q: Query, now: Date): Promise<number> {
  const rows = await q("DELETE FROM released_handles WHERE free_after <= $1 RETURNING 1", [
    now.toISOString(),
  ]);
  return rows.length;
}
