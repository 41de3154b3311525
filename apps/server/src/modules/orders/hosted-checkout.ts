import { type Order, type OrderState, orderMessages as m } from "@diginoor/api/orders";
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import { fulfilOrder, refundOrder } from "./lifecycle.ts";
import { cashfreeCheckoutPage } from "./providers/cashfree.ts";
import type { PaymentProviders } from "./providers/index.ts";
import { type SandboxDelivery, sandboxProvider } from "./providers/sandbox.ts";
import {
  type HostedProviderName,
  type PaymentEvent,
  ProviderError,
  type RefundReasonCode,
  type RefundResult,
} from "./providers/types.ts";
import * as repo from "./repo.ts";
import { newEventId, type SandboxEvent, signSandboxPayload } from "./sandbox.ts";
import { createCheckoutOpening, type HostedCheckoutDeps } from "./checkout-open.ts";

/** A hosted checkout still unpaid this long after it opened is asked about at its provider. */
const RECONCILE_AFTER_MS = 3 * 60 * 1000;
/** A refund not confirmed this long after its last step is asked about (or its job enqueued again). */
const REFUND_RECONCILE_AFTER_MS = 5 * 60 * 1000;

/** The states each cause refunds from (decision 144). */
const REFUNDABLE_FROM: Record<RefundReasonCode, OrderState[]> = {
  // A payment confirmed after the order ended unpaid: its edition was already released.
  late_payment: ["expired", "failed", "cancelled"],
  // The console's Refund: a fulfilled order (the token stays with the buyer, decision 144).
  admin: ["fulfilled"],
  // A lottery that does not activate refunds its paid ticket orders.
  lottery_not_activated: ["paid", "fulfilled"],
  lottery_seed_not_revealed: ["paid", "fulfilled"],
  // A resale whose listing changed before our buyer key bought it (resale.ts).
  listing_changed: ["paid", "minting"],
};

/** The provider's idempotency key of a refund: the order, the reason, and the attempt (a console retry after a failure). */
export const refundKey = (r: Pick<repo.RefundRow, "order_id" | "reason" | "attempt">) =>
  `refund-${r.order_id}-${r.reason}-${r.attempt}`;

const isRefundEvent = (e: PaymentEvent) =>
  e.type === "refunded" || e.type === "refund_failed" || e.type === "refund_pending";

export { CHECKOUT_OPEN_MS, HOLD_MARGIN_MS } from "./checkout-open.ts";

export type { HostedCheckoutDeps };

/**
 * Hosted checkouts (decision 142): the sandbox, Stripe and Cashfree take the payment on their page;
 * their webhooks (verified, applied once per event id) and a reconciler that asks about checkouts
 * whose webhook never came move the order to paid or failed. A paid order is minted by the
 * fulfilment unit.
 */
export function createHostedCheckout(deps: HostedCheckoutDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});
  const publicUrl = (deps.publicUrl ?? "").replace(/\/$/, "");
  /** Where the sandbox's own webhooks go (the routes set it: a POST through the whole HTTP stack). */
  let sandboxOutbox: ((d: SandboxDelivery) => void) | undefined;
  const providers: PaymentProviders = {
    ...deps.providers,
    ...(deps.sandbox
      ? {
          sandbox: sandboxProvider({
            secret: deps.sandbox.secret,
            publicUrl,
            nowMs: () => clock.now(),
            deliver: (d) => sandboxOutbox?.(d),
          }),
        }
      : {}),
  };

  function requireSandbox() {
    if (!deps.sandbox) throw AppError.badRequest(m.providerNotConfigured("sandbox"));
    return deps.sandbox;
  }

  /**
   * Applies one verified provider event, once: the event id is recorded in the same transaction as
   * the move it causes and the fulfilment job it enqueues. A paid order never moves back.
   */
  async function applyPaymentEvent(provider: HostedProviderName, event: PaymentEvent) {
    if (event.type === "pending") return { received: true as const, duplicate: false };
    return withTransaction(database, async (tx) => {
      const tq = queryOf(tx);
      const claimed = await repo.claimPaymentEvent(tq, provider, event.id, event.providerType, clock.date());
      if (!claimed) return { received: true as const, duplicate: true };
      if (isRefundEvent(event)) {
        const orderId = z.uuid().safeParse(event.orderId).success
          ? event.orderId
          : event.paymentRef
            ? await repo.findByPaymentRef(tq, provider, event.paymentRef)
            : undefined;
        const o = orderId ? await repo.findOrder(tq, orderId, true) : undefined;
        const outcome =
          o && o.provider === provider ? await applyRefundEvent(tx, o, event) : "ignored: no such order";
        await repo.setPaymentEventOutcome(tq, provider, event.id, o ? o.id : null, outcome);
        return { received: true as const, duplicate: false };
      }
      const o = z.uuid().safeParse(event.orderId).success
        ? await repo.findOrder(tq, event.orderId, true)
        : undefined;
      let outcome = "applied";
      const { moveIn } = deps.lifecycle;
      if (!o || o.provider !== provider || (o.provider_session && o.provider_session !== event.session)) {
        outcome = "ignored: no such checkout session";
      } else if (
        event.amountMinor !== BigInt(o.pay_amount_minor ?? o.usd_cents) ||
        event.currency !== (o.pay_currency ?? "usd")
      ) {
        outcome = "ignored: amount or currency differ from the order";
      } else if (event.type === "paid") {
        if (event.paymentRef && !o.provider_payment_ref) await repo.setPaymentRef(tq, o.id, event.paymentRef);
        if (await moveIn(tx, o, ["created", "awaiting_payment"], "paid", `payment ${event.id} succeeded`)) {
          await deps.jobs?.enqueue(fulfilOrder, { orderId: o.id }, { tx });
        } else if (REFUNDABLE_FROM.late_payment.includes(o.state)) {
          // Paid after it ended unpaid (decision 144): its edition was released, so it is refunded, once.
          const r = await requestRefundIn(
            tx,
            o,
            "late_payment",
            `payment ${event.id} arrived after the order was ${o.state}: refunding it`,
            null,
          );
          outcome = `refunding: order already ${o.state}${r ? "" : " (refund already requested)"}`;
          log("warn", "payment for an order that is over: refunding it", { orderId: o.id, event: event.id });
        } else outcome = `ignored: order already ${o.state}`;
      } else if (
        !(await moveIn(tx, o, ["created", "awaiting_payment"], "failed", `payment ${event.id} declined`))
      ) {
        outcome = `ignored: order already ${o.state}`;
      }
      await repo.setPaymentEventOutcome(tq, provider, event.id, o ? o.id : null, outcome);
      return { received: true as const, duplicate: false };
    });
  }

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
    if (o.provider === "wallet" || !providers[o.provider as HostedProviderName])
      throw AppError.conflict(m.notRefundable, { reason: "provider" });
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
    if (!provider) throw new Error(`orders.refund: provider ${o.provider} is not configured`);
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

  /** The sandbox provider's side of a payer's choice: the events it will send (signed by the caller). */
  function sandboxEventFor(o: repo.OrderRow, type: SandboxEvent["type"]): SandboxEvent {
    return {
      id: newEventId(),
      type,
      created: Math.floor(clock.now() / 1000),
      data: {
        session: o.provider_session ?? "",
        orderId: o.id,
        amount: Number(o.pay_amount_minor ?? o.usd_cents),
        currency: o.pay_currency ?? "usd",
      },
    };
  }

  const opening = createCheckoutOpening({ ...deps, providers, publicUrl, log });

  /**
   * Asks the providers about their orders stuck awaiting payment for a few minutes, and applies a
   * paid or failed answer through the same path as a webhook (synthetic event id `reconcile:…`), so
   * a lost webhook still fulfils. A provider that fails leaves the order as it is (retried next run).
   */
  async function reconcilePayments(): Promise<{
    asked: number;
    applied: number;
    failed: number;
    refunds?: Awaited<ReturnType<typeof reconcileRefunds>>;
  }> {
    // Refunds first, with every provider (the sandbox's too: a refund whose job was lost is enqueued again).
    const refunds = await reconcileRefunds().catch((err) => {
      log("warn", "refund reconciliation failed", { err: String(err) });
      return undefined;
    });
    const counts = { asked: 0, applied: 0, failed: 0, refunds };
    const names = (Object.keys(providers) as HostedProviderName[]).filter((n) => n !== "sandbox");
    if (names.length === 0) return counts;
    const stuck = await repo.awaitingPayment(q, names, new Date(clock.now() - RECONCILE_AFTER_MS), 100);
    for (const o of stuck) {
      const provider = providers[o.provider as HostedProviderName];
      if (!provider || !o.provider_session) continue;
      counts.asked++;
      try {
        const status = await provider.fetchStatus(o.provider_session, o.id);
        if (status.type === "pending") continue;
        const result = await applyPaymentEvent(provider.name, {
          id: `reconcile:${o.provider_session}:${status.type}`,
          type: status.type,
          providerType: `reconcile (${status.detail})`,
          orderId: o.id,
          session: o.provider_session,
          amountMinor: status.amountMinor ?? BigInt(o.pay_amount_minor ?? o.usd_cents),
          currency: status.currency ?? o.pay_currency ?? "usd",
        });
        if (!result.duplicate) counts.applied++;
      } catch (err) {
        counts.failed++;
        log("warn", "could not ask a payment provider about an order", {
          provider: o.provider,
          orderId: o.id,
          err: String((err as { cause?: unknown }).cause ?? err),
        });
      }
    }
    return counts;
  }

  /** A provider's status of an order's checkout, or undefined when it cannot answer (logged). */
  async function providerStatus(provider: PaymentProviders[HostedProviderName], o: repo.OrderRow) {
    if (!provider || !o.provider_session) return undefined;
    try {
      return await provider.fetchStatus(o.provider_session, o.id);
    } catch (err) {
      log("warn", "could not ask a payment provider about an order", {
        provider: o.provider,
        orderId: o.id,
        err: String((err as { cause?: unknown }).cause ?? err),
      });
      return undefined;
    }
  }

  /** Applies a provider's "paid" answer about an order like its webhook (once: the event id is fixed). */
  function applyPaidStatus(
    name: HostedProviderName,
    o: repo.OrderRow,
    status: { amountMinor?: bigint; currency?: string; detail: string },
  ) {
    return applyPaymentEvent(name, {
      id: `reconcile:${o.provider_session}:paid`,
      type: "paid",
      providerType: `reconcile (${status.detail})`,
      orderId: o.id,
      session: o.provider_session ?? "",
      amountMinor: status.amountMinor ?? BigInt(o.pay_amount_minor ?? o.usd_cents),
      currency: status.currency ?? o.pay_currency ?? "usd",
    });
  }

  /**
   * The buyer cancels an unpaid hosted-checkout order (decision 143): the edition is released at
   * once. The provider is asked first (a fan back from a paid checkout whose webhook is still on its
   * way is not cancelled: the payment is applied instead) and its checkout is closed; a provider
   * that cannot answer does not stop the cancellation, and a payment that arrives anyway is recorded
   * as needing a refund, never fulfilled.
   */
  async function cancelOrder(userId: string, orderId: string, cause: string): Promise<Order> {
    const o = await deps.lifecycle.ownOrder(userId, orderId);
    if (o.state === "cancelled") return deps.lifecycle.fullView(o);
    if (o.provider === "wallet") throw AppError.conflict(m.walletNotCancellable, { reason: "wallet_order" });
    if (!repo.UNPAID_STATES.includes(o.state)) throw AppError.conflict(m.notCancellable);
    const provider = o.provider === "sandbox" ? undefined : providers[o.provider as HostedProviderName];
    if (provider && o.provider_session) {
      const before = await providerStatus(provider, o);
      if (before?.type === "paid") {
        await applyPaidStatus(provider.name, o, before);
        return deps.lifecycle.fullView((await repo.findOrder(q, o.id)) ?? o);
      }
      if (before?.type !== "failed" && provider.closeCheckout) {
        try {
          await provider.closeCheckout(o.provider_session, o.id);
        } catch (err) {
          // A checkout that cannot be closed may have just been paid: ask once more.
          log("warn", "could not close a checkout at its provider", {
            provider: o.provider,
            orderId: o.id,
            err: String((err as { cause?: unknown }).cause ?? err),
          });
          const after = await providerStatus(provider, o);
          if (after?.type === "paid") {
            await applyPaidStatus(provider.name, o, after);
            return deps.lifecycle.fullView((await repo.findOrder(q, o.id)) ?? o);
          }
        }
      }
    }
    const moved = await deps.lifecycle.move(o, repo.UNPAID_STATES, "cancelled", cause);
    const fresh = (await repo.findOrder(q, o.id)) ?? o;
    if (!moved && fresh.state !== "cancelled") throw AppError.conflict(m.notCancellable);
    return deps.lifecycle.fullView(fresh);
  }

  return {
    ...opening,
    reconcilePayments,
    reconcileRefunds,
    runRefund,
    /** Refunds an order for a reason, once (the lottery's `lottery_not_activated`; decision 144). */
    requestRefund,
    adminRefund,
    /** The routes' outbox for the sandbox's own webhooks (refund confirmations). */
    useSandboxOutbox(deliver: (d: SandboxDelivery) => void) {
      sandboxOutbox = deliver;
    },
    /** `POST /api/v1/orders/:id/cancel`, and the fan's return from a provider's page by Back or cancel. */
    cancelOrder: (userId: string, orderId: string) =>
      cancelOrder(userId, orderId, "cancelled by the buyer; edition released, nothing charged"),

    /**
     * A provider's webhook (decision 142): verified by its adapter over the raw body (400 for anything
     * forged or stale, before anything is written), then applied once per provider event id.
     */
    async handleWebhook(name: HostedProviderName, raw: Buffer, headers: IncomingHttpHeaders) {
      const provider = providers[name];
      if (!provider) throw AppError.notFound("Webhook");
      const event = provider.verifyWebhook(raw, headers, clock.now());
      if (!event) return { received: true as const, duplicate: false };
      return applyPaymentEvent(name, event);
    },

    /** What the web may know about the checkout: the offered providers (never their secrets). */
    checkoutProviders(): HostedProviderName[] {
      return Object.keys(providers) as HostedProviderName[];
    },

    /** What the offered card provider (Stripe, else the sandbox) charges in; null when none is offered. */
    cardCurrency(): "inr" | "usd" | null {
      return (providers.stripe ?? providers.sandbox)?.currency ?? null;
    },

    /** The page that opens Cashfree's checkout for an order awaiting payment. */
    async cashfreeCheckout(orderId: string) {
      const o = await repo.findOrder(q, orderId);
      if (o?.provider !== "cashfree" || !o.provider_payment_session)
        throw new AppError(404, "not_found", m.checkoutNotFound);
      if (o.state !== "awaiting_payment")
        return { redirect: `${publicUrl}/paymentstatus/${o.nft_id}/${o.id}`, html: null };
      return {
        redirect: null,
        html: cashfreeCheckoutPage({
          paymentSession: o.provider_payment_session,
          mode: deps.cashfreeMode ?? "sandbox",
        }),
      };
    },

    /** What the hosted sandbox checkout page shows. */
    async sandboxSession(sessionId: string) {
      requireSandbox();
      const o = await repo.findBySession(q, "sandbox", sessionId);
      if (!o) throw new AppError(404, "not_found", m.checkoutNotFound);
      const nft = await deps.catalogue.purchaseTerms(o.nft_id);
      return {
        sessionId,
        title: nft.title,
        edition: o.edition,
        usdCents: Number(o.usd_cents),
        // Orders made before the sandbox charged rupees have no pay currency: they charge dollars.
        paise: o.pay_currency === "inr" && o.pay_amount_minor !== null ? Number(o.pay_amount_minor) : null,
        state: o.state,
        minutesLeft: Math.max(0, Math.ceil((o.reserved_until.getTime() - clock.now()) / 60_000)),
      };
    },

    /**
     * The payer's choice on the sandbox page. Pay and decline return the signed webhook deliveries the
     * sandbox makes (the caller sends them: each event twice, the copy late); every choice returns
     * where the payer goes next.
     */
    async sandboxAction(sessionId: string, action: "pay" | "decline" | "abandon") {
      const { secret } = requireSandbox();
      const o = await repo.findBySession(q, "sandbox", sessionId);
      if (!o) throw new AppError(404, "not_found", m.checkoutNotFound);
      const back = `${publicUrl}/confirmation/${o.nft_id}/${o.id}`;
      if (action === "abandon") {
        // Like Stripe's cancel_url: the payer left, so the order is cancelled and the edition released now.
        if (o.state !== "awaiting_payment") return { redirect: back, deliveries: [] };
        await cancelOrder(
          o.user_id,
          o.id,
          "the payer abandoned the sandbox checkout; edition released, nothing charged",
        );
        return { redirect: `${publicUrl}/paymentstatus/${o.nft_id}/${o.id}/cancelled`, deliveries: [] };
      }
      if (o.state !== "awaiting_payment") return { redirect: back, deliveries: [] };
      const body = JSON.stringify(
        sandboxEventFor(o, action === "pay" ? "payment.succeeded" : "payment.failed"),
      );
      const sign = () => signSandboxPayload(secret, body, Math.floor(clock.now() / 1000));
      return { redirect: back, deliveries: [{ body, sign }] };
    },
  };
}

export type HostedCheckout = ReturnType<typeof createHostedCheckout>;
