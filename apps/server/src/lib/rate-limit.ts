import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../http/errors.ts";

export interface RateLimitRule {
  /** Bucket namespace, e.g. "login:ip". */
  name: string;
  /** Allowed hits per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters stored in PostgreSQL, so several server processes share them.
 * One upsert per check; throws AppError 429 (with retryAfterSeconds) when over the limit.
 */
export async function hitRateLimit(db: Db, rule: RateLimitRule, subject: string): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const key = `${rule.name}:${subject}`;
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
