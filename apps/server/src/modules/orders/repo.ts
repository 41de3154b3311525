import type { OrderProvider, OrderState } from "@diginoor/api/orders";

import type { Query } from "../../db/query.ts";

export type { Query };

export interface OrderRow {
  id: string;
  number: string;
  user_id: string;
  /** The NFT bought; null for a lottery ticket order. */
  nft_id: string | null;
  provider: OrderProvider;
  state: OrderState;
  /** The edition held or minted; null for a ticket order. */
  edition: number | null;
  /** Ticket orders (migration 0151): the lottery and how many tickets. */
  lottery_id: string | null;
  ticket_count: number | null;
  usd_cents: string;
  quote_id: string | null;
  chain_id: number | null;
  price_wei: string | null;
  platform_fee_bps: number | null;
  payout_address: string | null;
  voucher_expiry: string | null;
  buyer_address: string | null;
  tx_hash: string | null;
  /** The hosted checkout session of a card order at its provider. */
  provider_session: string | null;
  /** Hosted-checkout orders: what the provider charges, in its currency's minor units (decision 142). */
  pay_currency: "usd" | "inr" | null;
  pay_amount_minor: string | null;
  /** INR orders: the USD→INR rate (micro-rupees per dollar) the price was converted at. */
  inr_micros_per_usd: string | null;
  checkout_url: string | null;
  provider_payment_session: string | null;
  /** The provider's id of the payment (Stripe: its PaymentIntent), kept when paid: what a refund names. */
  provider_payment_ref: string | null;
  /** A wallet order's voucher signature, made once at creation. */
  voucher_signature: string | null;
  /** `resale`: buys a live listing of an existing token with our buyer key (mints nothing, holds no edition). */
  kind: "primary" | "resale";
  /** Resale orders: the listed token and its seller when quoted (its price is `price_wei`). */
  resale_token_id: string | null;
  listing_seller: string | null;
  reserved_until: Date;
  created_at: Date;
  updated_at: Date;
}

export interface TransitionRow {
  from_state: OrderState | null;
  to_state: OrderState;
  cause: string;
  at: Date;
}

const COLUMNS = `id, number::text AS number, user_id, nft_id, provider, state, edition, usd_cents::text AS usd_cents,
  quote_id, chain_id, price_wei::text AS price_wei, platform_fee_bps, payout_address, voucher_expiry::text AS voucher_expiry, buyer_address, tx_hash,
  provider_session, reserved_until, created_at, updated_at, pay_currency, pay_amount_minor::text AS pay_amount_minor,
  inr_micros_per_usd::text AS inr_micros_per_usd, checkout_url, provider_payment_session, voucher_signature, provider_payment_ref,
  lottery_id, ticket_count, kind, resale_token_id::text AS resale_token_id, listing_seller`;

/** States in which an order still holds its edition. */
export const LIVE_STATES: OrderState[] = ["created", "awaiting_payment", "paid", "minting", "fulfilled"];
/** States of an order being refunded or refunded: it holds its edition only if its token was minted (tx_hash). */
export const REFUND_STATES: OrderState[] = ["refund_pending", "refunded", "refund_failed"];
/** States from which an order can still change on its own (payment, mint, expiry). */
export const OPEN_STATES: OrderState[] = ["created", "awaiting_payment", "paid", "minting"];

/** The lowest edition number of NFT `nftId` that no live order or prize holds (call with the NFT row locked). */
export async function freeEdition(q: Query, nftId: string, editionSize: number): Promise<number | undefined> {
  const rows = await q<{ edition: number }>(
    `SELECT g AS edition FROM generate_series(1, $2::int) g
      WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.nft_id = $1 AND o.edition = g AND o.kind = 'primary'
        AND (o.state = ANY($3::text[]) OR (o.state = ANY($4::text[]) AND o.tx_hash IS NOT NULL)))
        AND NOT EXISTS (SELECT 1 FROM prize_mints p WHERE p.nft_id = $1 AND p.edition = g)
      ORDER BY g LIMIT 1`,
    [nftId, editionSize, LIVE_STATES, REFUND_STATES],
  );
  return rows[0]?.edition;
}

/** States in which an order holds its edition without being paid (the caps count these). */
export const UNPAID_STATES: OrderState[] = ["created", "awaiting_payment"];

/** Tickets of a lottery a buyer is paying for now (unpaid ticket orders: the per-player cap counts them). */
export async function unpaidTickets(q: Query, userId: string, lotteryId: string): Promise<number> {
  const [row] = await q<{ n: string | null }>(
    `SELECT sum(ticket_count) AS n FROM orders
      WHERE lottery_id = $1 AND user_id = $2 AND state = ANY($3::text[])`,
    [lotteryId, userId, UNPAID_STATES],
  );
  return Number(row?.n ?? 0);
}

/** How many unpaid NFT orders an account, and a receiving wallet address, hold now (ticket orders hold no edition). */
export async function unpaidHolds(
  q: Query,
  userId: string,
  address: string,
): Promise<{ account: number; address: number }> {
  const [row] = await q<{ account: number; address: number }>(
    `SELECT (SELECT count(*)::int FROM orders WHERE user_id = $1 AND state = ANY($3::text[])
               AND nft_id IS NOT NULL) AS account,
            (SELECT count(*)::int FROM orders WHERE buyer_address = $2 AND state = ANY($3::text[])) AS address`,
    [userId, address, UNPAID_STATES],
  );
  return { account: row?.account ?? 0, address: row?.address ?? 0 };
}

/** The fan's unpaid order of an NFT (at most one: `orders_one_unpaid_per_nft_idx`). */
export async function unpaidOrderOf(q: Query, userId: string, nftId: string): Promise<OrderRow | undefined> {
  const rows = await q<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE user_id = $1 AND nft_id = $2 AND state = ANY($3::text[]) LIMIT 1`,
    [userId, nftId, UNPAID_STATES],
  );
  return rows[0];
}

export interface NewOrder {
  userId: string;
  /** Null for a ticket order (then `lotteryId` and `ticketCount`). */
  nftId: string | null;
  provider: OrderProvider;
  state: OrderState;
  edition: number | null;
  lotteryId?: string | null;
  ticketCount?: number | null;
  usdCents: number;
  quoteId: string | null;
  chainId: number | null;
  priceWei: string | null;
  platformFeeBps: number | null;
  payoutAddress: string | null;
  voucherExpiry: bigint | null;
  buyerAddress: string | null;
  reservedUntil: Date;
  now: Date;
  providerSession?: string | null;
  payCurrency?: "usd" | "inr" | null;
  payAmountMinor?: bigint | null;
  inrMicrosPerUsd?: bigint | null;
  /** A resale order: the listed token and its seller when quoted (the price is `priceWei`). */
  resale?: { tokenId: string; seller: string };
}

export async function insertOrder(q: Query, o: NewOrder): Promise<OrderRow> {
  const [row] = await q<OrderRow>(
    `INSERT INTO orders (user_id, nft_id, provider, state, edition, usd_cents, quote_id, chain_id, price_wei,
                         platform_fee_bps, payout_address, buyer_address, reserved_until, created_at, updated_at,
                         voucher_expiry, provider_session, pay_currency, pay_amount_minor, inr_micros_per_usd,
                         lottery_id, ticket_count, kind, resale_token_id, listing_seller)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
     RETURNING ${COLUMNS}`,
    [
      o.userId,
      o.nftId,
      o.provider,
      o.state,
      o.edition,
      o.usdCents,
      o.quoteId,
      o.chainId,
      o.priceWei,
      o.platformFeeBps,
      o.payoutAddress,
      o.buyerAddress,
      o.reservedUntil,
      o.now,
      o.voucherExpiry?.toString() ?? null,
      o.providerSession ?? null,
      o.payCurrency ?? null,
      o.payAmountMinor?.toString() ?? null,
      o.inrMicrosPerUsd?.toString() ?? null,
      o.lotteryId ?? null,
      o.ticketCount ?? null,
      o.resale ? "resale" : "primary",
      o.resale?.tokenId ?? null,
      o.resale?.seller ?? null,
    ],
  );
  if (!row) throw new Error("insertOrder: nothing returned");
  return row;
}

export async function findOrder(q: Query, id: string, lock = false): Promise<OrderRow | undefined> {
  const rows = await q<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = $1${lock ? " FOR UPDATE" : ""}`, [
    id,
  ]);
  return rows[0];
}

export function ordersOfUser(q: Query, userId: string, limit: number): Promise<OrderRow[]> {
  return q<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE user_id = $1 ORDER BY created_at DESC, number DESC LIMIT $2`,
    [userId, limit],
  );
}

/** The newest orders of every user, optionally in one state (the studio console). */
export function newestOrders(q: Query, state: OrderState | undefined, limit: number): Promise<OrderRow[]> {
  return q<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE ($1::text IS NULL OR state = $1) ORDER BY created_at DESC, number DESC LIMIT $2`,
    [state ?? null, limit],
  );
}

/** Open orders of some providers (oldest first), for reconciliation. */
export function openOrders(
  q: Query,
  provider: OrderProvider | OrderProvider[],
  limit: number,
): Promise<OrderRow[]> {
  return q<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE provider = ANY($1::text[]) AND state = ANY($2::text[])
      ORDER BY reserved_until LIMIT $3`,
    [Array.isArray(provider) ? provider : [provider], OPEN_STATES, limit],
  );
}

export async function findBySession(
  q: Query,
  provider: OrderProvider,
  session: string,
): Promise<OrderRow | undefined> {
  const rows = await q<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE provider = $1 AND provider_session = $2`,
    [provider, session],
  );
  return rows[0];
}

/**
 * Records a provider event id; false when it was recorded before (a duplicate delivery, counted in
 * its `deliveries`).
 */
export async function claimPaymentEvent(
  q: Query,
  provider: OrderProvider,
  eventId: string,
  type: string,
  now: Date,
): Promise<boolean> {
  const rows = await q<{ first: boolean }>(
    `INSERT INTO payment_events (provider, event_id, type, outcome, received_at)
     VALUES ($1, $2, $3, 'received', $4)
     ON CONFLICT (provider, event_id) DO UPDATE SET deliveries = payment_events.deliveries + 1
     RETURNING deliveries = 1 AS first`,
    [provider, eventId, type, now],
  );
  return rows[0]?.first === true;
}

export async function setPaymentEventOutcome(
  q: Query,
  provider: OrderProvider,
  eventId: string,
  orderId: string | null,
  outcome: string,
): Promise<void> {
  await q("UPDATE payment_events SET order_id = $3, outcome = $4 WHERE provider = $1 AND event_id = $2", [
    provider,
    eventId,
    orderId,
    outcome,
  ]);
}

export function transitionsOf(q: Query, orderId: string): Promise<TransitionRow[]> {
  return q<TransitionRow>(
    "SELECT from_state, to_state, cause, at FROM order_transitions WHERE order_id = $1 ORDER BY id",
    [orderId],
  );
}

/** The state histories of several orders in one query, by order id. */
export async function transitionsOfMany(q: Query, orderIds: string[]): Promise<Map<string, TransitionRow[]>> {
  const byOrder = new Map<string, TransitionRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await q<TransitionRow & { order_id: string }>(
    `SELECT order_id, from_state, to_state, cause, at FROM order_transitions
      WHERE order_id = ANY($1::uuid[]) ORDER BY id`,
    [orderIds],
  );
  for (const { order_id, ...t } of rows) byOrder.get(order_id)?.push(t);
  return byOrder;
}

/** Keeps a wallet order's voucher signature (made in the transaction that inserted it). */
export async function setVoucherSignature(q: Query, id: string, signature: string): Promise<void> {
  await q("UPDATE orders SET voucher_signature = $2 WHERE id = $1", [id, signature]);
}

/**
 * Moves an order from one of `from` to `to` and records why; false (nothing written) when the order
 * is no longer in one of `from` (another process moved it first).
 */
export async function transition(
  q: Query,
  id: string,
  from: OrderState[],
  to: OrderState,
  cause: string,
  now: Date,
  set: { txHash?: string } = {},
): Promise<OrderState | undefined> {
  const [row] = await q<{ previous: OrderState }>(
    `UPDATE orders o SET state = $3, updated_at = $4, tx_hash = COALESCE($5, o.tx_hash)
       FROM (SELECT id, state AS previous FROM orders WHERE id = $1 FOR UPDATE) p
      WHERE o.id = p.id AND p.previous = ANY($2::text[])
      RETURNING p.previous`,
    [id, from, to, now, set.txHash ?? null],
  );
  if (!row) return undefined;
  await q(
    "INSERT INTO order_transitions (order_id, from_state, to_state, cause, at) VALUES ($1, $2, $3, $4, $5)",
    [id, row.previous, to, cause, now],
  );
  return row.previous;
}

export async function recordCreation(q: Query, id: string, state: OrderState, cause: string, now: Date) {
  await q(
    "INSERT INTO order_transitions (order_id, from_state, to_state, cause, at) VALUES ($1, NULL, $2, $3, $4)",
    [id, state, cause, now],
  );
}

/** Where the payer of a hosted-checkout order pays, once its provider made the session. */
export async function setCheckout(
  q: Query,
  id: string,
  c: { session: string; url: string; paymentSession?: string | null },
  now: Date,
): Promise<void> {
  await q(
    `UPDATE orders SET provider_session = $2, checkout_url = $3, provider_payment_session = $4, updated_at = $5
      WHERE id = $1`,
    [id, c.session, c.url, c.paymentSession ?? null, now],
  );
}

/** Hosted-checkout orders of `providers` still awaiting payment and older than `before` (reconciliation). */
export function awaitingPayment(
  q: Query,
  providers: OrderProvider[],
  before: Date,
  limit: number,
): Promise<OrderRow[]> {
  return q<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE provider = ANY($1::text[]) AND state = 'awaiting_payment'
        AND provider_session IS NOT NULL AND created_at < $2
      ORDER BY created_at LIMIT $3`,
    [providers, before, limit],
  );
}

export async function setTxHash(q: Query, id: string, txHash: string, now: Date): Promise<void> {
  await q("UPDATE orders SET tx_hash = $2, updated_at = $3 WHERE id = $1", [id, txHash, now]);
}

// ------------------------------------------------------------------ primary auctions

export interface PrimaryAuctionRow {
  nft_id: string;
  edition: number;
  chain_id: number;
  token_id: string;
  reserve_wei: string;
  duration_days: number;
  state: "opening" | "open" | "failed";
  tx_hash: string | null;
  error: string | null;
  created_at: Date;
}

const AUCTION_COLUMNS = `nft_id, edition, chain_id, token_id::text AS token_id, reserve_wei::text AS reserve_wei,
  duration_days, state, tx_hash, error, created_at`;

/** The newest primary auction of an NFT on a chain (the live one, or the last one). */
export async function latestPrimaryAuction(
  q: Query,
  chainId: number,
  nftId: string,
): Promise<PrimaryAuctionRow | undefined> {
  const rows = await q<PrimaryAuctionRow>(
    `SELECT ${AUCTION_COLUMNS} FROM primary_auctions WHERE chain_id = $1 AND nft_id = $2 ORDER BY edition DESC LIMIT 1`,
    [chainId, nftId],
  );
  return rows[0];
}

export async function insertPrimaryAuction(
  q: Query,
  a: { nftId: string; edition: number; chainId: number; reserveWei: string; durationDays: number; now: Date },
): Promise<PrimaryAuctionRow | undefined> {
  const rows = await q<PrimaryAuctionRow>(
    `INSERT INTO primary_auctions (nft_id, edition, chain_id, reserve_wei, duration_days, state, created_at)
     VALUES ($1, $2, $3, $4, $5, 'opening', $6) ON CONFLICT DO NOTHING RETURNING ${AUCTION_COLUMNS}`,
    [a.nftId, a.edition, a.chainId, a.reserveWei, a.durationDays, a.now],
  );
  return rows[0];
}

export async function updatePrimaryAuction(
  q: Query,
  chainId: number,
  nftId: string,
  edition: number,
  set: { state: PrimaryAuctionRow["state"]; txHash?: string | null; error?: string | null },
): Promise<void> {
  await q(
    `UPDATE primary_auctions SET state = $4, tx_hash = COALESCE($5, tx_hash), error = $6
      WHERE chain_id = $1 AND nft_id = $2 AND edition = $3`,
    [chainId, nftId, edition, set.state, set.txHash ?? null, set.error ?? null],
  );
}

/** Primary auctions still being opened on chain (after a crash, the opener resumes them). */
export function openingPrimaryAuctions(q: Query, chainId: number): Promise<PrimaryAuctionRow[]> {
  return q<PrimaryAuctionRow>(
    `SELECT ${AUCTION_COLUMNS} FROM primary_auctions WHERE chain_id = $1 AND state = 'opening' ORDER BY created_at`,
    [chainId],
  );
}

/** Keeps the provider's id of an order's payment (Stripe's PaymentIntent), told by its paid event. */
export async function setPaymentRef(q: Query, id: string, ref: string): Promise<void> {
  await q("UPDATE orders SET provider_payment_ref = $2 WHERE id = $1", [id, ref]);
}

/** The order whose payment is `ref` at `provider` (a refund event that names only the payment). */
export async function findByPaymentRef(q: Query, provider: OrderProvider, ref: string) {
  const rows = await q<{ id: string }>(
    "SELECT id FROM orders WHERE provider = $1 AND provider_payment_ref = $2",
    [provider, ref],
  );
  return rows[0]?.id;
}

export type RefundReason = import("./providers/types.ts").RefundReasonCode;

export interface RefundRow {
  id: string;
  order_id: string;
  reason: RefundReason;
  amount_minor: string;
  currency: string;
  state: "pending" | "requested" | "succeeded" | "failed";
  attempt: number;
  provider_refund_id: string | null;
  detail: string | null;
  requested_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const REFUND_COLUMNS = `id, order_id, reason, amount_minor::text AS amount_minor, currency, state, attempt,
  provider_refund_id, detail, requested_by, created_at, updated_at`;

/** The refund of an order for a reason, once: undefined when it already exists (nothing written). */
export async function insertRefund(
  q: Query,
  r: {
    orderId: string;
    reason: RefundReason;
    amountMinor: bigint;
    currency: string;
    requestedBy: string | null;
    now: Date;
  },
): Promise<RefundRow | undefined> {
  const rows = await q<RefundRow>(
    `INSERT INTO order_refunds (order_id, reason, amount_minor, currency, state, requested_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $6, $6) ON CONFLICT (order_id, reason) DO NOTHING
     RETURNING ${REFUND_COLUMNS}`,
    [r.orderId, r.reason, r.amountMinor.toString(), r.currency, r.requestedBy, r.now],
  );
  return rows[0];
}

export async function findRefund(q: Query, id: string, forUpdate = false): Promise<RefundRow | undefined> {
  const rows = await q<RefundRow>(
    `SELECT ${REFUND_COLUMNS} FROM order_refunds WHERE id = $1${forUpdate ? " FOR UPDATE" : ""}`,
    [id],
  );
  return rows[0];
}

/** An order's refunds, oldest first. */
export function refundsOf(q: Query, orderId: string): Promise<RefundRow[]> {
  return q<RefundRow>(
    `SELECT ${REFUND_COLUMNS} FROM order_refunds WHERE order_id = $1 ORDER BY created_at, id`,
    [orderId],
  );
}

export async function updateRefund(
  q: Query,
  id: string,
  set: { state: RefundRow["state"]; providerRefundId?: string | null; detail?: string; attempt?: number },
  now: Date,
): Promise<void> {
  await q(
    `UPDATE order_refunds SET state = $2, provider_refund_id = COALESCE($3, provider_refund_id),
        detail = COALESCE($4, detail), attempt = COALESCE($5, attempt), updated_at = $6 WHERE id = $1`,
    [id, set.state, set.providerRefundId ?? null, set.detail ?? null, set.attempt ?? null, now],
  );
}

/** Refunds still waiting for their provider's word, last touched before `before`. */
export function openRefunds(q: Query, before: Date, limit: number): Promise<RefundRow[]> {
  return q<RefundRow>(
    `SELECT ${REFUND_COLUMNS} FROM order_refunds WHERE state IN ('pending', 'requested') AND updated_at < $1
      ORDER BY updated_at LIMIT $2`,
    [before, limit],
  );
}

/** The provider took the refund: its id there (a refund already confirmed or failed keeps its state). */
export async function markRefundRequested(q: Query, id: string, providerRefundId: string, now: Date) {
  await q(
    `UPDATE order_refunds SET state = CASE WHEN state = 'pending' THEN 'requested' ELSE state END,
        provider_refund_id = COALESCE(provider_refund_id, $2), updated_at = $3
      WHERE id = $1 AND state IN ('pending', 'requested')`,
    [id, providerRefundId, now],
  );
}

/** A failed refund tried again: a new attempt (a new idempotency key), nothing of the failed one kept but its detail. */
export async function retryRefund(q: Query, id: string, attempt: number, now: Date) {
  await q(
    `UPDATE order_refunds SET state = 'pending', attempt = $2, provider_refund_id = NULL, updated_at = $3
      WHERE id = $1 AND state = 'failed'`,
    [id, attempt, now],
  );
}

/** Marks a refund as looked at now (reconciliation asks again later). */
export async function touchRefund(q: Query, id: string, now: Date) {
  await q("UPDATE order_refunds SET updated_at = $2 WHERE id = $1", [id, now]);
}

// ---- prize mints (an NFT won in a lottery: one edition minted to the winner, decision 161)

export interface PrizeMintRow {
  id: string;
  source: string;
  user_id: string;
  nft_id: string;
  edition: number;
  token_number: string;
  state: "awaiting_wallet" | "minting" | "minted";
  address: string | null;
  tx_hash: string | null;
}

const PRIZE_COLUMNS =
  "id, source, user_id, nft_id, edition, token_number::text AS token_number, state, address, tx_hash";

/** Records a prize's edition and token number once per source; the existing row when it was recorded before. */
export async function insertPrizeMint(
  q: Query,
  p: { source: string; userId: string; nftId: string; edition: number; now: Date },
): Promise<PrizeMintRow> {
  const [row] = await q<PrizeMintRow>(
    `INSERT INTO prize_mints (source, user_id, nft_id, edition, state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'awaiting_wallet', $5, $5) ON CONFLICT (source) DO NOTHING RETURNING ${PRIZE_COLUMNS}`,
    [p.source, p.userId, p.nftId, p.edition, p.now],
  );
  return row ?? ((await findPrizeMint(q, { source: p.source })) as PrizeMintRow);
}

export async function findPrizeMint(
  q: Query,
  by: { id: string } | { source: string },
): Promise<PrizeMintRow | undefined> {
  const [column, value] = "id" in by ? ["id", by.id] : ["source", by.source];
  const rows = await q<PrizeMintRow>(`SELECT ${PRIZE_COLUMNS} FROM prize_mints WHERE ${column} = $1`, [
    value,
  ]);
  return rows[0];
}

/** Prizes not minted yet (all, or one winner's), oldest first. */
export function unmintedPrizes(q: Query, userId: string | null, limit: number): Promise<PrizeMintRow[]> {
  return q<PrizeMintRow>(
    `SELECT ${PRIZE_COLUMNS} FROM prize_mints WHERE state <> 'minted' AND ($1::uuid IS NULL OR user_id = $1)
      ORDER BY created_at LIMIT $2`,
    [userId, limit],
  );
}

/** A guarded move of a prize mint; false when it was not in `from` (another run moved it). */
export async function movePrizeMint(
  q: Query,
  id: string,
  from: PrizeMintRow["state"],
  set: { state: PrizeMintRow["state"]; address?: string; txHash?: string },
  now: Date,
): Promise<boolean> {
  const rows = await q(
    `UPDATE prize_mints SET state = $3, address = COALESCE($4, address), tx_hash = COALESCE($5, tx_hash),
            updated_at = $6 WHERE id = $1 AND state = $2 RETURNING 1`,
    [id, from, set.state, set.address ?? null, set.txHash ?? null, now],
  );
  return rows.length > 0;
}

export async function setPrizeTxHash(q: Query, id: string, txHash: string, now: Date): Promise<void> {
  await q("UPDATE prize_mints SET tx_hash = $2, updated_at = $3 WHERE id = $1", [id, txHash, now]);
}

export interface TaxableOrderRow {
  id: string;
  kind: "primary" | "resale";
  nft_id: string;
  token_id: string;
  chain_id: number | null;
  usd_cents: string;
  pay_currency: "usd" | "inr" | null;
  pay_amount_minor: string | null;
  price_wei: string | null;
  fulfilled_at: Date | string;
}

/**
 * The user's fulfilled card and rupee purchases of NFTs (primary orders and resale listings), oldest
 * first, with the token each delivered. Wallet orders are left out: the chain's sale records them.
 */
export function taxableOrdersOf(q: Query, userId: string): Promise<TaxableOrderRow[]> {
  return q<TaxableOrderRow>(
    `SELECT o.id::text AS id, o.kind, o.nft_id,
            (CASE WHEN o.kind = 'resale' THEN o.resale_token_id ELSE o.number END)::text AS token_id,
            o.chain_id, o.usd_cents::text AS usd_cents, o.pay_currency, o.pay_amount_minor::text AS pay_amount_minor,
            o.price_wei::text AS price_wei,
            COALESCE((SELECT max(t.at) FROM order_transitions t WHERE t.order_id = o.id AND t.to_state = 'fulfilled'),
                     o.updated_at) AS fulfilled_at
       FROM orders o
      WHERE o.user_id = $1 AND o.state = 'fulfilled' AND o.nft_id IS NOT NULL AND o.provider <> 'wallet'
      ORDER BY fulfilled_at`,
    [userId],
  );
}

/**
 * Whether a sale of `tokenId` by `seller` at `priceWei` was a card or rupee purchase of the listing
 * (a fulfilled resale order with those terms: our buyer key paid the seller).
 */
export async function isCardResale(
  q: Query,
  s: { chainId: number; tokenId: string; seller: string; priceWei: string },
): Promise<boolean> {
  const rows = await q(
    `SELECT 1 FROM orders
      WHERE kind = 'resale' AND state = 'fulfilled' AND chain_id = $1 AND resale_token_id = $2::numeric
        AND lower(listing_seller) = lower($3) AND price_wei = $4::numeric LIMIT 1`,
    [s.chainId, s.tokenId, s.seller, s.priceWei],
  );
  return rows.length > 0;
}
/**
 * Rupees (paise) a user has paid or is paying since `since`: rupee orders that are open or paid
 * (an order that failed, lapsed, was cancelled or refunded counts for nothing). For the yearly KYC
 * limit (decision 175).
 */
export async function inrPaiseSince(q: Query, userId: string, since: Date): Promise<bigint> {
  const [row] = await q<{ total: string }>(
    `SELECT COALESCE(sum(pay_amount_minor), 0)::text AS total FROM orders
      WHERE user_id = $1 AND pay_currency = 'inr' AND created_at >= $2
        AND state IN ('created', 'awaiting_payment', 'paid', 'minting', 'fulfilled')`,
    [userId, since],
  );
  return BigInt(row?.total ?? "0");
}

/** A fulfilled primary NFT order paid by card or in rupees (the studio earnings' fiat sales, decision 174). */
export interface FiatSaleRow {
  id: string;
  nft_id: string;
  provider: string;
  pay_currency: string;
  pay_amount_minor: string;
  fulfilled_at: Date;
}

/**
 * Every fulfilled primary NFT order of a hosted provider (not wallet orders, whose sales the chain
 * records; not resale or ticket orders), with the time it was fulfilled.
 */
export function fiatPrimarySales(q: Query): Promise<FiatSaleRow[]> {
  return q<FiatSaleRow>(
    `SELECT o.id, o.nft_id, o.provider, o.pay_currency, o.pay_amount_minor::text AS pay_amount_minor,
            COALESCE((SELECT max(t.at) FROM order_transitions t
                       WHERE t.order_id = o.id AND t.to_state = 'fulfilled'), o.created_at) AS fulfilled_at
       FROM orders o
      WHERE o.state = 'fulfilled' AND o.provider <> 'wallet' AND o.kind = 'primary'
        AND o.lottery_id IS NULL AND o.nft_id IS NOT NULL
      ORDER BY fulfilled_at, o.id`,
  );
}
