import type { Order } from "@diginoor/api/orders";
import Stripe from "stripe";
import type { FakeAnswer, FakeRequest } from "./fake-provider.ts";
import type { TestApp } from "./harness.ts";

/** The webhook signing secret the app under test is given (STRIPE_WEBHOOK_SECRET). */
export const STRIPE_WEBHOOK_SECRET = "whsec_test_diginoor_0123456789abcdef";

/** The app's settings for the fake Stripe at `url`, charging `currency`. */
export const stripeEnv = (url: string, currency: "usd" | "inr" = "usd") => ({
  STRIPE_SECRET_KEY: "sk_test_diginoor",
  STRIPE_WEBHOOK_SECRET,
  STRIPE_API_BASE: url,
  STRIPE_CURRENCY: currency,
});

/**
 * Stripe's side of a test (decision 142), to answer through `startFakeProvider`: Checkout Sessions
 * (create, read, expire) and refunds in Stripe's wire format, and the webhooks Stripe would send about
 * them, signed by Stripe's own helper (generateTestHeaderString). `now` is the test clock, in seconds.
 */
export function createFakeStripe(now: () => number) {
  const state = {
    /** What the fake does next: answer, fail with 500, or never answer. */
    mode: "ok" as "ok" | "500" | "hang",
    /** The refund calls: answered, processed and then never answered (the answer lost), or refused. */
    refundMode: "ok" as "ok" | "lost" | "refuse",
  };
  /** Sessions the fake created, by id (their status can be changed by a test). */
  const sessions = new Map<string, Record<string, unknown>>();
  /** Refunds the fake made, by idempotency key (as Stripe does, a key names one refund). */
  const refundsByKey = new Map<string, Record<string, unknown>>();
  const stripe = new Stripe("sk_test_helper_only");

  function refundAnswer(r: FakeRequest): FakeAnswer {
    if (state.refundMode === "refuse")
      return {
        status: 400,
        json: {
          error: {
            type: "invalid_request_error",
            code: "charge_disputed",
            message: "The charge is disputed",
          },
        },
      };
    const form = new URLSearchParams(r.body);
    const key = String(r.headers["idempotency-key"] ?? "");
    let refund = refundsByKey.get(key);
    if (!refund) {
      refund = {
        id: `re_test_${Math.random().toString(36).slice(2)}`,
        object: "refund",
        amount: Number(form.get("amount")),
        currency: "usd",
        payment_intent: form.get("payment_intent"),
        status: "pending",
        metadata: { orderId: form.get("metadata[orderId]"), reason: form.get("metadata[reason]") },
      };
      refundsByKey.set(key, refund);
    }
    return state.refundMode === "lost" ? "hang" : { status: 200, json: refund };
  }

  function answer(r: FakeRequest): FakeAnswer {
    if (r.method === "POST" && r.path === "/v1/refunds") return refundAnswer(r);
    if (state.mode === "hang") return "hang";
    if (state.mode === "500")
      return { status: 500, json: { error: { type: "api_error", message: "Something went wrong" } } };
    if (r.method === "POST" && r.path === "/v1/checkout/sessions") {
      const form = new URLSearchParams(r.body);
      const id = `cs_test_${Math.random().toString(36).slice(2)}`;
      const s = {
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        amount_total: Number(form.get("line_items[0][price_data][unit_amount]")),
        currency: form.get("line_items[0][price_data][currency]"),
        client_reference_id: form.get("client_reference_id"),
        metadata: { orderId: form.get("metadata[orderId]") },
        payment_intent: `pi_test_${Math.random().toString(36).slice(2)}`,
      };
      sessions.set(id, s);
      return { status: 200, json: s };
    }
    const expire = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(r.path);
    const open = expire?.[1] ? sessions.get(expire[1]) : undefined;
    if (r.method === "POST" && open) {
      // Stripe expires only an open session.
      if (open.status !== "open")
        return { status: 400, json: { error: { type: "invalid_request_error", message: "not open" } } };
      open.status = "expired";
      return { status: 200, json: open };
    }
    const m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(r.path);
    if (r.method === "GET" && m?.[1] && sessions.has(m[1])) return { status: 200, json: sessions.get(m[1]) };
    return { status: 404, json: { error: { type: "invalid_request_error", message: "No such route" } } };
  }

  /** The session the fake made for order `o`. */
  const sessionOf = (o: Pick<Order, "orderId">) =>
    [...sessions.values()].find((s) => (s.metadata as { orderId: string }).orderId === o.orderId);

  return {
    state,
    sessions,
    refundsByKey,
    answer,
    sessionOf,
    /** A Stripe event about order `o`'s session, as Stripe sends it. */
    event(o: Pick<Order, "orderId">, type: string, over: Record<string, unknown> = {}) {
      return JSON.stringify({
        id: `evt_test_${Math.random().toString(36).slice(2)}`,
        object: "event",
        api_version: "2025-01-27.acacia",
        created: now(),
        livemode: false,
        type,
        data: {
          object: {
            ...sessionOf(o),
            status: type === "checkout.session.expired" ? "expired" : "complete",
            payment_status: type === "checkout.session.completed" ? "paid" : "unpaid",
            ...over,
          },
        },
      });
    },
    /** The Stripe-Signature header of `payload`. */
    sign: (payload: string, o: { secret?: string; timestamp?: number } = {}) =>
      stripe.webhooks.generateTestHeaderString({
        payload,
        secret: o.secret ?? STRIPE_WEBHOOK_SECRET,
        timestamp: o.timestamp ?? now(),
      }),
  };
}

/** Delivers a Stripe webhook to the app. */
export const stripeWebhook = (app: TestApp["app"], body: string, signature: string) =>
  app.inject({
    method: "POST",
    url: "/api/v1/webhooks/stripe",
    payload: body,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });
