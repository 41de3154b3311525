import type { Query } from "../../db/query.ts";
import type { NotificationKind } from "@diginoor/api/notifications";

/** Raw SQL, on the database or inside a transaction (Tx.query has this shape). */
export type { Query } from "../../db/query.ts";

export interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  text: string;
  link: string;
  read_at: Date | null;
  created_at: Date;
}

const COLUMNS = "id::text AS id, user_id, kind, text, link, read_at, created_at";

/** Stores a notification once per source; undefined when that source was already delivered. */
export async function insertNotification(
  q: Query,
  n: { userId: string; kind: NotificationKind; text: string; link: string; source: string; now: Date },
): Promise<NotificationRow | undefined> {
  const rows = await q<NotificationRow>(
    `INSERT INTO notifications (user_id, kind, text, link, source, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (source) DO NOTHING RETURNING ${COLUMNS}`,
    [n.userId, n.kind, n.text, n.link, n.source, n.now],
  );
  return rows[0];
}

export function newest(q: Query, userId: string, limit: number): Promise<NotificationRow[]> {
  return q<NotificationRow>(
    `SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
    [userId, limit],
  );
}

export async function unreadCount(q: Query, userId: string): Promise<number> {
  const [row] = await q<{ n: number }>(
    "SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL",
    [userId],
  );
  return Number(row?.n ?? 0);
}

/** Marks one of the user's notifications read; false when the user has no such notification. */
export async function markRead(q: Query, userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await q(
    "UPDATE notifications SET read_at = COALESCE(read_at, $3) WHERE id = $2::bigint AND user_id = $1 RETURNING 1",
    [userId, id, now],
  );
  return rows.length > 0;
}

export async function markAllRead(q: Query, userId: string, now: Date): Promise<void> {
  await q("UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL", [userId, now]);
}

export async function cursorOf(q: Query, chainId: number): Promise<string> {
  const [row] = await q<{ last_id: string }>(
    "SELECT last_id::text AS last_id FROM notification_cursors WHERE chain_id = $1",
    [chainId],
  );
  return row?.last_id ?? "0";
}

export async function moveCursor(q: Query, chainId: number, lastId: string): Promise<void> {
  await q(
    `INSERT INTO notification_cursors (chain_id, last_id) VALUES ($1, $2::bigint)
     ON CONFLICT (chain_id) DO UPDATE SET last_id = GREATEST(notification_cursors.last_id, EXCLUDED.last_id)`,
    [chainId, lastId],
  );
}

export async function notificationById(q: Query, id: string): Promise<NotificationRow | undefined> {
  const [row] = await q<NotificationRow>(`SELECT ${COLUMNS} FROM notifications WHERE id = $1::bigint`, [id]);
  return row;
}

/** The kinds whose email the user turned off (no row: on). */
export async function emailOff(q: Query, userId: string): Promise<Set<string>> {
  const rows = await q<{ kind: string }>(
    "SELECT kind FROM notification_preferences WHERE user_id = $1 AND NOT email",
    [userId],
  );
  return new Set(rows.map((r) => r.kind));
}

/** Sets whether a kind is emailed; nothing for a user that no longer exists. */
export async function setEmail(
  q: Query,
  userId: string,
  kind: string,
  email: boolean,
  now: Date,
): Promise<void> {
  await q(
    `INSERT INTO notification_preferences (user_id, kind, email, updated_at)
     SELECT $1::uuid, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM users WHERE id = $1::uuid)
     ON CONFLICT (user_id, kind) DO UPDATE SET email = EXCLUDED.email, updated_at = EXCLUDED.updated_at`,
    [userId, kind, email, now],
  );
}
