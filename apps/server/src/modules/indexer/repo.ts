import type { Query } from "../../db/query.ts";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import {
  type IndexedLog,
  keyObject,
  type LoadedRows,
  MUTABLE_TABLES,
  type MutableRows,
  type MutableTable,
  type UndoEntry,
} from "./apply.ts";
import type { PauseEvent } from "./pause.ts";
import {
  indexerAuctions,
  indexerBids,
  indexerBlocks,
  indexerEvents,
  indexerListings,
  indexerNotifications,
  indexerOperatorApprovals,
  indexerOwnerEpochs,
  indexerSales,
  indexerTokens,
  indexerTransfers,
} from "./tables.ts";

/** Raw SQL on a Database or inside a transaction (both have this shape). */
export type { Query } from "../../db/query.ts";

// Bulk statements take their rows as one JSON parameter (jsonb_to_recordset): one statement per
// table and batch whatever the number of rows, on both engines, with no parameter-count limit.

interface Shape {
  name: string;
  /** Columns other than chain_id, with their SQL types. */
  columns: { name: string; type: string }[];
  key: string[];
}

function shapeOf(table: PgTable, key: string[]): Shape {
  const cfg = getTableConfig(table);
  return {
    name: cfg.name,
    columns: cfg.columns
      .filter((c) => !["chain_id", "id", "created_at", "updated_at"].includes(c.name))
      .map((c) => ({ name: c.name, type: c.getSQLType() })),
    key,
  };
}

const MUTABLE: Record<MutableTable, Shape> = {
  tokens: shapeOf(indexerTokens, ["token_id"]),
  listings: shapeOf(indexerListings, ["token_id"]),
  auctions: shapeOf(indexerAuctions, ["token_id"]),
  approvals: shapeOf(indexerOperatorApprovals, ["owner", "operator"]),
  epochs: shapeOf(indexerOwnerEpochs, ["owner"]),
};

const HISTORY = {
  transfers: shapeOf(indexerTransfers, []),
  bids: shapeOf(indexerBids, []),
  sales: shapeOf(indexerSales, []),
  notifications: shapeOf(indexerNotifications, []),
  blocks: shapeOf(indexerBlocks, []),
  events: shapeOf(indexerEvents, []),
};

/** Select list that returns uint256 and int8 columns as decimal strings (never a lossy number). */
const selectList = (s: Shape) =>
  s.columns
    .map((c) => (/^(numeric|bigint)/.test(c.type) ? `${c.name}::text AS ${c.name}` : c.name))
    .join(", ");
const recordType = (s: Shape) => s.columns.map((c) => `${c.name} ${c.type}`).join(", ");
const names = (s: Shape) => s.columns.map((c) => c.name).join(", ");

function insertSql(s: Shape, conflict: string): string {
  return `INSERT INTO ${s.name} (chain_id, ${names(s)})
    SELECT $1, ${names(s)} FROM json_to_recordset($2::json) AS x(${recordType(s)}) ${conflict}`;
}

function upsertSql(s: Shape): string {
  const updates = s.columns
    .filter((c) => !s.key.includes(c.name))
    .map((c) => `${c.name} = EXCLUDED.${c.name}`)
    .join(", ");
  return insertSql(s, `ON CONFLICT (chain_id, ${s.key.join(", ")}) DO UPDATE SET ${updates}`);
}

function keyMatch(s: Shape): string {
  const keyType = (k: string) => s.columns.find((c) => c.name === k)?.type ?? "text";
  return `(${s.key.join(", ")}) IN (SELECT ${s.key.join(", ")} FROM jsonb_to_recordset($2::jsonb) AS k(${s.key
    .map((k) => `${k} ${keyType(k)}`)
    .join(", ")}))`;
}

/** Loads the rows a batch touches; keys without a row map to null. */
export async function loadRows(
  q: Query,
  chainId: number,
  keys: { [T in MutableTable]: Set<string> },
): Promise<LoadedRows> {
  const rows = {} as LoadedRows;
  for (const table of MUTABLE_TABLES) {
    const s = MUTABLE[table];
    const map = new Map<string, MutableRows[MutableTable] | null>();
    const wanted = [...keys[table]];
    for (const k of wanted) map.set(k, null);
    if (wanted.length) {
      const found = await q<MutableRows[MutableTable]>(
        `SELECT ${selectList(s)} FROM ${s.name} WHERE chain_id = $1 AND ${keyMatch(s)}`,
        [chainId, JSON.stringify(wanted.map((k) => keyObject(table, k)))],
      );
      for (const r of found) map.set(keyString(table, r), r);
    }
    (rows as Record<MutableTable, Map<string, unknown>>)[table] = map;
  }
  return rows;
}

function keyString(table: MutableTable, row: MutableRows[MutableTable]): string {
  const r = row as unknown as Record<string, string>;
  return MUTABLE[table].key.map((k) => r[k]).join(" ");
}

/** Writes the changed rows of each table back (upserts, and deletes for rows that are gone). */
export async function writeRows(
  q: Query,
  chainId: number,
  rows: LoadedRows,
  changed: { [T in MutableTable]: Set<string> },
): Promise<void> {
  for (const table of MUTABLE_TABLES) {
    const present: unknown[] = [];
    const gone: Record<string, string>[] = [];
    for (const key of changed[table]) {
      const row = rows[table].get(key);
      if (row) present.push(row);
      else gone.push(keyObject(table, key));
    }
    await putRows(q, chainId, table, present, gone);
  }
}

async function putRows(
  q: Query,
  chainId: number,
  table: MutableTable,
  present: unknown[],
  gone: Record<string, string>[],
): Promise<void> {
  const s = MUTABLE[table];
  if (gone.length) {
    await q(`DELETE FROM ${s.name} WHERE chain_id = $1 AND ${keyMatch(s)}`, [chainId, JSON.stringify(gone)]);
  }
  if (present.length) await q(upsertSql(s), [chainId, JSON.stringify(present)]);
}

export type HistoryTable = keyof typeof HISTORY;

/** Appends history rows (transfers, bids, sales, blocks, events, notifications); duplicates are skipped. */
export async function insertHistory<T>(
  q: Query,
  chainId: number,
  table: HistoryTable,
  rows: unknown[],
  returning = "",
): Promise<T[]> {
  if (!rows.length) return [];
  return q<T>(`${insertSql(HISTORY[table], "ON CONFLICT DO NOTHING")} ${returning}`, [
    chainId,
    JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
  ]);
}

/**
 * Stores the batch's logs; returns the logs that were not stored yet (the ones to apply). Normally
 * no log of the range is stored (the checkpoint commits with them), and all are inserted at once;
 * only a re-run of stored blocks pays for finding out which ones are new.
 */
export async function insertEvents(
  q: Query,
  chainId: number,
  logs: IndexedLog[],
  range: { from: bigint; to: bigint },
): Promise<IndexedLog[]> {
  if (!logs.length) return [];
  const [stored] = await q<{ n: number }>(
    `SELECT count(*)::int AS n FROM indexer_events WHERE chain_id = $1 AND block_number BETWEEN $2 AND $3`,
    [chainId, range.from.toString(), range.to.toString()],
  );
  const rows = logs.map((l) => ({
    tx_hash: l.txHash,
    log_index: l.logIndex,
    block_number: l.blockNumber,
    block_hash: l.blockHash,
    tx_index: l.txIndex,
    contract: l.contract,
    name: l.name,
    args: l.args,
  }));
  if (!stored || Number(stored.n) === 0) {
    await insertHistory(q, chainId, "events", rows);
    return logs;
  }
  const inserted = await insertHistory<{ tx_hash: string; log_index: number }>(
    q,
    chainId,
    "events",
    rows,
    "RETURNING tx_hash, log_index",
  );
  const fresh = new Set(inserted.map((r) => `${r.tx_hash} ${r.log_index}`));
  return logs.filter((l) => fresh.has(`${l.txHash} ${l.logIndex}`));
}

export async function insertUndo(
  q: Query,
  chainId: number,
  undo: UndoEntry[],
  batch: { from: bigint; to: bigint },
): Promise<void> {
  if (!undo.length) return;
  await q(
    `INSERT INTO indexer_undo (chain_id, from_block, block_number, tbl, key, old_row)
     SELECT $1, $2, $3, tbl, key, old_row FROM json_to_recordset($4::json) AS x(tbl text, key jsonb, old_row jsonb)`,
    [
      chainId,
      batch.from.toString(),
      batch.to.toString(),
      JSON.stringify(undo.map((u) => ({ tbl: u.table, key: keyObject(u.table, u.key), old_row: u.old }))),
    ],
  );
}

/**
 * Undoes everything applied after block `ancestor`, or after the start of the batch that contains
 * it (undo images are per batch): mutable rows get back their images, newest first, and events,
 * history and notifications after that point are deleted. Returns the block the state is now at.
 */
export async function rollbackTo(q: Query, chainId: number, ancestor: bigint): Promise<bigint> {
  const [straddle] = await q<{ b: string | null }>(
    "SELECT (min(from_block) - 1)::text AS b FROM indexer_undo WHERE chain_id = $1 AND block_number > $2",
    [chainId, ancestor.toString()],
  );
  const to = straddle?.b != null && BigInt(straddle.b) < ancestor ? BigInt(straddle.b) : ancestor;
  const undo = await q<{ tbl: MutableTable; key: Record<string, string>; old_row: unknown }>(
    `SELECT tbl, key, old_row FROM indexer_undo WHERE chain_id = $1 AND block_number > $2 ORDER BY id DESC`,
    [chainId, to.toString()],
  );
  for (const u of undo) {
    if (u.old_row) await putRows(q, chainId, u.tbl, [u.old_row], []);
    else await putRows(q, chainId, u.tbl, [], [u.key]);
  }
  for (const t of [
    "indexer_undo",
    "indexer_events",
    "indexer_transfers",
    "indexer_bids",
    "indexer_sales",
    "indexer_notifications",
    "indexer_blocks",
  ]) {
    await q(`DELETE FROM ${t} WHERE chain_id = $1 AND block_number > $2`, [chainId, to.toString()]);
  }
  return to;
}

/** Forgets everything indexed on a chain (its contracts were redeployed, or a reorg went past the window). */
export async function resetChain(q: Query, chainId: number): Promise<void> {
  for (const t of [
    "indexer_undo",
    "indexer_events",
    "indexer_blocks",
    "indexer_transfers",
    "indexer_bids",
    "indexer_sales",
    "indexer_notifications",
    "indexer_tokens",
    "indexer_listings",
    "indexer_auctions",
    "indexer_operator_approvals",
    "indexer_owner_epochs",
    "indexer_checkpoints",
  ]) {
    await q(`DELETE FROM ${t} WHERE chain_id = $1`, [chainId]);
  }
}

export interface Checkpoint {
  collectible: string;
  marketplace: string;
  blockNumber: bigint;
  blockHash: string;
}

interface CheckpointRow {
  collectible: string;
  marketplace: string;
  block_number: string;
  block_hash: string;
}

/** The checkpoint of a chain; `forUpdate` locks its row for the rest of the transaction. */
export async function getCheckpoint(
  q: Query,
  chainId: number,
  forUpdate = false,
): Promise<Checkpoint | undefined> {
  const rows = await q<CheckpointRow>(
    `SELECT collectible, marketplace, block_number::text AS block_number, block_hash
       FROM indexer_checkpoints WHERE chain_id = $1${forUpdate ? " FOR UPDATE" : ""}`,
    [chainId],
  );
  const r = rows[0];
  return r
    ? {
        collectible: r.collectible,
        marketplace: r.marketplace,
        blockNumber: BigInt(r.block_number),
        blockHash: r.block_hash,
      }
    : undefined;
}

export async function putCheckpoint(q: Query, chainId: number, c: Checkpoint): Promise<void> {
  await q(
    `INSERT INTO indexer_checkpoints (chain_id, collectible, marketplace, block_number, block_hash, updated_at)
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT (chain_id) DO UPDATE SET collectible = EXCLUDED.collectible, marketplace = EXCLUDED.marketplace,
       block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, updated_at = now()`,
    [chainId, c.collectible, c.marketplace, c.blockNumber.toString(), c.blockHash],
  );
}

/** Stored block hashes at or below `atMost`, newest first (the walk back to the common ancestor). */
export async function recentBlocks(
  q: Query,
  chainId: number,
  atMost: bigint,
): Promise<{ number: bigint; hash: string }[]> {
  const rows = await q<{ block_number: string; block_hash: string }>(
    `SELECT block_number::text AS block_number, block_hash FROM indexer_blocks
      WHERE chain_id = $1 AND block_number <= $2 ORDER BY block_number DESC`,
    [chainId, atMost.toString()],
  );
  return rows.map((r) => ({ number: BigInt(r.block_number), hash: r.block_hash }));
}

/** Drops block hashes and undo images older than `below` (outside the reorg window). */
export async function pruneBelow(q: Query, chainId: number, below: bigint): Promise<void> {
  await q("DELETE FROM indexer_blocks WHERE chain_id = $1 AND block_number < $2", [
    chainId,
    below.toString(),
  ]);
  await q("DELETE FROM indexer_undo WHERE chain_id = $1 AND block_number < $2", [chainId, below.toString()]);
}

// ---------------------------------------------------------------- reads (the token API)

export interface TokenViewRow {
  token_id: string;
  nft_number: string;
  edition: number;
  owner: string;
  royalty_bps: number;
  listing_seller: string | null;
  listing_price: string | null;
  auction_seller: string | null;
  auction_reserve: string | null;
  auction_high: string | null;
  auction_bidder: string | null;
  auction_ends: string | null;
  auction_status: string | null;
}

/**
 * Tokens with their live listing (the one the marketplace would sell now: same token version and
 * seller epoch as when listed) and their current auction (open, or settled and not moved since).
 */
const TOKEN_VIEW = `
  SELECT t.token_id::text AS token_id, t.nft_number::text AS nft_number, t.edition, t.owner, t.royalty_bps,
         CASE WHEN live.ok THEN l.seller END AS listing_seller,
         CASE WHEN live.ok THEN l.price_wei::text END AS listing_price,
         CASE WHEN shown.ok THEN a.seller END AS auction_seller,
         CASE WHEN shown.ok THEN a.reserve_wei::text END AS auction_reserve,
         CASE WHEN shown.ok THEN a.highest_bid_wei::text END AS auction_high,
         CASE WHEN shown.ok THEN a.highest_bidder END AS auction_bidder,
         CASE WHEN shown.ok THEN a.ends_at::text END AS auction_ends,
         CASE WHEN shown.ok THEN a.status END AS auction_status
    FROM indexer_tokens t
    LEFT JOIN indexer_listings l ON l.chain_id = t.chain_id AND l.token_id = t.token_id
    LEFT JOIN indexer_owner_epochs e ON e.chain_id = t.chain_id AND e.owner = l.seller
    LEFT JOIN indexer_auctions a ON a.chain_id = t.chain_id AND a.token_id = t.token_id
    CROSS JOIN LATERAL (SELECT l.token_version = t.version AND l.seller = t.owner
                               AND l.owner_epoch = COALESCE(e.epoch, 0) AS ok) live
    CROSS JOIN LATERAL (SELECT a.status = 'open' OR (a.status = 'settled' AND a.settled_version = t.version) AS ok) shown
   WHERE t.chain_id = $1`;

export function tokenById(q: Query, chainId: number, tokenId: string): Promise<TokenViewRow[]> {
  return q<TokenViewRow>(`${TOKEN_VIEW} AND t.token_id = $2::numeric`, [chainId, tokenId]);
}

/** Every token the indexer knows on a chain (minted and not burnt), by token id. */
export async function allTokenIds(q: Query, chainId: number): Promise<string[]> {
  const rows = await q<{ token_id: string }>(
    "SELECT token_id::text AS token_id FROM indexer_tokens WHERE chain_id = $1 ORDER BY token_id",
    [chainId],
  );
  return rows.map((r) => r.token_id);
}

/** Every token the indexer knows on a chain with its catalogue number, by token id (the metadata refresh's list). */
export async function tokensWithCatalogueNumbers(
  q: Query,
  chainId: number,
): Promise<{ token_id: string; nft_number: string }[]> {
  return q<{ token_id: string; nft_number: string }>(
    "SELECT token_id::text AS token_id, nft_number::text AS nft_number FROM indexer_tokens WHERE chain_id = $1 ORDER BY token_id",
    [chainId],
  );
}

/** Tokens an address holds or has in an open auction, by token id (at most `limit`). */
export function tokensOfAccount(
  q: Query,
  chainId: number,
  address: string,
  limit: number,
): Promise<TokenViewRow[]> {
  return q<TokenViewRow>(
    `${TOKEN_VIEW} AND (t.owner = $2 OR (a.status = 'open' AND a.seller = $2)) ORDER BY t.token_id LIMIT $3`,
    [chainId, address, limit],
  );
}

export interface ActivityRow {
  kind: "mint" | "transfer" | "bid" | "sale";
  token_id: string;
  tx_hash: string;
  block_number: string;
  block_time: Date | string;
  from_address: string | null;
  to_address: string | null;
  amount_wei: string | null;
  sale_kind: "primary" | "listing" | "auction" | null;
}

/** Mints, transfers, bids and sales of the tokens of catalogue NFT `nftNumber`, newest first. */
export function activityOfNft(
  q: Query,
  chainId: number,
  nftNumber: string,
  limit: number,
): Promise<ActivityRow[]> {
  return q<ActivityRow>(
    `WITH toks AS (SELECT token_id FROM indexer_tokens WHERE chain_id = $1 AND nft_number = $2::bigint)
     SELECT kind, token_id::text AS token_id, tx_hash, block_number::text AS block_number, block_time,
            from_address, to_address, amount_wei::text AS amount_wei, sale_kind
       FROM (
         SELECT CASE WHEN x.from_address = '0x0000000000000000000000000000000000000000' THEN 'mint' ELSE 'transfer' END AS kind,
                x.token_id, x.tx_hash, x.block_number, x.log_index, x.block_time,
                NULLIF(x.from_address, '0x0000000000000000000000000000000000000000') AS from_address, x.to_address,
                NULL::numeric AS amount_wei, NULL::text AS sale_kind
           FROM indexer_transfers x WHERE x.chain_id = $1 AND x.token_id IN (SELECT token_id FROM toks)
         UNION ALL
         SELECT 'bid', b.token_id, b.tx_hash, b.block_number, b.log_index, b.block_time, b.bidder, NULL, b.amount_wei, NULL
           FROM indexer_bids b WHERE b.chain_id = $1 AND b.token_id IN (SELECT token_id FROM toks)
         UNION ALL
         SELECT 'sale', s.token_id, s.tx_hash, s.block_number, s.log_index, s.block_time, s.seller, s.buyer, s.price_wei, s.kind
           FROM indexer_sales s WHERE s.chain_id = $1 AND s.token_id IN (SELECT token_id FROM toks)
       ) u
      ORDER BY u.block_number DESC, u.log_index DESC
      LIMIT $3`,
    [chainId, nftNumber, limit],
  );
}

export interface MintRow {
  token_id: string;
  tx_hash: string;
  to_address: string;
  block_number: string;
}

/** The mints (transfers from the zero address) of these tokens that the indexer has applied. */
export function mintsOf(q: Query, chainId: number, tokenIds: string[]): Promise<MintRow[]> {
  return q<MintRow>(
    `SELECT token_id::text AS token_id, tx_hash, to_address, block_number::text AS block_number
       FROM indexer_transfers
      WHERE chain_id = $1 AND token_id = ANY($2::numeric[])
        AND from_address = '0x0000000000000000000000000000000000000000'`,
    [chainId, tokenIds],
  );
}

export interface AuctionRow {
  token_id: string;
  seller: string;
  reserve_wei: string;
  duration_days: number;
  min_increment_bps: number | null;
  highest_bid_wei: string | null;
  highest_bidder: string | null;
  ends_at: string | null;
  status: string;
}

/** The indexer's record of a token's auction (open or finished), if any. */
export function auctionOf(q: Query, chainId: number, tokenId: string): Promise<AuctionRow[]> {
  return q<AuctionRow>(
    `SELECT token_id::text AS token_id, seller, reserve_wei::text AS reserve_wei, duration_days, min_increment_bps,
            highest_bid_wei::text AS highest_bid_wei, highest_bidder, ends_at::text AS ends_at, status
       FROM indexer_auctions WHERE chain_id = $1 AND token_id = $2::numeric`,
    [chainId, tokenId],
  );
}

/** The marketplace's latest Paused or Unpaused event on `chainId` (index indexer_events_pause_idx). */
export async function lastPauseEvent(q: Query, chainId: number): Promise<PauseEvent | undefined> {
  const [row] = await q<PauseEvent>(
    `SELECT name, args FROM indexer_events
      WHERE chain_id = $1 AND contract = 'marketplace' AND name IN ('Paused', 'Unpaused')
      ORDER BY block_number DESC, log_index DESC LIMIT 1`,
    [chainId],
  );
  return row;
}

/** Tokens with a live listing or an open auction, newest token first (at most `limit`). */
export function tokensForSale(q: Query, chainId: number, limit: number): Promise<TokenViewRow[]> {
  return q<TokenViewRow>(
    `${TOKEN_VIEW} AND (live.ok OR a.status = 'open') ORDER BY t.minted_block DESC, t.token_id DESC LIMIT $2`,
    [chainId, limit],
  );
}

export interface ChainNotificationRow {
  id: string;
  kind: string;
  recipient: string;
  token_id: string;
  amount_wei: string | null;
  nft_number: string | null;
}

/** The indexer's notification rows after `afterId`, oldest first, with their token's catalogue NFT. */
export function notificationsAfter(q: Query, chainId: number, afterId: string, limit: number) {
  return q<ChainNotificationRow>(
    `SELECT n.id::text AS id, n.kind, n.recipient, n.token_id::text AS token_id, n.amount_wei::text AS amount_wei,
            t.nft_number::text AS nft_number
       FROM indexer_notifications n
       LEFT JOIN indexer_tokens t ON t.chain_id = n.chain_id AND t.token_id = n.token_id
      WHERE n.chain_id = $1 AND n.id > $2::bigint ORDER BY n.id LIMIT $3`,
    [chainId, afterId, limit],
  );
}

/** Tokens any of `addresses` holds or has in an open auction (at most `limit`), by token id. */
export function tokensOfAccounts(
  q: Query,
  chainId: number,
  addresses: string[],
  limit: number,
): Promise<TokenViewRow[]> {
  return q<TokenViewRow>(
    `${TOKEN_VIEW} AND (t.owner = ANY($2::text[]) OR (a.status = 'open' AND a.seller = ANY($2::text[])))
     ORDER BY t.token_id LIMIT $3`,
    [chainId, addresses, limit],
  );
}

export interface BidOfRow {
  token_id: string;
  nft_number: string | null;
  bidder: string;
  amount_wei: string;
  block_number: string;
  block_time: Date | string;
  tx_hash: string;
  /** The token's current (latest) auction. */
  auction_status: string | null;
  auction_created_block: string | null;
  auction_high_bidder: string | null;
  auction_high_wei: string | null;
  auction_ends: string | null;
}

/** Every bid placed from `addresses`, newest first, with the token's latest auction. */
export function bidsOf(q: Query, chainId: number, addresses: string[], limit: number): Promise<BidOfRow[]> {
  return q<BidOfRow>(
    `SELECT b.token_id::text AS token_id, t.nft_number::text AS nft_number, b.bidder, b.amount_wei::text AS amount_wei,
            b.block_number::text AS block_number, b.block_time, b.tx_hash,
            a.status AS auction_status, a.created_block::text AS auction_created_block,
            a.highest_bidder AS auction_high_bidder, a.highest_bid_wei::text AS auction_high_wei,
            a.ends_at::text AS auction_ends
       FROM indexer_bids b
       LEFT JOIN indexer_tokens t ON t.chain_id = b.chain_id AND t.token_id = b.token_id
       LEFT JOIN indexer_auctions a ON a.chain_id = b.chain_id AND a.token_id = b.token_id
      WHERE b.chain_id = $1 AND b.bidder = ANY($2::text[])
      ORDER BY b.block_number DESC, b.log_index DESC LIMIT $3`,
    [chainId, addresses, limit],
  );
}

export interface AccountActivityRow {
  kind: "bid" | "auction" | "sold" | "purchase";
  token_id: string;
  nft_number: string | null;
  amount_wei: string | null;
  at: Date | string;
  tx_hash: string | null;
}

/** Bids, auctions started, sales and purchases of `addresses`, newest first. */
export function activityOfAccounts(
  q: Query,
  chainId: number,
  addresses: string[],
  limit: number,
): Promise<AccountActivityRow[]> {
  return q<AccountActivityRow>(
    `SELECT x.kind, x.token_id::text AS token_id, t.nft_number::text AS nft_number, x.amount_wei::text AS amount_wei,
            x.at, x.tx_hash
       FROM (
         SELECT 'bid' AS kind, token_id, amount_wei, block_time AS at, tx_hash, block_number
           FROM indexer_bids WHERE chain_id = $1 AND bidder = ANY($2::text[])
         UNION ALL
         SELECT 'auction', a.token_id, a.reserve_wei, bl.block_time, NULL, a.created_block
           FROM indexer_auctions a
           LEFT JOIN indexer_blocks bl ON bl.chain_id = a.chain_id AND bl.block_number = a.created_block
          WHERE a.chain_id = $1 AND a.seller = ANY($2::text[]) AND bl.block_time IS NOT NULL
         UNION ALL
         SELECT 'sold', token_id, price_wei, block_time, tx_hash, block_number
           FROM indexer_sales WHERE chain_id = $1 AND seller = ANY($2::text[])
         UNION ALL
         SELECT 'purchase', token_id, price_wei, block_time, tx_hash, block_number
           FROM indexer_sales WHERE chain_id = $1 AND buyer = ANY($2::text[])
       ) x
       LEFT JOIN indexer_tokens t ON t.chain_id = $1 AND t.token_id = x.token_id
      ORDER BY x.at DESC, x.block_number DESC LIMIT $3`,
    [chainId, addresses, limit],
  );
}

export interface SaleOfAccountRow {
  chain_id: number;
  block_number: string;
  log_index: number;
  tx_hash: string;
  block_time: Date | string;
  token_id: string;
  nft_number: string | null;
  kind: "primary" | "listing" | "auction";
  seller: string;
  buyer: string;
  price_wei: string;
}

/** Every sale (on any chain) in which `addresses` (lowercase) sold or bought, oldest first. */
export function salesOfAccounts(q: Query, addresses: string[]): Promise<SaleOfAccountRow[]> {
  return q<SaleOfAccountRow>(
    `SELECT s.chain_id, s.block_number::text AS block_number, s.log_index, s.tx_hash, s.block_time,
            s.token_id::text AS token_id, t.nft_number::text AS nft_number, s.kind, s.seller, s.buyer,
            s.price_wei::text AS price_wei
       FROM indexer_sales s
       LEFT JOIN indexer_tokens t ON t.chain_id = s.chain_id AND t.token_id = s.token_id
      WHERE lower(s.seller) = ANY($1::text[]) OR lower(s.buyer) = ANY($1::text[])
      ORDER BY s.block_time, s.block_number, s.log_index`,
    [addresses],
  );
}

/** A sale on the chain with its token's catalogue NFT number (the studio earnings, decision 174). */
export interface EarningSaleRow {
  kind: "primary" | "listing" | "auction";
  block_number: string;
  log_index: number;
  tx_hash: string;
  block_time: Date;
  token_id: string;
  nft_number: string;
  seller: string;
  price_wei: string;
  royalty_wei: string;
  fee_wei: string;
}

/** Every indexed sale of a chain, oldest first, with the catalogue NFT its token is an edition of. */
export function salesWithNft(q: Query, chainId: number): Promise<EarningSaleRow[]> {
  return q<EarningSaleRow>(
    `SELECT s.kind, s.block_number::text AS block_number, s.log_index, s.tx_hash, s.block_time,
            s.token_id::text AS token_id, t.nft_number::text AS nft_number, s.seller,
            s.price_wei::text AS price_wei, s.royalty_wei::text AS royalty_wei, s.fee_wei::text AS fee_wei
       FROM indexer_sales s JOIN indexer_tokens t ON t.chain_id = s.chain_id AND t.token_id = s.token_id
      WHERE s.chain_id = $1 ORDER BY s.block_number, s.log_index`,
    [chainId],
  );
}
