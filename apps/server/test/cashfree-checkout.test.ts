import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import type { CheckoutOptions, Order } from "@diginoor/api/orders";
import { Cashfree, CFEnvironment } from "cashfree-pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { until } from "./commerce-helpers.ts";
import { CASHFREE_CLIENT_SECRET, cashfreeEnv, cashfreeWebhook, createFakeCashfree } from "./fake-cashfree.ts";
import { cashfreeProvider } from "../src/modules/orders/providers/cashfree.ts";
import {
  checkoutRequest,
  type HostedCheckoutApp,
  PUBLIC_URL,
  startHostedCheckoutApp,
} from "./hosted-checkout-helpers.ts";

/**
 * Cashfree rupee checkout (decision 142) against a local server answering in Cashfree's PG API wire
 * format: the order we create (paise → rupees at the stored rate, customer with a real phone, return
 * URL, idempotency key, API version), webhooks signed as Cashfree signs them (checked by the SDK's
 * own verifier), forged or stale ones refused, a paid order minted once on anvil, a failing provider
 * leaving nothing held, and reconciliation through GET /pg/orders/:id.
 */
const CLIENT_SECRET = CASHFREE_CLIENT_SECRET;

let h: HostedCheckoutApp;
let t: HostedCheckoutApp["t"];
let clock: HostedCheckoutApp["clock"];
let fake: HostedCheckoutApp["fake"];
const cashfreeFake = createFakeCashfree(() => clock.now());
const { state, orders, refundsByKey, event, signed } = cashfreeFake;

beforeAll(async () => {
  h = await startHostedCheckoutApp(cashfreeFake.answer, cashfreeEnv);
  ({ t, clock, fake } = h);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  state.mode = "ok";
});

const rupeeOrder = (cookie: string, phone?: string) =>
  h.api<Order>("POST", "/api/v1/orders", cookie, {
    nftId: "bossEntry",
    provider: "cashfree",
    ...(phone ? { phone } : {}),
  });

const webhook = (body: string, headers: { signature: string; timestamp: string }) =>
  cashfreeWebhook(t.app, body, headers);

describe("Cashfree rupee checkout", () => {
  let alice: Awaited<ReturnType<HostedCheckoutApp["buyer"]>>;

  beforeAll(async () => {
    alice = await h.buyer(ANVIL_PRIVATE_KEYS[1]);
  });
  afterEach(() => h.lapseUnpaid());

  it("our signatures are the ones the SDK's own verifier accepts", () => {
    const body = JSON.stringify({ type: "PAYMENT_SUCCESS_WEBHOOK", data: {} });
    const sdk = new Cashfree(
      CFEnvironment.SANDBOX,
      "TEST_APP_ID",
      CLIENT_SECRET,
      undefined,
      undefined,
      undefined,
      false,
    );
    const { timestamp, signature: sig } = signed(body);
    expect(sdk.PGVerifyWebhookSignature(sig, body, timestamp).type).toBe("PAYMENT_SUCCESS_WEBHOOK");
    expect(() => sdk.PGVerifyWebhookSignature(sig, `${body} `, timestamp)).toThrow();
  });

  it("offers rupees by Cashfree, the on-ramp, and the stored USD→INR rate; never a secret", async () => {
    const res = await h.api<CheckoutOptions>("GET", "/api/v1/checkout/options");
    expect(res.body).toMatchObject({
      card: "sandbox",
      rupees: "cashfree",
      onrampUrl: "https://onramp.example/buy?address={address}&amount={amount}",
      inrMicrosPerUsd: "84500000",
    });
    expect(JSON.stringify(res.body)).not.toContain(CLIENT_SECRET);
    const stripe = await h.api("POST", "/api/v1/orders", alice.cookie, {
      nftId: "bossEntry",
      provider: "stripe",
    });
    expect(stripe.status).toBe(400);
  });

  it("asks for a phone when the account has none, refuses a bad one, and never invents one", async () => {
    const before = await h.editions();
    const none = await rupeeOrder(alice.cookie);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain("needs your mobile number");
    expect(JSON.stringify(none.body)).toContain("phone_required");
    const bad = await rupeeOrder(alice.cookie, "12345 67890");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("valid Indian mobile number");
    expect(await h.editions()).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });

  it("creates a Cashfree order in rupees from paise at the stored rate, with the payer's phone", async () => {
    const before = await h.editions();
    const res = await rupeeOrder(alice.cookie, "+91 98765-43210");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const o = res.body;
    // US$25.00 at ₹84.5 = ₹2,112.50 = 211250 paise; the rate is recorded on the order.
    expect(o).toMatchObject({
      provider: "cashfree",
      state: "awaiting_payment",
      usdCents: 2500,
      payCurrency: "inr",
      payAmountMinor: 211250,
      inrMicrosPerUsd: "84500000",
      checkoutUrl: `${PUBLIC_URL}/checkout/cashfree/${o.orderId}`,
    });
    expect(await h.editions()).toBe(before - 1);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ method: "POST", path: "/pg/orders" });
    expect(sent.headers["x-client-id"]).toBe("TEST_APP_ID");
    expect(sent.headers["x-client-secret"]).toBe(CLIENT_SECRET);
    expect(sent.headers["x-idempotency-key"]).toBe(`order-${o.orderId}`);
    expect(String(sent.headers["x-api-version"]) >= "2023-08-01").toBe(true);
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({
      order_id: o.orderId,
      order_amount: 2112.5,
      order_currency: "INR",
      customer_details: { customer_email: alice.email, customer_phone: "9876543210" },
      order_meta: { return_url: `${PUBLIC_URL}/paymentstatus/bossEntry/${o.orderId}/returned` },
    });
    // Cashfree's order is open 15 minutes, the edition held one more (decision 143).
    expect(Date.parse(body.order_expiry_time) - Date.parse(o.createdAt)).toBe(15 * 60_000);
    expect(Date.parse(o.reservedUntil) - Date.parse(o.createdAt)).toBe(16 * 60_000);
    expect(body.customer_details.customer_id).toMatch(/^[0-9a-f-]{36}$/);

    // Our page opens Cashfree's checkout with the payment session, under a strict CSP.
    const page = await t.app.inject({ method: "GET", url: `/checkout/cashfree/${o.orderId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(String(orders.get(o.orderId)!.payment_session_id));
    expect(page.body).toContain("https://sdk.cashfree.com/js/v3/cashfree.js");
    expect(page.headers["content-security-policy"]).toContain("script-src https://sdk.cashfree.com 'sha256-");
  });

  it("uses the account's phone when it has one", async () => {
    await t.ctx.database.query("UPDATE users SET phone = '+919812345678' WHERE email = $1", [alice.email]);
    const res = await rupeeOrder(alice.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(JSON.parse(fake.requests.at(-1)!.body).customer_details.customer_phone).toBe("9812345678");
  });

  it("refuses a currency Cashfree is not set up for (dollars) without calling it", async () => {
    const before = fake.requests.length;
    const p = await cashfreeProvider({
      clientId: "TEST_APP_ID",
      clientSecret: CLIENT_SECRET,
      environment: "sandbox",
      apiBase: fake.url,
      publicUrl: PUBLIC_URL,
      timeoutMs: 800,
    });
    await expect(p.createCheckout(checkoutRequest("usd"))).rejects.toMatchObject({ status: 502 });
    expect(fake.requests.length).toBe(before);
  });

  it("refuses a tampered body, a wrong secret and an old timestamp with 400, changing nothing", async () => {
    const o = (await rupeeOrder(alice.cookie)).body;
    const body = event(o, "PAYMENT_SUCCESS_WEBHOOK");
    const tampered = body.replace('"payment_amount":2112.5', '"payment_amount":1');
    expect(tampered).not.toBe(body);
    const answers = [
      await webhook(tampered, signed(body)),
      await webhook(body, signed(body, { secret: "not_the_secret" })),
      await webhook(body, signed(body, { timestamp: clock.now() - 10 * 60 * 1000 })),
      await webhook(body, { timestamp: String(clock.now()), signature: "" }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 400, 400]);
    expect(answers[2]!.json().error.message).toContain("replay window");
    expect(await h.count("SELECT count(*)::int AS n FROM payment_events WHERE provider = 'cashfree'")).toBe(
      0,
    );
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
  });

  it("never pays an order in another currency or amount", async () => {
    const o = (await rupeeOrder(alice.cookie)).body;
    for (const over of [{ currency: "USD", amount: 25 }, { amount: 2000 }]) {
      const body = event(o, "PAYMENT_SUCCESS_WEBHOOK", over);
      expect((await webhook(body, signed(body))).statusCode).toBe(200);
    }
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
  });

  it("fulfils a paid order from the webhook once: minted on anvil to the buyer's wallet", async () => {
    const o = (await rupeeOrder(alice.cookie)).body;
    // The payer closing the checkout changes nothing.
    const dropped = event(o, "PAYMENT_USER_DROPPED_WEBHOOK");
    expect((await webhook(dropped, signed(dropped))).statusCode).toBe(200);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
    const body = event(o, "PAYMENT_SUCCESS_WEBHOOK");
    const first = await webhook(body, signed(body));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect((await webhook(body, signed(body))).json()).toEqual({ received: true, duplicate: true });
    const done = await until(
      "fulfilment",
      async () => (await h.getOrder(alice.cookie, o.orderId)).body,
      (x) => x.state === "fulfilled",
      20_000,
    );
    expect(await h.ownerOf(done.tokenId)).toBe(alice.account.address);
    // A late failure for another attempt never moves a paid order back.
    const late = event(o, "PAYMENT_FAILED_WEBHOOK");
    expect((await webhook(late, signed(late))).statusCode).toBe(200);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("fulfilled");
    // The confirmation mail states what was paid: rupees.
    const mail = await until(
      "the confirmation mail",
      () =>
        t.ctx.database.query<{ text_body: string }>(
          "SELECT text_body FROM dev_mail WHERE to_address = $1 AND subject LIKE '%The Boss Entry%'",
          [alice.email],
        ),
      (rows) => rows.length === 1,
      15_000,
    );
    expect(mail[0]!.text_body).toContain("₹2,112.50");
    // Its checkout page now sends the payer to the order's status page.
    const page = await t.app.inject({ method: "GET", url: `/checkout/cashfree/${o.orderId}` });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`${PUBLIC_URL}/paymentstatus/bossEntry/${o.orderId}`);
  });

  it("a failed payment fails the order and releases its edition", async () => {
    const before = await h.editions();
    const o = (await rupeeOrder(alice.cookie)).body;
    const body = event(o, "PAYMENT_FAILED_WEBHOOK");
    expect((await webhook(body, signed(body))).statusCode).toBe(200);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("failed");
    expect(await h.editions()).toBe(before);
  });

  it("a Cashfree answering 500 or timing out: 503, and no order keeps an edition", async () => {
    const before = await h.editions();
    for (const m of ["500", "hang"] as const) {
      state.mode = m;
      const res = await rupeeOrder(alice.cookie);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
    }
    state.mode = "ok";
    expect(await h.editions()).toBe(before);
  });

  it("back from Cashfree unpaid: the order is terminated at Cashfree and cancelled, the edition released", async () => {
    const before = await h.editions();
    const o = (await rupeeOrder(alice.cookie)).body;
    expect(await h.editions()).toBe(before - 1);
    // What the web's return page (…/returned) does: ask to cancel; the server asks Cashfree first.
    const res = await h.api<Order>("POST", `/api/v1/orders/${o.orderId}/cancel`, alice.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.state).toBe("cancelled");
    expect(orders.get(o.orderId)?.order_status).toBe("TERMINATED");
    const terminate = fake.requests.find((r) => r.method === "PATCH" && r.path === `/pg/orders/${o.orderId}`);
    expect(JSON.parse(terminate?.body ?? "{}")).toEqual({ order_status: "TERMINATED" });
    expect(await h.editions()).toBe(before);
  });

  it("reconciles a lost webhook through GET /pg/orders/:id; a failing Cashfree changes nothing", async () => {
    const o = (await rupeeOrder(alice.cookie)).body;
    const service = t.ctx.services.orders.hostedCheckout;
    clock.advance(4 * 60 * 1000);
    state.mode = "hang";
    expect((await service.reconcilePayments()).failed).toBeGreaterThanOrEqual(1);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
    state.mode = "ok";
    orders.get(o.orderId)!.order_status = "PAID";
    await service.reconcilePayments();
    const done = await until(
      "fulfilment after reconciliation",
      async () => (await h.getOrder(alice.cookie, o.orderId)).body,
      (x) => x.state === "fulfilled",
      20_000,
    );
    expect(done.transitions.find((x) => x.to === "paid")?.cause).toContain("reconcile:");
    expect(fake.requests.some((r) => r.method === "GET" && r.path === `/pg/orders/${o.orderId}`)).toBe(true);
  }, 40_000);

  it("refunds a late payment through the SDK's PGOrderCreateRefund: one refund per idempotency key through a 500 and the job's retry; the refund webhook twice, polled once", async () => {
    const o = (await rupeeOrder(alice.cookie, "9876543210")).body;
    await h.lapseUnpaid();
    // Cashfree takes the refund but answers 500: the job fails and is retried with the same key.
    state.refundMode = "500";
    const paid = event(o, "PAYMENT_SUCCESS_WEBHOOK");
    const headers = signed(paid);
    expect((await webhook(paid, headers)).statusCode).toBe(200);
    expect((await webhook(paid, headers)).json()).toEqual({ received: true, duplicate: true });
    const refundCalls = () =>
      fake.requests.filter((r) => r.method === "POST" && r.path === `/pg/orders/${o.orderId}/refunds`);
    await until(
      "the refund call failed once",
      async () => refundCalls().length,
      (n) => n >= 1,
      20_000,
    );
    state.refundMode = "ok";
    const row = await until(
      "the refund requested",
      async () =>
        (
          await t.ctx.database.query<{ id: string; state: string; provider_refund_id: string }>(
            "SELECT id, state, provider_refund_id FROM order_refunds WHERE order_id = $1",
            [o.orderId],
          )
        )[0],
      (r) => r?.state === "requested",
      30_000,
    );
    const key = `refund-${o.orderId}-late_payment-1`;
    expect(refundCalls().length).toBeGreaterThanOrEqual(2);
    expect(new Set(refundCalls().map((r) => r.headers["x-idempotency-key"]))).toEqual(new Set([key]));
    expect(refundsByKey.size).toBe(1);
    const refund = refundsByKey.get(key)!;
    expect(refund.refund_amount).toBe(2112.5);
    expect(row?.provider_refund_id).toBe(refund.refund_id);
    expect(JSON.parse(refundCalls()[0]!.body)).toMatchObject({
      refund_amount: 2112.5,
      refund_id: refund.refund_id,
    });
    expect(refundCalls()[0]!.headers["x-api-version"]).toBeDefined();
    // Polling (the webhook not come yet) finds it still pending, and changes nothing.
    clock.advance(6 * 60 * 1000);
    expect((await t.ctx.services.orders.hostedCheckout.reconcileRefunds()).asked).toBe(1);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("refund_pending");
    expect(
      fake.requests.some(
        (r) => r.method === "GET" && r.path === `/pg/orders/${o.orderId}/refunds/${refund.refund_id}`,
      ),
    ).toBe(true);
    // Cashfree's REFUND_STATUS_WEBHOOK, delivered twice.
    refund.refund_status = "SUCCESS";
    const confirmation = JSON.stringify({
      data: { refund: { ...refund, status_description: "Refund processed successfully" } },
      event_time: new Date(clock.now()).toISOString(),
      type: "REFUND_STATUS_WEBHOOK",
    });
    const ch = signed(confirmation);
    expect((await webhook(confirmation, ch)).json()).toEqual({ received: true, duplicate: false });
    expect((await webhook(confirmation, ch)).json()).toEqual({ received: true, duplicate: true });
    const done = (await h.getOrder(alice.cookie, o.orderId)).body;
    expect(done.state).toBe("refunded");
    expect(done.transitions.map((x) => x.to)).toEqual([
      "created",
      "awaiting_payment",
      "expired",
      "refund_pending",
      "refunded",
    ]);
    const calls = refundCalls().length;
    await t.ctx.services.orders.hostedCheckout.runRefund(row!.id, 1);
    expect(refundCalls().length).toBe(calls);
    expect(refundsByKey.size).toBe(1);
  }, 60_000);
});
