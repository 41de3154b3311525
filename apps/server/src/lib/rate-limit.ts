import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../http/errors.ts";
import { localSecret } from "./local-secret.ts";

export interface RateLimitRule {
  /** Bucket namespace, e.g. "login:ip". */
  name: string;
  /** Allowed hits per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * The shared counters and how a subject is named in them. A subject (an email, a user id, a client
 * address) never appears in `rate_limit_buckets` in clear: its key part is its HMAC-SHA-256 under the
 * server's rate-limit key (`rateLimitKey`), so the table holds no personal value (issue 37 point 10)
 * and every process of a deployment (one SESSION_SECRET) counts a subject under the same key.
 */
export interface RateLimiter {
  db: Db;
  /** A subject's part of its bucket keys: base64url HMAC-SHA-256, 43 characters. */
  subjectKey(subject: string): string;
}

export function createRateLimiter(db: Db, key: Buffer): RateLimiter {
  return {
    db,
    subjectKey: (subject) => createHmac("sha256", key).update(subject, "utf8").digest("base64url"),
  };
}

/**
 * The rate-limit key: derived from SESSION_SECRET (production requires it; every process agrees), or
 * without it a random one kept in DATA_DIR/secrets (development), never a constant from the source.
 */
export function rateLimitKey(config: { SESSION_SECRET?: string; paths: { secrets: string } }): Buffer {
  if (!config.SESSION_SECRET) return localSecret(config.paths.secrets, "rate-limit-keys");
  return createHmac("sha256", config.SESSION_SECRET).update("diginoor rate-limit keys v1").digest();
}

/**
 * Fixed-window counters stored in PostgreSQL, so several server processes share them.
 * One upsert per check; throws AppError 429 (with retryAfterSeconds) when over the limit.
 */
export async function hitRateLimit(
  limiter: RateLimiter,
  rule: RateLimitRule,
  subject: string,
): Promise<void> {
  const db = limiter.db;
  const windowMs = rule.windowSeconds * 1000;
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const key = `${rule.name}:${limiter.subjectKey(subject)}`;
  const rows = await db.execute<{ count: number }>(sql`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart.toISOString()}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limit_buckets.window_start = EXCLUDED.window_start
                   THEN rate_limit_buckets.count + 1 ELSE 1 END,
      window_start = EXCLUDED.window_start
    RETURNING count`);
  const count = Number(rowsOf<{ count: number }>(rows)[0]?.count ?? 0);
  if (count > rule.limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000));
    throw AppError.rateLimited(retryAfter);
  }
}

/** node-postgres returns `{ rows }`, PGlite returns `{ rows }` too; drizzle passes them through. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * Sliding-window rate limit over the shared `rate_limit_buckets` table (so every server process
 * sees the same counts). One bucket per fixed window; the estimate is
 * `previous × (share of the previous window still inside the last windowSeconds) + current`, so a
 * burst split across a window boundary is still caught: 10 attempts at 0:59 and one at 1:01 make
 * the 11th within a minute, refused. Throws 429 (with retryAfterSeconds) when over the limit.
 */
export async function hitSlidingLimit(
  limiter: RateLimiter,
  rule: RateLimitRule,
  subject: string,
  now = Date.now(),
): Promise<void> {
  const db = limiter.db;
  const windowMs = rule.windowSeconds * 1000;
  const index = Math.floor(now / windowMs);
  const frac = (now - index * windowMs) / windowMs;
  const base = `${rule.name}:${limiter.subjectKey(subject)}:`;
  const rows = await db.execute<{ cur: number; prev: number | null }>(sql`
    WITH up AS (
      INSERT INTO rate_limit_buckets (key, window_start, count)
      VALUES (${base + index}, ${new Date(index * windowMs).toISOString()}, 1)
      ON CONFLICT (key) DO UPDATE SET count = rate_limit_buckets.count + 1
      RETURNING count
    )
    SELECT (SELECT count FROM up) AS cur,
           (SELECT count FROM rate_limit_buckets WHERE key = ${base + (index - 1)}) AS prev`);
  const row = rowsOf<{ cur: number; prev: number | null }>(rows)[0];
  const cur = Number(row?.cur ?? 0);
  const prev = Number(row?.prev ?? 0);
  if (prev * (1 - frac) + cur <= rule.limit) return;
  throw AppError.rateLimited(retryAfterSeconds(rule.limit, prev, cur, frac, windowMs));
}

/** Seconds until one more attempt would be allowed (never less than 1). */
function retryAfterSeconds(limit: number, prev: number, cur: number, frac: number, windowMs: number): number {
  // `cur` counts the refused attempt too; the next attempt would make it cur + 1.
  const neededHere = prev > 0 ? 1 - (limit - cur - 1) / prev : 0;
  let waitMs: number;
  if (cur + 1 <= limit && neededHere <= 1) {
    // Still in this window: wait until enough of the previous window has slid out.
    waitMs = (neededHere - frac) * windowMs;
  } else {
    // Next window: this one becomes "previous" and must slide out far enough.
    const needed = Math.max(0, 1 - (limit - 1) / cur);
    waitMs = (1 - frac) * windowMs + needed * windowMs;
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/** Forgets a subject's counts (e.g. the account's failures after a successful sign-in). */
export async function clearSlidingLimit(
  limiter: RateLimiter,
  rule: RateLimitRule,
  subject: string,
  now = Date.now(),
) {
  const windowMs = rule.windowSeconds * 1000;
  const index = Math.floor(now / windowMs);
  const base = `${rule.name}:${limiter.subjectKey(subject)}:`;
  await limiter.db.execute(
    sql`DELETE FROM rate_limit_buckets WHERE key IN (${base + index}, ${base + (index - 1)})`,
  );
}

/**
 * The rate-limit subject for a client address. One IPv6 host usually holds a whole /64 (SLAAC,
 * privacy addresses), so counting each /128 apart would let a single client rotate through
 * billions of "addresses": IPv6 is counted per /64. IPv4 (and IPv4-mapped IPv6) is per address.
 */
export function ipSubject(ip: string): string {
  const addr = ip.split("%")[0] ?? ip;
  if (!addr.includes(":")) return addr;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(addr);
  if (mapped?.[1]) return mapped[1];
  const [head = "", tail] = addr.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes(".") ? 2 : 1), 0);
  const groups = [...left, ...Array(Math.max(0, 8 - width(left) - width(right))).fill("0"), ...right];
  const prefix = groups.slice(0, 4).map((g) => (Number.parseInt(g, 16) || 0).toString(16));
  return `${prefix.join(":")}::/64`;
}

/** Deletes buckets whose window started over a day before `now`; returns how many. */
export async function pruneRateLimitBuckets(db: Db, now: Date): Promise<number> {
  const rows = await db.execute(sql`WITH d AS (DELETE FROM rate_limit_buckets
      WHERE window_start < ${now.toISOString()}::timestamptz - interval '1 day'
      RETURNING 1) SELECT count(*)::int AS n FROM d`);
  return Number(rowsOf<{ n: number }>(rows)[0]?.n ?? 0);
}

/**
 * Deletes every bucket counted for `subject` (keys `<rule>:<key>` or `<rule>:<key>:<window>`, the key
 * the subject's HMAC): an erased account leaves no counter behind (decision 170).
 */
export async function forgetRateLimitSubject(
  q: <T>(text: string, params?: unknown[]) => Promise<T[]>,
  limiter: Pick<RateLimiter, "subjectKey">,
  subject: string,
): Promise<void> {
  await q("DELETE FROM rate_limit_buckets WHERE strpos(key || ':', ':' || $1 || ':') > 0", [
    limiter.subjectKey(subject),
  ]);
}
