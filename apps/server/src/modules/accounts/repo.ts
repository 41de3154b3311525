// Typed queries on the accounts tables (users, sessions, auth_tokens). No rules here: the service
// decides what to do, in which transaction (pass a transaction's `tx.db` as `db`).
import { type SQL, and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../lib/rate-limit.ts";
import { type UserRow, authTokens, sessions, users } from "./tables.ts";

export type TokenKind = "verify_email" | "password_reset";
export type NewUser = typeof users.$inferInsert;
export type ImageKind = "avatar" | "cover";
/** Column values to set; an SQL expression (e.g. `now()`) is allowed for any of them. */
export type UserChanges = { [K in keyof Omit<NewUser, "id" | "createdAt" | "updatedAt">]?: NewUser[K] | SQL };

// ---- users

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

export async function findUserByGoogleSub(db: Db, sub: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.googleSub, sub)).limit(1);
  return rows[0];
}

/** True when another account than `exceptUserId` has this address (compared case-insensitively). */
export async function emailTakenByOther(db: Db, email: string, exceptUserId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, exceptUserId)))
    .limit(1);
  return rows.length > 0;
}

/** Accounts newest first after `after` (keyset on created_at, id), optionally matching `q` in name or email. */
export async function listUsers(
  db: Db,
  o: { q?: string; after?: { createdAt: Date; id: string }; limit: number },
): Promise<UserRow[]> {
  const conditions: SQL[] = [];
  if (o.q) {
    const like = `%${o.q.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;
    conditions.push(sql`(lower(${users.name}) LIKE ${like} OR ${users.email} LIKE ${like})`);
  }
  if (o.after) {
    conditions.push(
      sql`(${users.createdAt}, ${users.id}) < (${o.after.createdAt.toISOString()}::timestamptz, ${o.after.id}::uuid)`,
    );
  }
  return db
    .select()
    .from(users)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(sql`${users.createdAt} DESC, ${users.id} DESC`)
    .limit(o.limit);
}

/** Inserts an account; undefined when the address (or Google subject) is already taken. */
export async function insertUser(db: Db, values: NewUser): Promise<UserRow | undefined> {
  const rows = await db.insert(users).values(values).onConflictDoNothing().returning();
  return rows[0];
}

/** Updates columns of one account (and `updated_at`); returns the new row. */
export async function updateUser(db: Db, id: string, changes: UserChanges): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return rows[0];
}

/** Moves an account to a proven address (it counts as verified now). */
export function setVerifiedEmail(db: Db, id: string, email: string): Promise<UserRow | undefined> {
  return updateUser(db, id, { email, emailVerifiedAt: sql`now()` });
}

/** Marks the account's address verified (keeps the first verification time). */
export function markEmailVerified(db: Db, id: string): Promise<UserRow | undefined> {
  return updateUser(db, id, { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` });
}

/**
 * Sets the password of the account that still has `email` (a reset link sent there proves the
 * address: it counts as verified). Nothing changes when the address has moved since (false).
 */
export async function setPasswordForEmail(
  db: Db,
  id: string,
  email: string,
  passwordHash: string,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      passwordHash,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.id, id), eq(users.email, email)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Links a Google subject to an account not linked yet (its address counts as verified); with
 * `dropPassword` its password is removed. Undefined when the account was linked concurrently.
 */
export async function linkGoogle(
  db: Db,
  id: string,
  sub: string,
  dropPassword: boolean,
): Promise<UserRow | undefined> {
  const rows = await db
    .update(users)
    .set({
      googleSub: sub,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
      ...(dropPassword ? { passwordHash: null } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.id, id), isNull(users.googleSub)))
    .returning();
  return rows[0];
}

export async function setSuspendedAt(db: Db, id: string, suspended: boolean): Promise<void> {
  await db
    .update(users)
    .set({
      suspendedAt: suspended ? sql`coalesce(${users.suspendedAt}, now())` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id));
}

/** The storage key of the account's current avatar or cover (undefined when none). */
export async function imageKey(db: Db, id: string, kind: ImageKind): Promise<string | undefined> {
  const column = kind === "avatar" ? users.avatarKey : users.coverKey;
  const rows = await db.select({ key: column }).from(users).where(eq(users.id, id)).limit(1);
  return rows[0]?.key ?? undefined;
}

export function setImage(db: Db, id: string, kind: ImageKind, key: string, url: string) {
  return updateUser(
    db,
    id,
    kind === "avatar" ? { avatarKey: key, avatarUrl: url } : { coverKey: key, coverUrl: url },
  );
}

// ---- single-use email tokens

export async function insertToken(
  db: Db,
  t: { tokenHash: string; userId: string; kind: TokenKind; email: string; expiresAt: Date },
): Promise<void> {
  await db.insert(authTokens).values(t);
}

/**
 * Marks a token used and returns it, atomically: a second use, an expired token or a token of
 * another kind returns undefined.
 */
export async function consumeToken(db: Db, tokenHash: string, kind: TokenKind) {
  const rows = await db
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return rows[0];
}

/** Invalidates the outstanding tokens of one kind for a user. */
export async function revokeTokens(db: Db, userId: string, kind: TokenKind): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
}

// ---- sessions

export async function insertSession(
  db: Db,
  s: { idHash: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<void> {
  await db.insert(sessions).values(s);
}

/** Deletes one session; returns its user's id (undefined when there was none). */
export async function deleteSession(db: Db, idHash: string): Promise<string | undefined> {
  const rows = await db
    .delete(sessions)
    .where(eq(sessions.idHash, idHash))
    .returning({ userId: sessions.userId });
  return rows[0]?.userId;
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Keeps the `max` most recently used sessions of a user; the others are deleted (returns how many). */
export async function capSessions(db: Db, userId: string, max: number): Promise<number> {
  return countDeleted(
    db,
    sql`WITH d AS (DELETE FROM sessions WHERE id_hash IN (
      SELECT id_hash FROM sessions WHERE user_id = ${userId}
      ORDER BY last_seen_at DESC, created_at DESC OFFSET ${max}) RETURNING 1)
    SELECT count(*)::int AS n FROM d`,
  );
}

/** A live session (joined with its user): not expired, not idle for `idleSeconds`, user not suspended. */
function liveSession(idleSeconds: number) {
  return and(
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${idleSeconds})`),
    isNull(users.suspendedAt),
  );
}

/** Which of these session hashes are live (not expired, not idle for `idleSeconds`, user not suspended). */
export async function liveSessionHashes(db: Db, idHashes: string[], idleSeconds: number): Promise<string[]> {
  if (idHashes.length === 0) return [];
  const rows = await db
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.idHash, idHashes), liveSession(idleSeconds)));
  return rows.map((r) => r.idHash);
}

/** The live session's user (not expired, not idle for `idleSeconds`, user not suspended). */
export async function findLiveSession(db: Db, idHash: string, idleSeconds: number) {
  const rows = await db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), liveSession(idleSeconds)))
    .limit(1);
  return rows[0];
}

export async function touchSession(db: Db, idHash: string): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.idHash, idHash));
}

// ---- clean-up

const countDeleted = async (db: Db, q: ReturnType<typeof sql>) =>
  Number(rowsOf<{ n: number }>(await db.execute(q))[0]?.n ?? 0);

/**
 * Deletes sessions expired, idle for `idleSeconds`, or beyond the `maxPerUser` most recently used;
 * returns how many, and whose.
 */
export async function pruneSessions(db: Db, now: string, idleSeconds: number, maxPerUser: number) {
  const [row] = rowsOf<{ n: number; users: string[] | null }>(
    await db.execute(sql`WITH d AS (DELETE FROM sessions
      WHERE expires_at < ${now}::timestamptz
         OR last_seen_at < ${now}::timestamptz - make_interval(secs => ${idleSeconds})
         OR id_hash IN (SELECT id_hash FROM (
              SELECT id_hash, row_number() OVER (PARTITION BY user_id ORDER BY last_seen_at DESC, created_at DESC) AS n
              FROM sessions) ranked WHERE n > ${maxPerUser})
      RETURNING user_id) SELECT count(*)::int AS n, array_agg(DISTINCT user_id::text) AS users FROM d`),
  );
  return { count: Number(row?.n ?? 0), userIds: row?.users ?? [] };
}

/** Deletes email tokens used or expired over a day before `now`. */
export function pruneTokens(db: Db, now: string) {
  return countDeleted(
    db,
    sql`WITH d AS (DELETE FROM auth_tokens
      WHERE expires_at < ${now}::timestamptz - interval '1 day' OR used_at < ${now}::timestamptz - interval '1 day'
      RETURNING 1) SELECT count(*)::int AS n FROM d`,
  );
}

/** Deletes password accounts (not Google's, not admins) never verified and older than `days`. */
export function pruneUnverifiedUsers(db: Db, now: string, days: number) {
  return countDeleted(
    db,
    sql`WITH d AS (DELETE FROM users
      WHERE email_verified_at IS NULL AND google_sub IS NULL AND role = 'user'
        AND created_at < ${now}::timestamptz - make_interval(days => ${days})
      RETURNING 1) SELECT count(*)::int AS n FROM d`,
  );
}

/** The ids of the live studio accounts of a production house (decision 132). */
export async function studioAccountIds(db: Db, houseId: number): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "studio"), eq(users.productionHouseId, houseId), isNull(users.deletedAt)));
  return rows.map((r) => r.id);
}
