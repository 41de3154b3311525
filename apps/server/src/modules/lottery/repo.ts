import type { Query } from "../../db/query.ts";
// Typed queries on the lottery module's tables (migration 0128). No rules here.

/** Raw SQL, on the database or inside a transaction (Tx.query has this shape). */
export type { Query } from "../../db/query.ts";

export interface LotteryRow {
  id: string;
  name: string;
  image_url: string | null;
  production_house_id: number | null;
  ticket_price_cents: string;
  min_tickets: number;
  max_tickets_per_user: number | null;
  prize_kind: "nft" | "pool";
  prize_nft_id: string | null;
  prize_pool_cents: string | null;
  rules: string;
  opens_at: Date;
  closes_at: Date;
  seed: Buffer;
  seed_hash: Buffer;
  draw_blocks: number;
  state: "open" | "closed" | "drawn" | "not_activated";
  tickets_sold: string;
  players: number;
  closed_at: Date | null;
  close_block: string | null;
  ticket_list_hash: Buffer | null;
  draw_block: string | null;
  draw_block_hash: Buffer | null;
  winning_ticket: string | null;
  winner_order_id: string | null;
  winner_user_id: string | null;
  drawn_at: Date | null;
  outcome: string | null;
  /** A prize pool's payment, recorded by an administrator (migration 0150). */
  prize_paid_at: Date | null;
  prize_paid_by: string | null;
  prize_payment_reference: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface EntryRow {
  order_id: string;
  lottery_id: string;
  user_id: string;
  first_ticket: string;
  last_ticket: string;
  paid_at: Date;
}

/** bytea comes back as a Buffer from node-postgres and a Uint8Array from PGlite. */
export function buf(v: Uint8Array | null): Buffer | null {
  return v === null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}
function normalise(r: LotteryRow): LotteryRow {
  return {
    ...r,
    seed: buf(r.seed) as Buffer,
    seed_hash: buf(r.seed_hash) as Buffer,
    ticket_list_hash: buf(r.ticket_list_hash),
    draw_block_hash: buf(r.draw_block_hash),
  };
}

export interface NewLottery {
  name: string;
  imageUrl: string | null;
  productionHouseId: number | null;
  ticketPriceCents: number;
  minTickets: number;
  maxTicketsPerUser: number | null;
  prizeKind: "nft" | "pool";
  prizeNftId: string | null;
  prizePoolCents: number | null;
  rules: string;
  opensAt: Date;
  closesAt: Date;
  seed: Buffer;
  seedHash: Buffer;
  drawBlocks: number;
  createdBy: string;
  now: Date;
}

export async function insertLottery(q: Query, l: NewLottery): Promise<LotteryRow> {
  const [row] = await q<LotteryRow>(
    `INSERT INTO lotteries (name, image_url, production_house_id, ticket_price_cents, min_tickets,
       max_tickets_per_user, prize_kind, prize_nft_id, prize_pool_cents, rules, opens_at, closes_at,
       seed, seed_hash, draw_blocks, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
     RETURNING *`,
    [
      l.name,
      l.imageUrl,
      l.productionHouseId,
      l.ticketPriceCents,
      l.minTickets,
      l.maxTicketsPerUser,
      l.prizeKind,
      l.prizeNftId,
      l.prizePoolCents,
      l.rules,
      l.opensAt,
      l.closesAt,
      l.seed,
      l.seedHash,
      l.drawBlocks,
      l.createdBy,
      l.now,
    ],
  );
  return normalise(row as LotteryRow);
}

/** Columns a console edit may set (before the lottery opens). */
export interface LotteryChanges {
  name?: string;
  image_url?: string | null;
  ticket_price_cents?: number;
  min_tickets?: number;
  max_tickets_per_user?: number | null;
  prize_kind?: "nft" | "pool";
  prize_nft_id?: string | null;
  prize_pool_cents?: number | null;
  rules?: string;
  opens_at?: Date;
  closes_at?: Date;
}

export async function updateLottery(
  q: Query,
  id: string,
  changes: LotteryChanges,
  now: Date,
): Promise<LotteryRow> {
  const keys = Object.keys(changes) as (keyof LotteryChanges)[];
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  const [row] = await q<LotteryRow>(
    `UPDATE lotteries SET ${[...sets, "updated_at = $2"].join(", ")} WHERE id = $1 RETURNING *`,
    [id, now, ...keys.map((k) => changes[k])],
  );
  return normalise(row as LotteryRow);
}

export async function findLottery(q: Query, id: string, lock = false): Promise<LotteryRow | undefined> {
  const [row] = await q<LotteryRow>(`SELECT * FROM lotteries WHERE id = $1${lock ? " FOR UPDATE" : ""}`, [
    id,
  ]);
  return row ? normalise(row) : undefined;
}

export async function listLotteries(q: Query, limit: number, houseId?: number): Promise<LotteryRow[]> {
  const rows = await q<LotteryRow>(
    `SELECT * FROM lotteries ${houseId === undefined ? "" : "WHERE production_house_id = $2"}
     ORDER BY closes_at DESC, id LIMIT $1`,
    houseId === undefined ? [limit] : [limit, houseId],
  );
  return rows.map(normalise);
}

/** Lotteries open for tickets or waiting for their draw, and those recently over. */
export async function publicLotteries(q: Query, since: Date, limit: number): Promise<LotteryRow[]> {
  const rows = await q<LotteryRow>(
    `SELECT * FROM lotteries WHERE state IN ('open', 'closed') OR closes_at >= $1
     ORDER BY (state = 'open') DESC, closes_at ASC, id LIMIT $2`,
    [since, limit],
  );
  return rows.map(normalise);
}

export async function drawnLotteries(q: Query, limit: number) {
  return q<{
    id: string;
    name: string;
    drawn_at: Date;
    winning_ticket: string;
    prize_kind: "nft" | "pool";
    prize_nft_id: string | null;
    prize_pool_cents: string | null;
    winner: string | null;
  }>(
    `SELECT l.id, l.name, l.drawn_at, l.winning_ticket, l.prize_kind, l.prize_nft_id, l.prize_pool_cents,
            u.name AS winner
       FROM lotteries l LEFT JOIN users u ON u.id = l.winner_user_id
      WHERE l.state = 'drawn' ORDER BY l.drawn_at DESC LIMIT $1`,
    [limit],
  );
}

/** Open lotteries whose closing time has passed; closed ones waiting for their draw. */
export async function dueLotteries(
  q: Query,
  now: Date,
  limit: number,
): Promise<{ id: string; state: string }[]> {
  return q(
    `SELECT id, state FROM lotteries
      WHERE (state = 'open' AND closes_at <= $1) OR state = 'closed'
      ORDER BY closes_at LIMIT $2`,
    [now, limit],
  );
}

export async function entryOf(q: Query, orderId: string): Promise<EntryRow | undefined> {
  const [row] = await q<EntryRow>("SELECT * FROM lottery_entries WHERE order_id = $1", [orderId]);
  return row;
}

export async function hasEntry(q: Query, lotteryId: string, userId: string): Promise<boolean> {
  const rows = await q("SELECT 1 FROM lottery_entries WHERE lottery_id = $1 AND user_id = $2 LIMIT 1", [
    lotteryId,
    userId,
  ]);
  return rows.length > 0;
}

/** Tickets a user holds in a lottery (paid orders). */
export async function ticketsOfUser(q: Query, lotteryId: string, userId: string): Promise<number> {
  const [row] = await q<{ n: string | null }>(
    "SELECT sum(last_ticket - first_ticket + 1) AS n FROM lottery_entries WHERE lottery_id = $1 AND user_id = $2",
    [lotteryId, userId],
  );
  return Number(row?.n ?? 0);
}

export async function insertEntry(
  q: Query,
  e: { orderId: string; lotteryId: string; userId: string; first: bigint; last: bigint; paidAt: Date },
): Promise<void> {
  await q(
    `INSERT INTO lottery_entries (order_id, lottery_id, user_id, first_ticket, last_ticket, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [e.orderId, e.lotteryId, e.userId, e.first.toString(), e.last.toString(), e.paidAt],
  );
}

export async function addSale(q: Query, id: string, tickets: bigint, newPlayer: boolean, now: Date) {
  await q(
    `UPDATE lotteries SET tickets_sold = tickets_sold + $2, players = players + $3, updated_at = $4
      WHERE id = $1`,
    [id, tickets.toString(), newPlayer ? 1 : 0, now],
  );
}

/** Every paid order's range in ticket order (the ticket list). */
export async function rangesOf(q: Query, lotteryId: string) {
  return q<{ order_id: string; first_ticket: string; last_ticket: string }>(
    `SELECT order_id, first_ticket, last_ticket FROM lottery_entries
      WHERE lottery_id = $1 ORDER BY first_ticket`,
    [lotteryId],
  );
}

export async function entryHolding(
  q: Query,
  lotteryId: string,
  ticket: bigint,
): Promise<EntryRow | undefined> {
  const [row] = await q<EntryRow>(
    `SELECT * FROM lottery_entries WHERE lottery_id = $1 AND first_ticket <= $2
      ORDER BY first_ticket DESC LIMIT 1`,
    [lotteryId, ticket.toString()],
  );
  return row && BigInt(row.last_ticket) >= ticket ? row : undefined;
}

export async function entriesOfUser(q: Query, userId: string) {
  return q<EntryRow>(
    "SELECT * FROM lottery_entries WHERE user_id = $1 ORDER BY lottery_id, first_ticket LIMIT 5000",
    [userId],
  );
}

/**
 * Writes tickets.csv from the paid orders in ticket order, in the database (draw.ts's `ticketsCsv`
 * format: `first,last,holder\n`, holder the hex sha256 of the order id as text), and answers its
 * sha256. Built where the rows are: a million tickets in 100,000 orders never cross to the server
 * and back as rows and a 8 MB parameter (docs/benchmarks.md, "Lottery draw and verification").
 */
export async function writeTicketList(q: Query, lotteryId: string): Promise<Buffer> {
  // Each order's line was made when it was numbered (migration 0171): the list is their
  // concatenation in ticket order, written and hashed in one statement.
  const [row] = await q<{ hash: Uint8Array }>(
    `WITH written AS (
       INSERT INTO lottery_ticket_lists (lottery_id, csv)
       SELECT $1, convert_to(coalesce(string_agg(csv_line, '' ORDER BY first_ticket), ''), 'UTF8')
         FROM lottery_entries WHERE lottery_id = $1
       ON CONFLICT (lottery_id) DO NOTHING
       RETURNING csv)
     SELECT sha256(csv) AS hash FROM written
     UNION ALL
     SELECT sha256(csv) FROM lottery_ticket_lists WHERE lottery_id = $1 AND NOT EXISTS (SELECT 1 FROM written)`,
    [lotteryId],
  );
  if (!row) throw new Error(`lottery ${lotteryId}: no ticket list written`);
  return buf(row.hash) as Buffer;
}

export async function ticketList(q: Query, lotteryId: string): Promise<Buffer | undefined> {
  const [row] = await q<{ csv: Uint8Array }>("SELECT csv FROM lottery_ticket_lists WHERE lottery_id = $1", [
    lotteryId,
  ]);
  return row ? (buf(row.csv) as Buffer) : undefined;
}

/** A guarded move: only from `from`; false when another process moved it first. */
export async function setState(
  q: Query,
  id: string,
  from: LotteryRow["state"],
  set: Record<string, unknown> & { state: LotteryRow["state"] },
  now: Date,
): Promise<boolean> {
  const keys = Object.keys(set);
  const rows = await q(
    `UPDATE lotteries SET ${[...keys.map((k, i) => `${k} = $${i + 4}`), "updated_at = $3"].join(", ")}
      WHERE id = $1 AND state = $2 RETURNING id`,
    [id, from, now, ...keys.map((k) => set[k])],
  );
  return rows.length > 0;
}

/** Names and images of some lotteries (the orders module's views of ticket orders). */
export async function namesOf(q: Query, ids: string[]) {
  if (ids.length === 0) return [];
  return q<{ id: string; name: string; image_url: string | null; prize_nft_id: string | null }>(
    "SELECT id, name, image_url, prize_nft_id FROM lotteries WHERE id = ANY($1::uuid[])",
    [ids],
  );
}

/** The ranges of some paid ticket orders. */
export async function entriesOfOrders(q: Query, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return q<EntryRow>("SELECT * FROM lottery_entries WHERE order_id = ANY($1::uuid[])", [orderIds]);
}

/** Every player of a lottery (one row per user) with their ticket count. */
export async function playersOf(
  q: Query,
  lotteryId: string,
): Promise<{ user_id: string; tickets: string }[]> {
  return q(
    `SELECT user_id, sum(last_ticket - first_ticket + 1)::text AS tickets FROM lottery_entries
      WHERE lottery_id = $1 GROUP BY user_id ORDER BY user_id`,
    [lotteryId],
  );
}

/** Records a drawn prize pool's payment once; false when it is not owed (not drawn, an NFT, paid already). */
export async function markPrizePaid(
  q: Query,
  id: string,
  p: { by: string; reference: string; now: Date },
): Promise<boolean> {
  const rows = await q(
    `UPDATE lotteries SET prize_paid_at = $2, prize_paid_by = $3, prize_payment_reference = $4, updated_at = $2
      WHERE id = $1 AND state = 'drawn' AND prize_kind = 'pool' AND prize_paid_at IS NULL RETURNING 1`,
    [id, p.now, p.by, p.reference],
  );
  return rows.length > 0;
}
