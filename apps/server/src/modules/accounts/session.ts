import type { User } from "@diginoor/api/auth";
import { authMessages } from "@diginoor/api/auth";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { type UserRow, sessions, users } from "./tables.ts";
import { AppError } from "../../http/errors.ts";
import { rowsOf } from "../../lib/rate-limit.ts";
import { hashSecret, newSecret } from "./tokens.ts";

export const SESSION_COOKIE = "diginoor_session";
/** Absolute lifetime of a session. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** A session unused for this long is over. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
/** last_seen_at is written at most this often, to keep session checks to one read. */
const TOUCH_EVERY_MS = 60_000;

declare module "fastify" {
  interface FastifyInstance {
    /** Set by registerAuth; lets requireUser() reach the database from any module. */
    accountsCtx: AppContext;
  }
}

export interface SessionUser extends UserRow {
  /** SHA-256 of the session id of this request. */
  sessionIdHash: string;
}

/** The user as the API shows it (never the password hash or provider ids). */
export function toApiUser(u: UserRow): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    emailVerified: u.emailVerifiedAt !== null,
    avatarUrl: u.avatarUrl,
    coverUrl: u.coverUrl,
    role: u.role,
    createdAt: u.createdAt.toISOString(),
  };
}

function cookieOptions(config: Config) {
  return {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.PUBLIC_URL.startsWith("https:"),
  };
}

/** Starts a new session (a fresh random id: session ids are rotated at every sign-in) and sets the cookie. */
export async function startSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  // Rotation: whatever session this browser had before is ended, never reused.
  const previous = req.cookies[SESSION_COOKIE];
  if (previous) await ctx.db.delete(sessions).where(eq(sessions.idHash, hashSecret(previous)));
  const secret = newSecret();
  await ctx.db.insert(sessions).values({
    idHash: hashSecret(secret),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
    userAgent: (req.headers["user-agent"] ?? "").slice(0, 300) || null,
    ip: req.ip,
  });
  await capSessions(ctx.db, userId, ctx.config.MAX_SESSIONS_PER_USER);
  reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions(ctx.config), maxAge: SESSION_TTL_SECONDS });
  sessionCache.set(req, Promise.resolve(null));
}

export function clearSessionCookie(config: Config, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

/** Ends the session of this request (if any) and clears the cookie. */
export async function endCurrentSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const secret = req.cookies[SESSION_COOKIE];
  if (secret) await ctx.db.delete(sessions).where(eq(sessions.idHash, hashSecret(secret)));
  clearSessionCookie(ctx.config, reply);
  sessionCache.set(req, Promise.resolve(null));
}

/** Ends every session of a user (password change or reset, suspension). */
export async function endAllSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/**
 * Keeps at most `max` sessions of a user: the least recently used beyond that are ended.
 * Runs after every sign-in (and in the prune job), so a user cannot pile up sessions.
 */
export async function capSessions(db: Db, userId: string, max: number): Promise<void> {
  await db.execute(sql`DELETE FROM sessions WHERE id_hash IN (
    SELECT id_hash FROM sessions WHERE user_id = ${userId}
    ORDER BY last_seen_at DESC, created_at DESC OFFSET ${max})`);
}

export interface PruneOptions {
  /** "Now", from the clock (tests move it instead of sleeping). */
  now: Date;
  maxSessionsPerUser: number;
  unverifiedAccountDays: number;
}

export interface PruneCounts {
  sessions: number;
  tokens: number;
  rateLimitBuckets: number;
  unverifiedAccounts: number;
  mailDeliveries: number;
}

/**
 * The hourly clean-up (the `accounts.prune` job): sessions past their expiry or idle timeout, or
 * beyond the per-user cap; email tokens used or expired over a day ago; rate-limit buckets whose
 * window ended over a day ago; accounts whose email was never verified (password accounts, not
 * Google's) older than `unverifiedAccountDays`; mail delivery records older than a week (jobs are
 * archived long before). Idempotent: any process may run it any time.
 */
export async function pruneAuthData(db: Db, o: PruneOptions): Promise<PruneCounts> {
  const now = o.now.toISOString();
  const count = async (q: ReturnType<typeof sql>) =>
    Number(rowsOf<{ n: number }>(await db.execute(q))[0]?.n ?? 0);
  const sessionsGone = await count(sql`WITH d AS (DELETE FROM sessions
      WHERE expires_at < ${now}::timestamptz
         OR last_seen_at < ${now}::timestamptz - make_interval(secs => ${SESSION_IDLE_SECONDS})
         OR id_hash IN (SELECT id_hash FROM (
              SELECT id_hash, row_number() OVER (PARTITION BY user_id ORDER BY last_seen_at DESC, created_at DESC) AS n
              FROM sessions) ranked WHERE n > ${o.maxSessionsPerUser})
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  const tokens = await count(sql`WITH d AS (DELETE FROM auth_tokens
      WHERE expires_at < ${now}::timestamptz - interval '1 day' OR used_at < ${now}::timestamptz - interval '1 day'
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  const buckets = await count(sql`WITH d AS (DELETE FROM rate_limit_buckets
      WHERE window_start < ${now}::timestamptz - interval '1 day'
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  const accounts = await count(sql`WITH d AS (DELETE FROM users
      WHERE email_verified_at IS NULL AND google_sub IS NULL AND role = 'user'
        AND created_at < ${now}::timestamptz - make_interval(days => ${o.unverifiedAccountDays})
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  const deliveries = await count(sql`WITH d AS (DELETE FROM mail_deliveries
      WHERE delivered_at < ${now}::timestamptz - interval '7 days'
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  return {
    sessions: sessionsGone,
    tokens,
    rateLimitBuckets: buckets,
    unverifiedAccounts: accounts,
    mailDeliveries: deliveries,
  };
}

const sessionCache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

async function lookup(req: FastifyRequest): Promise<SessionUser | null> {
  const secret = req.cookies?.[SESSION_COOKIE];
  // A well-formed id is 43 base64url characters; anything else is not worth a query.
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const ctx = req.server.accountsCtx;
  const idHash = hashSecret(secret);
  const rows = await ctx.db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, idHash),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_IDLE_SECONDS})`),
        isNull(users.suspendedAt),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await ctx.db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.idHash, idHash));
  }
  return { ...row.user, sessionIdHash: idHash };
}

/** The signed-in user of this request, or null (no, forged, expired or idle session; suspended user). */
export function optionalUser(req: FastifyRequest): Promise<SessionUser | null> {
  let cached = sessionCache.get(req);
  if (!cached) {
    cached = lookup(req);
    sessionCache.set(req, cached);
  }
  return cached;
}

/** The signed-in user, or 401 'Please Login to Continue'. Use it to guard routes. */
export async function requireUser(req: FastifyRequest): Promise<SessionUser> {
  const user = await optionalUser(req);
  if (!user) throw AppError.unauthorized(authMessages.loginRequired);
  return user;
}

/** The signed-in admin; 401 when signed out, 403 for other users. */
export async function requireAdmin(req: FastifyRequest): Promise<SessionUser> {
  const user = await requireUser(req);
  if (user.role !== "admin") throw AppError.forbidden("Only administrators can do that");
  return user;
}
