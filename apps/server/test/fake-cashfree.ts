import { createHmac } from "node:crypto";
import type { Order } from "@diginoor/api/orders";
import type { FakeAnswer, FakeRequest } from "./fake-provider.ts";
import type { TestApp } from "./harness.ts";

/** The client secret the app under test is given (CASHFREE_CLIENT_SECRET); it also signs webhooks. */
export const CASHFREE_CLIENT_SECRET = "cfsk_ma_test_diginoor_secret";

/** The app's settings for the fake Cashfree at `url` (₹84.5 to the dollar, an on-ramp). */
export const cashfreeEnv = (url: string) => ({
  CASHFREE_CLIENT_ID: "TEST_APP_ID",
  CASHFREE_CLIENT_SECRET,
  CASHFREE_API_BASE: url,
  RATES_TABLE: "ETH=3000,POL=0.25,INR=84.5",
  ONRAMP_URL: "https://onramp.example/buy?address={address}&amount={amount}",
});

/**
 * Cashfree's side of a test (decision 142), to answer through `startFakeProvider`: the PG API's orders
 * (create, read, terminate) and refunds in its wire format, and the payment webhooks Cashfree would
 * send, signed as it signs them. `now` is the test clock, in milliseconds.
 */
export function createFakeCashfree(now: () => number) {
  const state = {
    mode: "ok" as "ok" | "500" | "hang",
    /** "500" processes a refund and then answers 500. */
    refundMode: "ok" as "ok" | "500",
  };
  const orders = new Map<string, Record<string, unknown>>();
  /** Refunds the fake made, by x-idempotency-key. */
  const refundsByKey = new Map<string, Record<string, unknown>>();

  function refundAnswer(r: FakeRequest, orderId: string): FakeAnswer {
    const req = JSON.parse(r.body) as Record<string, unknown>;
    const key = String(r.headers["x-idempotency-key"] ?? "");
    let refund = refundsByKey.get(key);
    if (!refund) {
      refund = {
        cf_payment_id: "885473311",
        cf_refund_id: String(3_000_000 + refundsByKey.size),
        order_id: orderId,
        refund_id: req.refund_id,
        entity: "refund",
        refund_amount: req.refund_amount,
        refund_currency: "INR",
        refund_note: req.refund_note,
        refund_status: "PENDING",
        refund_type: "MERCHANT_INITIATED",
      };
      refundsByKey.set(key, refund);
    }
    if (state.refundMode === "500")
      return { status: 500, json: { message: "internal error", code: "internal_error", type: "api_error" } };
    return { status: 200, json: refund };
  }

  function answer(r: FakeRequest): FakeAnswer {
    const refundPath = /^\/pg\/orders\/([\w-]+)\/refunds$/.exec(r.path);
    if (r.method === "POST" && refundPath?.[1]) return refundAnswer(r, refundPath[1]);
    const refundGet = /^\/pg\/orders\/([\w-]+)\/refunds\/([\w-]+)$/.exec(r.path);
    if (r.method === "GET" && refundGet) {
      const found = [...refundsByKey.values()].find((x) => x.refund_id === refundGet[2]);
      if (found) return { status: 200, json: found };
    }
    if (state.mode === "hang") return "hang";
    if (state.mode === "500")
      return { status: 500, json: { message: "internal error", code: "internal_error", type: "api_error" } };
    if (r.method === "POST" && r.path === "/pg/orders") {
      const req = JSON.parse(r.body) as Record<string, unknown>;
      const entity = {
        cf_order_id: String(2_000_000 + orders.size),
        order_id: req.order_id,
        entity: "order",
        order_currency: req.order_currency,
        order_amount: req.order_amount,
        order_status: "ACTIVE",
        payment_session_id: `session_${Math.random().toString(36).slice(2)}payment`,
        order_expiry_time: req.order_expiry_time,
        customer_details: req.customer_details,
        order_meta: req.order_meta,
      };
      orders.set(String(req.order_id), entity);
      return { status: 200, json: entity };
    }
    const m = /^\/pg\/orders\/([\w-]+)$/.exec(r.path);
    if (r.method === "GET" && m?.[1] && orders.has(m[1])) return { status: 200, json: orders.get(m[1]) };
    // Terminate Order: only an ACTIVE order can be terminated.
    const open = m?.[1] ? orders.get(m[1]) : undefined;
    if (
      r.method === "PATCH" &&
      open &&
      (JSON.parse(r.body) as { order_status?: string }).order_status === "TERMINATED"
    ) {
      if (open.order_status !== "ACTIVE")
        return {
          status: 400,
          json: { message: "order is not active", code: "order_inactive", type: "invalid_request_error" },
        };
      open.order_status = "TERMINATED";
      return { status: 200, json: open };
    }
    return {
      status: 404,
      json: { message: "order not found", code: "order_not_found", type: "invalid_request_error" },
    };
  }

  /** x-webhook-signature: base64 HMAC-SHA256 of timestamp + raw body with the client secret. */
  const signature = (body: string, timestamp: string, secret = CASHFREE_CLIENT_SECRET) =>
    createHmac("sha256", secret)
      .update(timestamp + body)
      .digest("base64");

  return {
    state,
    orders,
    refundsByKey,
    answer,
    signature,
    /**
     * A payment webhook as Cashfree sends it (2023-08-01 and later payload), for the order's amount in
     * rupees unless `over` says otherwise.
     */
    event(
      o: Pick<Order, "orderId" | "payAmountMinor">,
      type: string,
      over: { amount?: number; currency?: string } = {},
    ) {
      const rupees = Number(o.payAmountMinor) / 100;
      return JSON.stringify({
        data: {
          order: { order_id: o.orderId, order_amount: rupees, order_currency: "INR", order_tags: null },
          payment: {
            cf_payment_id: Math.floor(Math.random() * 1e12),
            payment_status: type === "PAYMENT_SUCCESS_WEBHOOK" ? "SUCCESS" : "FAILED",
            payment_amount: over.amount ?? rupees,
            payment_currency: over.currency ?? "INR",
            payment_message: "Simulated response message",
            payment_time: new Date(now()).toISOString(),
            payment_group: "upi",
          },
          customer_details: { customer_id: "x", customer_phone: "9876543210" },
        },
        event_time: new Date(now()).toISOString(),
        type,
      });
    },
    /** The signature headers of `body`, as Cashfree sends them. */
    signed(body: string, o: { secret?: string; timestamp?: number } = {}) {
      const timestamp = String(o.timestamp ?? now());
      return { timestamp, signature: signature(body, timestamp, o.secret) };
    },
  };
}

/** Delivers a Cashfree webhook to the app. */
export const cashfreeWebhook = (
  app: TestApp["app"],
  body: string,
  headers: { signature: string; timestamp: string },
) =>
  app.inject({
    method: "POST",
    url: "/api/v1/webhooks/cashfree",
    payload: body,
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": headers.signature,
      "x-webhook-timestamp": headers.timestamp,
      "x-webhook-version": "2025-01-01",
    },
  });
