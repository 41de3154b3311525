import { createHash } from "node:crypto";
import type { CreateOrderRequest, OrderEntity, RefundEntity } from "cashfree-pg";
import { z } from "zod";
import {
  decimalToMinor,
  headerOf,
  minorToDecimal,
  type PaymentEvent,
  type PaymentProvider,
  ProviderError,
  REPLAY_WINDOW_SECONDS,
  refuseWebhook,
} from "./types.ts";

/**
 * Cashfree (INR: UPI, cards, net banking) through its SDK, cashfree-pg (decision 142). An order at
 * Cashfree per order of ours (same id, the idempotency key too), amounts in rupees from integer
 * paise; the payer pays on Cashfree's checkout, which cashfree.js opens from our page
 * /checkout/cashfree/:orderId with the order's payment_session_id. Webhooks are verified with the
 * SDK's PGVerifyWebhookSignature (base64 HMAC-SHA256 of timestamp + raw body) plus our replay window.
 *
 * The SDK picks its host from the environment (sandbox.cashfree.com or api.cashfree.com), but every
 * call goes to `basePath` when that is set (a public field of the Cashfree class): we set it from
 * CASHFREE_API_BASE, which is how tests point it at a local server. Its error analytics (Sentry,
 * on by default) are turned off: payment errors are not sent to a third party.
 */
export interface CashfreeOptions {
  clientId: string;
  clientSecret: string;
  environment: "sandbox" | "production";
  /** Default: https://sandbox.cashfree.com or https://api.cashfree.com (by environment). */
  apiBase?: string;
  publicUrl: string;
  timeoutMs: number;
}

const webhookSchema = z.object({
  type: z.string(),
  event_time: z.string().optional(),
  data: z.object({
    order: z.object({
      order_id: z.string(),
      order_amount: z.union([z.number(), z.string()]),
      order_currency: z.string(),
    }),
    payment: z
      .object({
        cf_payment_id: z.union([z.number(), z.string()]),
        payment_status: z.string().optional(),
        payment_amount: z.union([z.number(), z.string()]).optional(),
        payment_currency: z.string().optional(),
      })
      .optional(),
  }),
});

/** Cashfree's refund webhook (REFUND_STATUS_WEBHOOK): `data.refund`, no `data.order`. */
const refundWebhookSchema = z.object({
  type: z.literal("REFUND_STATUS_WEBHOOK"),
  data: z.object({
    refund: z.object({
      cf_refund_id: z.union([z.number(), z.string()]),
      refund_id: z.string(),
      order_id: z.string(),
      refund_amount: z.union([z.number(), z.string()]),
      refund_currency: z.string(),
      refund_status: z.string(),
    }),
  }),
});

/** Cashfree's refund id for an idempotency key: at most 40 characters of [A-Za-z0-9_-]. */
export const cashfreeRefundId = (idempotencyKey: string) =>
  `rf_${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 32)}`;

/** SUCCESS is refunded; CANCELLED (Cashfree gave up after its retries) and FAILED are failures; the rest wait. */
const refundStatusOf = (status: string | undefined) =>
  status === "SUCCESS"
    ? ("succeeded" as const)
    : status === "CANCELLED" || status === "FAILED"
      ? ("failed" as const)
      : ("pending" as const);

const EVENT_TYPES: Record<string, PaymentEvent["type"] | undefined> = {
  PAYMENT_SUCCESS_WEBHOOK: "paid",
  PAYMENT_FAILED_WEBHOOK: "failed",
  // The payer closed the checkout: Cashfree's order stays open until it expires, and so does ours.
  PAYMENT_USER_DROPPED_WEBHOOK: "pending",
};

/** Loads the SDK when Cashfree is configured (it is not imported at every start). */
export async function cashfreeProvider(o: CashfreeOptions): Promise<PaymentProvider> {
  const { Cashfree, CFEnvironment } = await import("cashfree-pg");
  const cashfree = new Cashfree(
    o.environment === "production" ? CFEnvironment.PRODUCTION : CFEnvironment.SANDBOX,
    o.clientId,
    o.clientSecret,
    undefined,
    undefined,
    undefined,
    false,
  );
  const apiBase =
    o.apiBase ??
    (o.environment === "production" ? "https://api.cashfree.com" : "https://sandbox.cashfree.com");
  cashfree.basePath = `${apiBase.replace(/\/$/, "")}/pg`;
  const publicUrl = o.publicUrl.replace(/\/$/, "");
  const requestOptions = { timeout: o.timeoutMs };

  const failure = (err: unknown): never => {
    const status = (err as { response?: { status?: number } }).response?.status;
    if (status === undefined || status >= 500) throw new ProviderError("Cashfree", "unavailable", err);
    throw new ProviderError("Cashfree", "refused", err);
  };

  return {
    name: "cashfree",
    currency: "inr",
    async createCheckout(req) {
      if (req.currency !== "inr") throw new ProviderError("Cashfree", "refused");
      if (!req.customer.phone) throw new ProviderError("Cashfree", "refused");
      const body: CreateOrderRequest = {
        order_id: req.orderId,
        order_amount: minorToDecimal(req.amountMinor),
        order_currency: "INR",
        customer_details: {
          customer_id: req.customer.id,
          customer_email: req.customer.email,
          customer_phone: req.customer.phone,
        },
        order_meta: { return_url: req.returnUrl },
        order_expiry_time: req.expiresAt.toISOString(),
        order_note: req.title.slice(0, 200),
        order_tags: req.tags,
      };
      let entity: OrderEntity;
      try {
        entity = (await cashfree.PGCreateOrder(body, undefined, `order-${req.orderId}`, requestOptions)).data;
      } catch (err) {
        return failure(err);
      }
      if (!entity.payment_session_id) throw new ProviderError("Cashfree", "refused");
      return {
        session: entity.order_id ?? req.orderId,
        url: `${publicUrl}/checkout/cashfree/${req.orderId}`,
        paymentSession: entity.payment_session_id,
      };
    },
    verifyWebhook(raw, headers, nowMs) {
      const signature = headerOf(headers, "x-webhook-signature");
      const timestamp = headerOf(headers, "x-webhook-timestamp");
      if (!signature || !timestamp) throw refuseWebhook("no signature");
      const ts = Number(timestamp);
      if (!Number.isFinite(ts)) throw refuseWebhook("no timestamp");
      // Cashfree sends milliseconds; accept seconds too.
      const tsMs = ts > 1e11 ? ts : ts * 1000;
      if (Math.abs(nowMs - tsMs) > REPLAY_WINDOW_SECONDS * 1000)
        throw refuseWebhook("timestamp outside the replay window");
      let payload: unknown;
      try {
        payload = cashfree.PGVerifyWebhookSignature(signature, raw.toString("utf8"), timestamp).object;
      } catch {
        throw refuseWebhook("bad signature");
      }
      const refund = refundWebhookSchema.safeParse(payload);
      if (refund.success) {
        const r = refund.data.data.refund;
        const status = refundStatusOf(r.refund_status);
        const amount = decimalToMinor(r.refund_amount);
        if (amount === undefined) throw refuseWebhook("no amount");
        return {
          id: `REFUND_STATUS_WEBHOOK:${r.cf_refund_id}:${r.refund_status}`,
          type:
            status === "succeeded" ? "refunded" : status === "failed" ? "refund_failed" : "refund_pending",
          providerType: `REFUND_STATUS_WEBHOOK (${r.refund_status})`,
          orderId: r.order_id,
          session: r.order_id,
          amountMinor: amount,
          currency: r.refund_currency.toLowerCase(),
          refundId: r.refund_id,
        };
      }
      const parsed = webhookSchema.safeParse(payload);
      if (!parsed.success) throw refuseWebhook("not a Cashfree payment event");
      const e = parsed.data;
      const type = EVENT_TYPES[e.type];
      if (!type) return null;
      const payment = e.data.payment;
      const amount =
        decimalToMinor(payment?.payment_amount ?? e.data.order.order_amount) ??
        decimalToMinor(e.data.order.order_amount);
      if (amount === undefined) throw refuseWebhook("no amount");
      return {
        id: `${e.type}:${payment?.cf_payment_id ?? e.data.order.order_id}`,
        type,
        providerType: e.type,
        orderId: e.data.order.order_id,
        session: e.data.order.order_id,
        amountMinor: amount,
        currency: (payment?.payment_currency ?? e.data.order.order_currency).toLowerCase(),
      };
    },
    async closeCheckout(session) {
      try {
        await cashfree.PGTerminateOrder(
          session,
          { order_status: "TERMINATED" },
          undefined,
          `terminate-${session}`,
          requestOptions,
        );
      } catch (err) {
        failure(err);
      }
    },
    async refund(order, amountMinor, reason, idempotencyKey) {
      let entity: RefundEntity;
      try {
        entity = (
          await cashfree.PGOrderCreateRefund(
            order.session,
            {
              refund_amount: minorToDecimal(amountMinor),
              refund_id: cashfreeRefundId(idempotencyKey),
              refund_note: `Diginoor refund (${reason.replace(/_/g, " ")})`,
            },
            undefined,
            idempotencyKey,
            requestOptions,
          )
        ).data;
      } catch (err) {
        return failure(err);
      }
      return {
        refundId: entity.refund_id ?? cashfreeRefundId(idempotencyKey),
        status: refundStatusOf(entity.refund_status),
        detail: `refund ${entity.refund_status ?? "unknown"}`,
      };
    },
    async refundStatus(order, refundId) {
      let entity: RefundEntity;
      try {
        entity = (
          await cashfree.PGOrderFetchRefund(order.session, refundId, undefined, undefined, requestOptions)
        ).data;
      } catch (err) {
        return failure(err);
      }
      return {
        refundId,
        status: refundStatusOf(entity.refund_status),
        detail: `refund ${entity.refund_status ?? "unknown"}`,
      };
    },
    async fetchStatus(session) {
      let entity: OrderEntity;
      try {
        entity = (await cashfree.PGFetchOrder(session, undefined, undefined, requestOptions)).data;
      } catch (err) {
        return failure(err);
      }
      const status = entity.order_status ?? "";
      return {
        type:
          status === "PAID" ? "paid" : status === "EXPIRED" || status === "TERMINATED" ? "failed" : "pending",
        amountMinor: decimalToMinor(entity.order_amount),
        currency: entity.order_currency?.toLowerCase(),
        detail: `order ${status || "unknown"}`,
      };
    },
  };
}

/** Indian mobile numbers as Cashfree takes them (10 digits); accepts +91, 91 or 0 in front, spaces, dashes. */
export function indianMobile(input: string): string | undefined {
  const m = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(input.replace(/[\s-]/g, ""));
  return m?.[1];
}

/** The hosted step of a Cashfree checkout: cashfree.js opens Cashfree's page for the payment session. */
export const CASHFREE_CHECKOUT_SCRIPT =
  'const d=document.getElementById("cf").dataset;Cashfree({mode:d.mode}).checkout({paymentSessionId:d.session,redirectTarget:"_self"});';

export function cashfreeCheckoutPage(o: { paymentSession: string; mode: "sandbox" | "production" }): string {
  const attr = (s: string) => s.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pay in rupees · Diginoor</title>
<script src="https://sdk.cashfree.com/js/v3/cashfree.js"></script></head>
<body style="font-family:Inter,Arial,sans-serif;text-align:center;padding:48px 16px">
<p id="cf" data-session="${attr(o.paymentSession)}" data-mode="${o.mode}">Opening Cashfree's secure checkout…</p>
<script>${CASHFREE_CHECKOUT_SCRIPT}</script></body></html>`;
}
