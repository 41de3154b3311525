import { nativeSymbolOf } from "@diginoor/api/wallets";
import {
  type AdminOrderList,
  type Order,
  type OrderList,
  type OrderState,
  orderMessages as m,
} from "@diginoor/api/orders";
import { z } from "zod";
import { getAddress, type Hash } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobRef, Jobs } from "../../platform/jobs/jobs.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import type { CatalogueService, PurchaseTerms } from "../catalogue/service.ts";
import type { ChainRuntime } from "../chain/service.ts";
import { publishToUser } from "../events/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { LotteryService } from "../lottery/service.ts";
import * as repo from "./repo.ts";
import { orderTokenId, paymentOf } from "./voucher.ts";

/** Mints a paid card order (decision 141); enqueued in the transaction that marks it paid. */
export const fulfilOrder: JobRef<{ orderId: string }> = {
  name: "orders.fulfil",
  payload: z.object({ orderId: z.uuid() }),
};
/** Asks an order's provider for a refund (decision 144); enqueued with the refund's row, in its cause's transaction. */
export const refundOrder: JobRef<{ refundId: string; attempt: number }> = {
  name: "orders.refund",
  payload: z.object({ refundId: z.uuid(), attempt: z.number().int().min(1) }),
};
/** Tells the buyer their order was refunded (bell and mail); enqueued in the transaction that marks it refunded. */
export const refundMail: JobRef<{ orderId: string }> = {
  name: "orders.refund-mail",
  payload: z.object({ orderId: z.uuid() }),
};
/** Emails the confirmation of a fulfilled order; enqueued in the transaction that fulfils it. */
export const orderMail: JobRef<{ orderId: string }> = {
  name: "orders.mail",
  payload: z.object({ orderId: z.uuid() }),
};

/** Providers that take the payment on a hosted page and then need our minter key. */
export const CARD_PROVIDERS = ["sandbox", "stripe", "cashfree"] as const;
/** A wallet order whose voucher has expired is given up this long after, unless the chain shows its mint. */
export const EXPIRY_GRACE_MS = 10 * 60 * 1000;

export type OrdersLog = (level: "info" | "warn" | "error", msg: string, extra?: object) => void;

export interface OrderLifecycleDeps {
  database: Database;
  clock: Clock;
  pubsub: PubSub;
  catalogue: Pick<CatalogueService, "purchaseTerms" | "purchaseTermsOf" | "takeEdition" | "returnEdition">;
  tokens: Pick<TokenReads, "mints">;
  /** Ticket orders' lottery names and ticket numbers (absent: ticket orders show their lottery's id). */
  lottery?: Pick<LotteryService, "ticketOrderFacts">;
  /** Confirmations of minting orders, and where wallet orders are paid; absent without a chain. */
  chain?: Pick<ChainRuntime, "chainId" | "deployment" | "publicClient">;
  /** Blocks after which the indexer applies a block (or finality). */
  confirmations: number | "finalized";
  /** Enqueues fulfilment and mail in the transaction of the state change that causes them. */
  jobs?: Pick<Jobs, "enqueue">;
  /** Absolute links (the sandbox's checkout page) start with this. */
  publicUrl?: string;
  /** A paid card order without its mint this long (ms) is queued for fulfilment again (default 2 min). */
  fulfilmentRetryMs?: number;
  /** Unpaid orders an account, and a receiving wallet address, may hold at once (decision 143; default 3). */
  unpaidHolds?: { perAccount: number; perWallet: number };
  log?: OrdersLog;
}

/** What an order bought, as its views show it. */
type Item = Pick<PurchaseTerms, "title" | "imageUrl" | "catalogueNumber"> & {
  tickets?: { first: number; last: number } | null;
};

/** A ticket order's title: "3 tickets · Diwali draw". */
export const ticketTitle = (count: number, lottery: string) =>
  `${count} ticket${count === 1 ? "" : "s"} · ${lottery}`;

/** The web page that follows an order: an NFT's confirmation page, or a ticket order's. */
export function orderPath(o: Pick<repo.OrderRow, "id" | "nft_id" | "lottery_id">): string {
  return o.nft_id === null
    ? `/lottery_purchased/${o.lottery_id}?order=${o.id}`
    : `/confirmation/${o.nft_id}/${o.id}`;
}

const notFound = () => new AppError("not_found", m.notFound);

/** The unique index an insert violated, when it did (PostgreSQL and PGlite, directly or wrapped). */
export function violatedIndex(err: unknown): string | undefined {
  for (
    let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined;
    e;
  ) {
    if (e.code === "23505") return e.constraint ?? /"([^"]+)"/.exec(e.message ?? "")?.[1] ?? "";
    e = e.cause as typeof e;
  }
  return undefined;
}

const transitionView = (t: repo.TransitionRow) => ({
  from: t.from_state,
  to: t.to_state,
  cause: t.cause,
  at: t.at.toISOString(),
});

/**
 * Orders' state machine (decision 140): one order per purchase attempt, whatever the provider. Moves
 * an order between states (each move recorded with its cause, its side effects in the same
 * transaction), reconciles open orders with the indexer and the clock, reserves editions, and reads
 * orders for their owner, the console and the confirmation mail. Reading signs nothing, and a list
 * costs the same few queries however long it is.
 */
export function createOrderLifecycle(deps: OrderLifecycleDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});
  const publicUrl = (deps.publicUrl ?? "").replace(/\/$/, "");
  const fulfilmentRetryMs = deps.fulfilmentRetryMs ?? 2 * 60 * 1000;
  const unpaidHolds = deps.unpaidHolds ?? { perAccount: 3, perWallet: 3 };

  async function confirmationsOf(txHash: string | null): Promise<number | null> {
    if (!txHash || !deps.chain) return null;
    try {
      const receipt = await deps.chain.publicClient.getTransactionReceipt({ hash: txHash as Hash });
      // viem caches the block number for a few seconds: the cached head can be older than the receipt's
      // block (a loaded CI run read 0 for a mined transaction). A receipt is one confirmation at least.
      const head = await deps.chain.publicClient.getBlockNumber();
      return Math.max(1, Number(head - receipt.blockNumber + 1n));
    } catch {
      return 0; // not mined yet (or unknown to this node)
    }
  }

  /** The API's view of an order from what was read already (no query of its own). */
  function view(
    o: repo.OrderRow,
    item: Item,
    extra: {
      transitions?: repo.TransitionRow[];
      confirmations?: number | null;
      payment?: Order["payment"];
    } = {},
  ): Order {
    return {
      orderId: o.id,
      kind: o.kind,
      nftId: o.nft_id,
      nftTitle: item.title,
      imageUrl: item.imageUrl,
      edition: o.edition,
      lotteryId: o.lottery_id,
      ticketCount: o.ticket_count,
      tickets: item.tickets ?? null,
      provider: o.provider,
      state: o.state,
      usdCents: Number(o.usd_cents),
      priceWei: o.price_wei,
      symbol: o.chain_id === null ? null : nativeSymbolOf(o.chain_id),
      chainId: o.chain_id,
      tokenId: orderTokenId(o),
      txHash: o.tx_hash,
      confirmations: extra.confirmations ?? null,
      requiredConfirmations: typeof deps.confirmations === "number" ? deps.confirmations : null,
      buyerAddress: o.buyer_address,
      reservedUntil: o.reserved_until.toISOString(),
      checkoutUrl:
        o.provider === "sandbox" && o.state === "awaiting_payment" && o.provider_session
          ? `${publicUrl}/sandbox/checkout/${o.provider_session}`
          : o.state === "awaiting_payment"
            ? o.checkout_url
            : null,
      payCurrency: o.pay_currency,
      payAmountMinor: o.pay_amount_minor === null ? null : Number(o.pay_amount_minor),
      inrMicrosPerUsd: o.inr_micros_per_usd,
      payment: extra.payment ?? null,
      transitions: (extra.transitions ?? []).map(transitionView),
      createdAt: o.created_at.toISOString(),
    };
  }

  /**
   * One order in full: its history, its confirmations while minting, and (a wallet order awaiting
   * payment) the voucher with the signature stored when it was made.
   */
  async function fullView(o: repo.OrderRow): Promise<Order> {
    const item = o.nft_id === null ? (await itemsOf([o]))(o) : await deps.catalogue.purchaseTerms(o.nft_id);
    const open = o.state === "awaiting_payment" && o.provider === "wallet";
    const chain = deps.chain;
    const payment =
      open && chain && o.voucher_signature && o.nft_id !== null
        ? paymentOf(
            { chainId: chain.chainId, marketplace: chain.deployment.marketplace },
            o,
            item.catalogueNumber,
            o.voucher_signature,
          )
        : null;
    const transitions = await repo.transitionsOf(q, o.id);
    const confirming = o.nft_id !== null && (o.state === "minting" || o.state === "fulfilled");
    return view(o, item, {
      transitions,
      payment,
      confirmations: confirming ? await confirmationsOf(o.tx_hash) : null,
    });
  }

  /**
   * What several orders bought, in a few queries: an NFT (one gone from the catalogue shows as its
   * id), or a lottery's tickets with their numbers once paid.
   */
  async function itemsOf(rows: repo.OrderRow[]): Promise<(o: repo.OrderRow) => Item> {
    const nftIds = rows.flatMap((r) => (r.nft_id === null ? [] : [r.nft_id]));
    const terms = nftIds.length ? await deps.catalogue.purchaseTermsOf(nftIds) : new Map();
    const ticketRows = rows.filter((r) => r.lottery_id !== null);
    const facts =
      ticketRows.length && deps.lottery
        ? await deps.lottery.ticketOrderFacts(
            ticketRows.map((r) => r.lottery_id as string),
            ticketRows.map((r) => r.id),
          )
        : undefined;
    return (o) => {
      if (o.nft_id !== null)
        return terms.get(o.nft_id) ?? { title: o.nft_id, imageUrl: "", catalogueNumber: 0n };
      const lottery = facts?.lotteries.get(o.lottery_id as string);
      return {
        title: ticketTitle(o.ticket_count ?? 0, lottery?.name ?? `lottery ${o.lottery_id}`),
        imageUrl: lottery?.imageUrl ?? "",
        catalogueNumber: 0n,
        tickets: facts?.ranges.get(o.id) ?? null,
      };
    };
  }

  async function announce(tx: Tx, userId: string, orderId: string, state: OrderState) {
    await publishToUser(deps.pubsub, userId, { type: "order.updated", orderId, state }, { tx }).catch((err) =>
      log("warn", "could not publish an order update", { err: String(err) }),
    );
  }

  /**
   * Moves an order inside `tx`: gives the edition back when it ends unpaid, enqueues the
   * confirmation mail when it is fulfilled (in the same transaction), tells its owner's pages.
   */
  async function moveIn(
    tx: Tx,
    o: Pick<repo.OrderRow, "id" | "nft_id" | "user_id"> & Partial<Pick<repo.OrderRow, "kind">>,
    from: OrderState[],
    to: OrderState,
    cause: string,
    set: { txHash?: string } = {},
  ): Promise<boolean> {
    const previous = await repo.transition(queryOf(tx), o.id, from, to, cause, clock.date(), set);
    if (previous === undefined) return false;
    // A ticket order holds no edition, nor does a resale (it buys a listed token); tickets are their own confirmation.
    if (
      (to === "expired" || to === "failed" || to === "cancelled") &&
      o.nft_id !== null &&
      o.kind !== "resale"
    )
      await deps.catalogue.returnEdition(tx, o.nft_id);
    if (to === "fulfilled" && deps.jobs && o.nft_id !== null)
      await deps.jobs.enqueue(orderMail, { orderId: o.id }, { tx });
    if (to === "refunded" && deps.jobs) await deps.jobs.enqueue(refundMail, { orderId: o.id }, { tx });
    await announce(tx, o.user_id, o.id, to);
    return true;
  }

  /** Moves an order (in its own transaction) and tells its owner's open pages. */
  function move(
    o: Pick<repo.OrderRow, "id" | "nft_id" | "user_id"> & Partial<Pick<repo.OrderRow, "kind">>,
    from: OrderState[],
    to: OrderState,
    cause: string,
    set: { txHash?: string } = {},
  ): Promise<boolean> {
    return withTransaction(database, (tx) => moveIn(tx, o, from, to, cause, set));
  }

  /**
   * Brings open orders up to date with the indexer: fulfilled once their mint is applied (whoever
   * sent it); a wallet order expires once its voucher can no longer be redeemed, a card order once its
   * reservation lapsed unpaid (editions released). A paid card order never expires: one whose
   * fulfilment seems stuck gets its job again. Idempotent; any process.
   */
  async function reconcileOrders(rows?: repo.OrderRow[]): Promise<{ fulfilled: number; expired: number }> {
    const open = rows ?? [
      ...(await repo.openOrders(q, "wallet", 500)),
      ...(await repo.openOrders(q, [...CARD_PROVIDERS], 500)),
    ];
    const counts = { fulfilled: 0, expired: 0 };
    if (open.length === 0) return counts;
    // A resale order's token was minted long ago to someone else: it is fulfilled by its own job.
    const mints = await deps.tokens.mints(open.filter((o) => o.kind !== "resale").map(orderTokenId));
    for (const o of open) {
      const mint = o.kind === "resale" ? undefined : mints.get(orderTokenId(o));
      if (mint && getAddress(mint.to) !== getAddress(o.buyer_address ?? mint.to)) {
        // Someone else's mint took this order's token id: never fulfilled, the buyer needs a refund.
        if (
          await move(
            o,
            repo.OPEN_STATES,
            "failed",
            `token ${orderTokenId(o)} was minted to ${mint.to} in ${mint.txHash}, not to the buyer: needs a refund`,
          )
        ) {
          log("error", "an order's token id was minted to someone else", { orderId: o.id, to: mint.to });
        }
      } else if (mint) {
        if (
          await move(o, repo.OPEN_STATES, "fulfilled", `minted to ${mint.to} in ${mint.txHash}`, {
            txHash: mint.txHash,
          })
        )
          counts.fulfilled++;
      } else if (o.provider === "wallet") {
        if (clock.now() <= o.reserved_until.getTime() + EXPIRY_GRACE_MS) continue;
        if (await move(o, repo.OPEN_STATES, "expired", "the voucher expired unredeemed; edition released"))
          counts.expired++;
      } else if (o.state === "created" || o.state === "awaiting_payment") {
        if (clock.now() <= o.reserved_until.getTime()) continue;
        if (await move(o, ["created", "awaiting_payment"], "expired", "not paid in time; edition released"))
          counts.expired++;
      } else if (deps.jobs && clock.now() - o.updated_at.getTime() > fulfilmentRetryMs) {
        // Paid or minting without a mint for a while: the job may have failed for good; try again.
        await deps.jobs
          .enqueue(fulfilOrder, { orderId: o.id }, { singletonKey: o.id })
          .catch((err) => log("warn", "could not enqueue a fulfilment", { err: String(err) }));
      }
    }
    return counts;
  }

  /**
   * 409 when the holder's account or receiving wallet already holds as many unpaid orders as it may
   * (counted under per-account and per-address locks taken first, always in that order, so concurrent
   * orders of one fan cannot both pass).
   */
  async function checkHolds(tx: Tx, holder: { userId: string; address: string }, nftId: string) {
    const tq = queryOf(tx);
    await tq("SELECT pg_advisory_xact_lock(hashtext('orders:holds:user:' || $1))", [holder.userId]);
    await tq("SELECT pg_advisory_xact_lock(hashtext('orders:holds:address:' || $1))", [
      holder.address.toLowerCase(),
    ]);
    // The fan's own open order of this NFT first: "resume it" helps more than "too many orders".
    const open = await repo.unpaidOrderOf(tq, holder.userId, nftId);
    if (open)
      throw AppError.conflict(m.openOrder, {
        reason: "open_order",
        orderId: open.id,
        provider: open.provider,
      });
    const held = await repo.unpaidHolds(tq, holder.userId, holder.address);
    if (held.account >= unpaidHolds.perAccount)
      throw AppError.conflict(m.accountHoldsLimit(unpaidHolds.perAccount), {
        reason: "unpaid_holds_limit",
        limit: unpaidHolds.perAccount,
      });
    if (held.address >= unpaidHolds.perWallet)
      throw AppError.conflict(m.walletHoldsLimit(unpaidHolds.perWallet), {
        reason: "unpaid_holds_limit",
        limit: unpaidHolds.perWallet,
      });
  }

  async function ownOrder(userId: string, orderId: string): Promise<repo.OrderRow> {
    const o = await repo.findOrder(q, orderId);
    if (!o || o.user_id !== userId) throw notFound();
    return o;
  }

  return {
    move,
    moveIn,
    reconcileOrders: (rows?: repo.OrderRow[]) => reconcileOrders(rows),
    ownOrder,
    fullView,
    checkHolds,

    /**
     * Takes the lowest free edition of a fixed-price NFT (its row locked by `purchaseTerms`) for
     * `holder`, or 409: sold out, or the holder's account or receiving wallet already holds as many
     * unpaid orders as it may (counted under per-account and per-address locks taken first, always in
     * that order, so concurrent orders of one fan cannot both pass). One unpaid order per fan per NFT
     * is the unique index `orders_one_unpaid_per_nft_idx`: the insert that follows fails, see `openOrderOr`.
     */
    async reserveEdition(tx: Tx, nftId: string, holder: { userId: string; address: string }) {
      await checkHolds(tx, holder, nftId);
      const nft = await deps.catalogue.purchaseTerms(nftId, tx);
      if (nft.saleType !== "fixed") throw AppError.conflict(m.auctionOnly);
      if (!nft.payoutAddress) throw new AppError("unavailable", m.noPayout);
      const edition = await repo.freeEdition(queryOf(tx), nft.id, nft.editionSize);
      if (edition === undefined || !(await deps.catalogue.takeEdition(tx, nft.id))) {
        throw AppError.conflict(m.soldOut);
      }
      return { nft, edition };
    },

    /**
     * Runs `create` (which inserts an order of `nftId` for `userId`); when the insert hits the one
     * unpaid order per fan per NFT, answers 409 with the open order's id instead (its transaction
     * rolled back, so nothing of it stays: not the edition, not the hold).
     */
    async openOrderOr<T>(userId: string, nftId: string, create: () => Promise<T>): Promise<T> {
      try {
        return await create();
      } catch (err) {
        const index = violatedIndex(err);
        if (index === undefined) throw err;
        if (index === "orders_one_per_quote_idx")
          throw AppError.conflict(m.quoteUsed, { reason: "quote_used" });
        if (index !== "orders_one_unpaid_per_nft_idx") throw err;
        const open = await repo.unpaidOrderOf(q, userId, nftId);
        throw AppError.conflict(m.openOrder, {
          reason: "open_order",
          orderId: open?.id ?? null,
          provider: open?.provider ?? null,
        });
      }
    },

    /** The owner's view of an order, brought up to date with the chain first while it is open. */
    async getOrder(userId: string, orderId: string): Promise<Order> {
      let o = await ownOrder(userId, orderId);
      if (repo.OPEN_STATES.includes(o.state)) {
        await reconcileOrders([o]);
        o = await ownOrder(userId, orderId);
      }
      return fullView(o);
    },

    /** The user's newest 100 orders (two queries). */
    async listOrders(userId: string): Promise<OrderList> {
      const rows = await repo.ordersOfUser(q, userId, 100);
      const itemOf = await itemsOf(rows);
      return {
        items: rows.map((r) => {
          const { payment: _p, transitions: _t, ...rest } = view(r, itemOf(r));
          return rest;
        }),
      };
    },

    /** The studio console's view: the newest 100 orders with their owner and state history (three queries). */
    async adminOrders(state?: OrderState): Promise<AdminOrderList> {
      const rows = await repo.newestOrders(q, state, 100);
      const itemOf = await itemsOf(rows);
      const histories = await repo.transitionsOfMany(
        q,
        rows.map((r) => r.id),
      );
      const items = rows.map((r) => {
        const { payment: _p, ...order } = view(r, itemOf(r), { transitions: histories.get(r.id) });
        return { ...order, userId: r.user_id };
      });
      return { items, nextCursor: null };
    },

    /** What the confirmation mail of a fulfilled order says (undefined unless fulfilled). */
    /** What the refund notification and mail of a refunded order say; undefined unless it is refunded. */
    async refundFacts(orderId: string) {
      const o = await repo.findOrder(q, orderId);
      if (o?.state !== "refunded") return undefined;
      const item = (await itemsOf([o]))(o);
      const reasons = (await repo.refundsOf(q, o.id))
        .filter((r) => r.state === "succeeded")
        .map((r) => r.reason);
      return {
        userId: o.user_id,
        title: item.title,
        edition: o.edition,
        /** The page that shows this order (the NFT's confirmation, or the ticket order's). */
        path: orderPath(o),
        usdCents: Number(o.usd_cents),
        inrPaise: o.pay_currency === "inr" ? Number(o.pay_amount_minor) : null,
        reason: reasons[0] ?? "admin",
        tokenKept: o.tx_hash !== null,
      };
    },
    /** The user's fulfilled card and rupee NFT purchases, oldest first (tax records, decision 176). */
    async taxableOrdersOf(userId: string) {
      return (await repo.taxableOrdersOf(q, userId)).map((o) => ({
        source: `order:${o.id}`,
        kind: o.kind,
        nftId: o.nft_id,
        tokenId: o.token_id,
        chainId: o.chain_id,
        usdCents: BigInt(o.usd_cents),
        paidPaise:
          o.pay_currency === "inr" && o.pay_amount_minor !== null ? BigInt(o.pay_amount_minor) : null,
        priceWei: o.price_wei === null ? null : BigInt(o.price_wei),
        at: new Date(o.fulfilled_at),
      }));
    },
    /** Whether a chain sale was a card or rupee purchase of the listing by our buyer key. */
    isCardResale(s: { chainId: number; tokenId: string; seller: string; priceWei: bigint }) {
      return repo.isCardResale(q, { ...s, priceWei: s.priceWei.toString() });
    },
    async mailFacts(orderId: string) {
      const o = await repo.findOrder(q, orderId);
      if (o?.state !== "fulfilled" || o.nft_id === null || o.edition === null) return undefined;
      const nft = await deps.catalogue.purchaseTerms(o.nft_id);
      return {
        userId: o.user_id,
        nftId: o.nft_id,
        provider: o.provider,
        title: nft.title,
        edition: o.edition,
        usdCents: Number(o.usd_cents),
        /** Rupee orders: what was paid, in paise (the mail shows it rather than dollars). */
        inrPaise: o.pay_currency === "inr" ? Number(o.pay_amount_minor) : null,
        tokenId: orderTokenId(o),
        wallet: o.buyer_address ?? "",
      };
    },
  };
}

export type OrderLifecycle = ReturnType<typeof createOrderLifecycle>;
