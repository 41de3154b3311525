import type Stripe from "stripe";
import {
  headerOf,
  type PaymentEvent,
  type PaymentProvider,
  ProviderError,
  REPLAY_WINDOW_SECONDS,
  refuseWebhook,
} from "./types.ts";

/**
 * Stripe (card, in INR or USD as STRIPE_CURRENCY says) through the official SDK (decision 142): a Checkout Session per order, created
 * with the order id as idempotency key; webhooks verified by `stripe.webhooks.constructEvent` over
 * the raw body; the session fetched for reconciliation. The API host comes from STRIPE_API_BASE so
 * tests point the SDK at a local server answering in Stripe's wire format.
 */
export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** e.g. https://api.stripe.com (default) or http://127.0.0.1:4010 */
  apiBase?: string;
  timeoutMs: number;
  /** What Checkout charges in (STRIPE_CURRENCY): INR for an Indian account's Indian cards, else USD. */
  currency?: "inr" | "usd";
}

/** Loads the SDK when Stripe is configured (it is not imported at every start). */
export async function stripeProvider(o: StripeOptions): Promise<PaymentProvider> {
  const { default: StripeSdk } = await import("stripe");
  const currency = o.currency ?? "usd";
  const base = o.apiBase ? new URL(o.apiBase) : undefined;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  const stripe = new StripeSdk(o.secretKey, {
    ...(base ? { host: base.hostname, port: base.port || (protocol === "http" ? 80 : 443), protocol } : {}),
    timeout: o.timeoutMs,
    // A retry of a create carries the same idempotency key, so it can never make a second session.
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: "Diginoor" },
  });

  const failure = (err: unknown): never => {
    if (err instanceof StripeSdk.errors.StripeConnectionError)
      throw new ProviderError("Stripe", "unavailable", err);
    if (err instanceof StripeSdk.errors.StripeError && (err.statusCode ?? 500) >= 500)
      throw new ProviderError("Stripe", "unavailable", err);
    throw new ProviderError("Stripe", "refused", err);
  };

  const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : v?.id);

  const refundResult = (r: Stripe.Refund) => ({
    refundId: r.id,
    status:
      r.status === "succeeded"
        ? ("succeeded" as const)
        : r.status === "failed" || r.status === "canceled"
          ? ("failed" as const)
          : ("pending" as const),
    detail: `refund ${r.status ?? "unknown"}${r.failure_reason ? ` (${r.failure_reason})` : ""}`,
  });

  /** refund.created / refund.updated / refund.failed (a Refund), charge.refunded (a Charge). */
  const refundEventOf = (event: Stripe.Event): PaymentEvent | null => {
    if (event.type === "charge.refunded") {
      const c = event.data.object as Stripe.Charge;
      // Only a charge refunded in full confirms our (full) refund; a partial one is not ours.
      if (!c.refunded) return null;
      return {
        id: event.id,
        type: "refunded",
        providerType: event.type,
        orderId: c.metadata?.orderId ?? "",
        session: "",
        amountMinor: BigInt(c.amount_refunded),
        currency: c.currency.toLowerCase(),
        paymentRef: idOf(c.payment_intent),
      };
    }
    if (!event.type.startsWith("refund.")) return null;
    const r = event.data.object as Stripe.Refund;
    const { status } = refundResult(r);
    return {
      id: event.id,
      type: status === "succeeded" ? "refunded" : status === "failed" ? "refund_failed" : "refund_pending",
      providerType: `${event.type} (${r.status})`,
      orderId: r.metadata?.orderId ?? "",
      session: "",
      amountMinor: BigInt(r.amount),
      currency: r.currency.toLowerCase(),
      paymentRef: idOf(r.payment_intent),
      refundId: r.id,
    };
  };

  const eventOf = (event: Stripe.Event): PaymentEvent | null => {
    if (event.type === "charge.refunded" || event.type.startsWith("refund.")) return refundEventOf(event);
    const types: Record<string, PaymentEvent["type"] | undefined> = {
      "checkout.session.completed": "paid",
      "checkout.session.async_payment_succeeded": "paid",
      "checkout.session.async_payment_failed": "failed",
      "checkout.session.expired": "failed",
    };
    let type = types[event.type];
    if (!type) return null;
    const s = event.data.object as Stripe.Checkout.Session;
    // A completed session paid by a delayed method (bank debit) is not paid yet: its async event follows.
    if (type === "paid" && s.payment_status !== "paid") type = "pending";
    // A session that names no order of ours (a payment link, another integration on the account) is
    // still an authentic event: it is acknowledged and recorded as ignored, or Stripe would retry it
    // for days and disable the endpoint.
    const orderId = s.metadata?.orderId ?? s.client_reference_id ?? "";
    return {
      id: event.id,
      type,
      providerType: event.type,
      orderId,
      session: s.id,
      amountMinor: BigInt(s.amount_total ?? 0),
      currency: (s.currency ?? "").toLowerCase(),
      paymentRef: idOf(s.payment_intent),
    };
  };

  return {
    name: "stripe",
    currency,
    async createCheckout(req) {
      if (req.currency !== currency) throw new ProviderError("Stripe", "refused");
      try {
        const s = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency,
                  unit_amount: Number(req.amountMinor),
                  product_data: { name: req.title },
                },
              },
            ],
            client_reference_id: req.orderId,
            customer_email: req.customer.email,
            metadata: { orderId: req.orderId, ...req.tags },
            payment_intent_data: { metadata: { orderId: req.orderId } },
            success_url: req.returnUrl,
            cancel_url: req.cancelUrl,
            expires_at: Math.floor(req.expiresAt.getTime() / 1000),
          },
          { idempotencyKey: `order-${req.orderId}` },
        );
        if (!s.url) throw new Error("Stripe returned a session without a URL");
        return { session: s.id, url: s.url };
      } catch (err) {
        return failure(err);
      }
    },
    verifyWebhook(raw, headers, nowMs) {
      const signature = headerOf(headers, "stripe-signature");
      if (!signature) throw refuseWebhook("no signature");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          raw,
          signature,
          o.webhookSecret,
          REPLAY_WINDOW_SECONDS,
          undefined,
          nowMs, // milliseconds: the SDK divides by 1000
        );
      } catch (err) {
        throw refuseWebhook(
          err instanceof StripeSdk.errors.StripeSignatureVerificationError
            ? /timestamp/i.test(err.message)
              ? "timestamp outside the replay window"
              : "bad signature"
            : "not a Stripe event",
        );
      }
      // The SDK refuses a timestamp too old but not one from the future; the window holds both ways.
      const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
      if (!(signedAt * 1000 <= nowMs + REPLAY_WINDOW_SECONDS * 1000)) {
        throw refuseWebhook("timestamp outside the replay window");
      }
      return eventOf(event);
    },
    async closeCheckout(session) {
      try {
        await stripe.checkout.sessions.expire(session, {}, { idempotencyKey: `expire-${session}` });
      } catch (err) {
        failure(err);
      }
    },
    async refund(order, amountMinor, reason, idempotencyKey) {
      try {
        // The PaymentIntent is kept when the paid event arrives; a payment applied otherwise names it in its session.
        const paymentIntent =
          order.paymentRef ?? idOf((await stripe.checkout.sessions.retrieve(order.session)).payment_intent);
        if (!paymentIntent) throw new ProviderError("Stripe", "refused");
        const r = await stripe.refunds.create(
          {
            payment_intent: paymentIntent,
            amount: Number(amountMinor),
            // Stripe's own reasons are duplicate, fraudulent and requested_by_customer: ours is in the metadata.
            ...(reason === "admin" ? { reason: "requested_by_customer" as const } : {}),
            metadata: { orderId: order.orderId, reason },
          },
          { idempotencyKey },
        );
        return refundResult(r);
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        return failure(err);
      }
    },
    async refundStatus(_order, refundId) {
      try {
        return refundResult(await stripe.refunds.retrieve(refundId));
      } catch (err) {
        return failure(err);
      }
    },
    async fetchStatus(session) {
      let s: Stripe.Checkout.Session;
      try {
        s = await stripe.checkout.sessions.retrieve(session);
      } catch (err) {
        return failure(err);
      }
      const type =
        s.status === "complete" && s.payment_status === "paid"
          ? "paid"
          : s.status === "expired"
            ? "failed"
            : "pending";
      return {
        type,
        amountMinor: s.amount_total === null ? undefined : BigInt(s.amount_total),
        currency: s.currency ?? undefined,
        detail: `session ${s.status}, payment ${s.payment_status}`,
      };
    },
  };
}
