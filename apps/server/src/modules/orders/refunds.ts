// Refunds (decision 144): every cause (a late payment, the console, a lottery that does not take
// place) requests a refund in its own transaction, once per order and reason; a job asks the provider
// with an idempotency key; the provider's confirmation (webhook, answer, or polling) moves the order
// once. Built by hosted-checkout.ts, which applies providers' events through `applyPaymentEvent`.
import { type OrderState, orderMessages as m } from "@diginoor/api/orders";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Jobs } from "../../platform/jobs/jobs.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import { type OrderLifecycle, type OrdersLog, refundOrder } from "./lifecycle.ts";
import type { PaymentProviders } from "./providers/index.ts";
import {
  type HostedProviderName,
  type PaymentEvent,
  ProviderError,
  type RefundReasonCode,
  type RefundResult,
} from "./providers/types.ts";
import * as repo from "./repo.ts";

/** A refund not confirmed this long after its last step is asked about (or its job enqueued again). */
const REFUND_RECONCILE_AFTER_MS = 5 * 60 * 1000;

/** The states each cause refunds from (decision 144). */
export const REFUNDABLE_FROM: Record<RefundReasonCode, OrderState[]> = {
  // A payment confirmed after the order ended unpaid: its edition was already released.
  late_payment: ["expired", "failed", "cancelled"],
  // The console's Refund: a fulfilled order (the token stays with the buyer, decision 144).
  admin: ["fulfilled"],
  // A lottery that does not activate refunds its paid ticket orders.
  lottery_not_activated: ["paid", "fulfilled"],
  lottery_seed_not_revealed: ["paid", "fulfilled"],
  // A resale whose listing changed before our buyer key bought it (resale.ts, decision 165).
  listing_changed: ["paid", "minting"],
  // Issue 34: an edition taken on chain by another token (decision 184); a resale to the buyer's own wallet or of a hidden token.
  edition_unavailable: ["paid", "minting"],
  own_listing: ["paid", "minting"],
  token_hidden: ["paid", "minting"],
};

/**
 * Why a refund cannot be made by a process without its provider (its keys removed from the
 * configuration): the refund fails visibly, and the console's retry tries again once it is back.
 */
export const providerNotConfigured = (provider: string) =>
  `the payment provider ${provider} is not configured on this server: configure it, then retry the refund from the console`;

/** The provider's idempotency key of a refund: the order, the reason, and the attempt (a console retry after a failure). */
export const refundKey = (r: Pick<repo.RefundRow, "order_id" | "reason" | "attempt">) =>
  `refund-${r.order_id}-${r.reason}-${r.attempt}`;

export const isRefundEvent = (e: PaymentEvent) =>
  e.type === "refunded" || e.type === "refund_failed" || e.type === "refund_pending";

export interface RefundsDeps {
  database: Database;
  clock: Clock;
  /** Every offered provider, the sandbox's included. */
  providers: PaymentProviders;
  lifecycle: Pick<OrderLifecycle, "moveIn">;
  jobs?: Pick<Jobs, "enqueue">;
  /** Applies a provider's event once (hosted-checkout.ts): a refund's answer goes the webhook's way. */
  applyPaymentEvent(
    provider: HostedProviderName,
    event: PaymentEvent,
  ): Promise<{ received: true; duplicate: boolean }>;
  log: OrdersLog;
}

export function createRefunds(deps: RefundsDeps) {
  const { database, clock, providers, log } = deps;
  const q = queryOf(database);
  const applyPaymentEvent = deps.applyPaymentEvent;

  /**
   * Requests the refund of order `o` (locked by the caller) for `reason` inside `tx`, the transaction
   * of its cause: the refund's row (unique per order and reason), the move to `refund_pending` and the
   * job that asks the provider commit together or not at all. Undefined when this order was already
   * refunded for this reason (nothing written).
   */
  async function requestRefundIn(
    tx: Tx,
    o: repo.OrderRow,
    reason: RefundReasonCode,
    cause: string,
    requestedBy: string | null,
  ): Promise<repo.RefundRow | undefined> {
    // A wallet order is paid on chain: no provider can refund it. A provider missing from this
    // process's configuration is the refund job's to report (refund_failed), not the cause's to refuse:
    // a lottery's closing must not stall on it.
    if (o.provider === "wallet") throw AppError.conflict(m.notRefundable, { reason: "provider" });
    const r = await repo.insertRefund(queryOf(tx), {
      orderId: o.id,
      reason,
      amountMinor: BigInt(o.pay_amount_minor ?? o.usd_cents),
      currency: o.pay_currency ?? "usd",
      requestedBy,
      now: clock.date(),
    });
    if (!r) return undefined;
    if (!(await deps.lifecycle.moveIn(tx, o, REFUNDABLE_FROM[reason], "refund_pending", cause)))
      throw AppError.conflict(m.notRefundable, { reason: "state", state: o.state });
    await deps.jobs?.enqueue(
      refundOrder,
      { refundId: r.id, attempt: r.attempt },
      { tx, singletonKey: `${r.id}:${r.attempt}` },
    );
    return r;
  }

  /** A refund's confirmation or failure (webhook, the provider's answer, reconciliation), applied once. */
  async function applyRefundEvent(tx: Tx, o: repo.OrderRow, event: PaymentEvent): Promise<string> {
    if (event.type === "refund_pending") return "ignored: refund still pending";
    const tq = queryOf(tx);
    const refunds = await repo.refundsOf(tq, o.id);
    const r =
      refunds.find((x) => event.refundId !== undefined && x.provider_refund_id === event.refundId) ??
      refunds.find((x) => x.state === "pending" || x.state === "requested");
    if (!r) return "ignored: no refund of ours for this order";
    if (r.state === "succeeded") return "ignored: refund already confirmed";
    if (r.state === "failed" && event.type === "refund_failed") return "ignored: refund already failed";
    if (event.amountMinor !== BigInt(r.amount_minor)) return "ignored: refund amount differs";
    const now = clock.date();
    const what = `refund ${event.refundId ?? ""}`.trim();
    if (event.type === "refunded") {
      await repo.updateRefund(
        tq,
        r.id,
        { state: "succeeded", providerRefundId: event.refundId ?? null },
        now,
      );
      await deps.lifecycle.moveIn(
        tx,
        o,
        ["refund_pending", "refund_failed"],
        "refunded",
        `${what} confirmed by ${o.provider} (${event.providerType})`,
      );
      return "applied: refunded";
    }
    await repo.updateRefund(
      tq,
      r.id,
      { state: "failed", providerRefundId: event.refundId ?? null, detail: event.providerType },
      now,
    );
    await deps.lifecycle.moveIn(
      tx,
      o,
      ["refund_pending"],
      "refund_failed",
      `${what} failed at ${o.provider} (${event.providerType})`,
    );
    return "applied: refund failed";
  }

  /** A provider's answer about a refund, applied like its webhook (once: the event id is fixed). */
  function applyRefundResult(
    name: HostedProviderName,
    r: repo.RefundRow,
    o: repo.OrderRow,
    res: RefundResult,
  ) {
    if (res.status === "pending") return Promise.resolve(undefined);
    return applyPaymentEvent(name, {
      id: `refund-answer:${res.refundId}:${res.status}`,
      type: res.status === "succeeded" ? "refunded" : "refund_failed",
      providerType: `${name} answered (${res.detail})`,
      orderId: o.id,
      session: o.provider_session ?? "",
      amountMinor: BigInt(r.amount_minor),
      currency: r.currency,
      refundId: res.refundId,
    });
  }

  /**
   * The refund job (decision 144): asks the provider with the refund's idempotency key, so a retry
   * or a second run after a crash names the same refund there and never pays twice; a refusal ends
   * the refund `refund_failed` (the console can retry); a provider that cannot answer throws (the job
   * retries with the same key).
   */
  async function runRefund(refundId: string, attempt: number): Promise<void> {
    const r = await repo.findRefund(q, refundId);
    if (!r || r.attempt !== attempt || (r.state !== "pending" && r.state !== "requested")) return;
    const o = await repo.findOrder(q, r.order_id);
    if (!o) return;
    const name = o.provider as HostedProviderName;
    const provider = providers[name];
    if (!provider) {
      // No retry can help until someone configures it: the refund fails now, saying why.
      const why = providerNotConfigured(o.provider);
      log("error", "a refund's payment provider is not configured", { orderId: o.id, provider: o.provider });
      await withTransaction(database, async (tx) => {
        const tq = queryOf(tx);
        const locked = await repo.findRefund(tq, refundId, true);
        if (
          !locked ||
          locked.attempt !== attempt ||
          (locked.state !== "pending" && locked.state !== "requested")
        )
          return;
        await repo.updateRefund(tq, r.id, { state: "failed", detail: why }, clock.date());
        await deps.lifecycle.moveIn(tx, o, ["refund_pending"], "refund_failed", `refund failed: ${why}`);
      });
      return;
    }
    let res: RefundResult;
    try {
      res = await provider.refund(
        {
          orderId: o.id,
          session: o.provider_session ?? "",
          paymentRef: o.provider_payment_ref,
          currency: o.pay_currency ?? "usd",
        },
        BigInt(r.amount_minor),
        r.reason,
        refundKey(r),
      );
    } catch (err) {
      if (err instanceof ProviderError && err.code === "bad_gateway") {
        log("warn", "a payment provider refused a refund", {
          orderId: o.id,
          err: String((err as { cause?: unknown }).cause ?? err),
        });
        await applyRefundResult(name, r, o, {
          refundId: `refused-${refundKey(r)}`,
          status: "failed",
          detail: `refused: ${String((err as { cause?: unknown }).cause ?? err.message).slice(0, 200)}`,
        });
        return;
      }
      throw err;
    }
    await repo.markRefundRequested(q, r.id, res.refundId, clock.date());
    await applyRefundResult(name, r, o, res);
  }

  /** Every refund cause: the order `orderId`, locked, refunded for `reason` in a transaction of its own or the caller's. */
  async function requestRefund(
    orderId: string,
    reason: RefundReasonCode,
    o: { cause: string; requestedBy?: string | null; tx?: Tx },
  ) {
    const run = async (tx: Tx) => {
      const order = await repo.findOrder(queryOf(tx), orderId, true);
      if (!order) throw AppError.notFound("Order");
      const r = await requestRefundIn(tx, order, reason, o.cause, o.requestedBy ?? null);
      return { order, refund: r, queued: r !== undefined };
    };
    return o.tx ? run(o.tx) : withTransaction(database, run);
  }

  /**
   * The console's Refund (decision 144): a fulfilled order is refunded (its token stays with the
   * buyer); an order whose refund failed is tried again with a new attempt (a new idempotency key:
   * the failed refund at the provider is over). Anything else is 409.
   */
  async function adminRefund(orderId: string, actorId: string, tx: Tx) {
    const tq = queryOf(tx);
    const o = await repo.findOrder(tq, orderId, true);
    if (!o) throw AppError.notFound("Order");
    const before = o.state;
    if (o.state === "refund_failed") {
      const failed = (await repo.refundsOf(tq, o.id)).find((x) => x.state === "failed");
      if (!failed) throw AppError.conflict(m.notRefundable, { reason: "state", state: o.state });
      const attempt = failed.attempt + 1;
      await repo.retryRefund(tq, failed.id, attempt, clock.date());
      await deps.lifecycle.moveIn(
        tx,
        o,
        ["refund_failed"],
        "refund_pending",
        `refund retried by an administrator (attempt ${attempt})`,
      );
      await deps.jobs?.enqueue(
        refundOrder,
        { refundId: failed.id, attempt },
        { tx, singletonKey: `${failed.id}:${attempt}` },
      );
      return { orderId: o.id, before, state: "refund_pending" as const, queued: true };
    }
    if (o.state !== "fulfilled")
      throw AppError.conflict(m.notRefundable, { reason: "state", state: o.state });
    const r = await requestRefundIn(tx, o, "admin", "refunded by an administrator from the console", actorId);
    if (!r) throw AppError.conflict(m.notRefundable, { reason: "already_refunded" });
    return { orderId: o.id, before, state: "refund_pending" as const, queued: true };
  }

  /**
   * Refunds nobody confirmed for a while: a `pending` one (its job lost or given up) gets its job
   * again (same key: never a second refund); a `requested` one is asked about at its provider.
   */
  async function reconcileRefunds(): Promise<{ asked: number; requeued: number; failed: number }> {
    const counts = { asked: 0, requeued: 0, failed: 0 };
    const open = await repo.openRefunds(q, new Date(clock.now() - REFUND_RECONCILE_AFTER_MS), 100);
    for (const r of open) {
      const o = await repo.findOrder(q, r.order_id);
      const name = o?.provider as HostedProviderName;
      const provider = providers[name];
      if (!o || !provider) continue;
      try {
        if (r.state === "pending" || !r.provider_refund_id || !provider.refundStatus) {
          if (r.state === "pending") {
            await deps.jobs?.enqueue(
              refundOrder,
              { refundId: r.id, attempt: r.attempt },
              { singletonKey: `${r.id}:${r.attempt}` },
            );
            counts.requeued++;
          }
          await repo.touchRefund(q, r.id, clock.date());
          continue;
        }
        counts.asked++;
        const res = await provider.refundStatus(
          {
            orderId: o.id,
            session: o.provider_session ?? "",
            paymentRef: o.provider_payment_ref,
            currency: r.currency,
          },
          r.provider_refund_id,
        );
        await repo.touchRefund(q, r.id, clock.date());
        await applyRefundResult(name, r, o, res);
      } catch (err) {
        counts.failed++;
        log("warn", "could not ask a payment provider about a refund", {
          orderId: r.order_id,
          err: String((err as { cause?: unknown }).cause ?? err),
        });
      }
    }
    return counts;
  }

  return { requestRefundIn, applyRefundEvent, runRefund, requestRefund, adminRefund, reconcileRefunds };
}

export type Refunds = ReturnType<typeof createRefunds>;
