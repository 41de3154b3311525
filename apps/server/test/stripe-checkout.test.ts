import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import type { CheckoutOptions, Order } from "@diginoor/api/orders";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { until } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { createFakeStripe, STRIPE_WEBHOOK_SECRET, stripeEnv, stripeWebhook } from "./fake-stripe.ts";
import { stripeProvider } from "../src/modules/orders/providers/stripe.ts";
import {
  checkoutRequest,
  type HostedCheckoutApp,
  PUBLIC_URL,
  startHostedCheckoutApp,
} from "./hosted-checkout-helpers.ts";

/**
 * Stripe card checkout (decision 142) against a local server answering in Stripe's wire format:
 * the Checkout Session we create (idempotency key, cents, currency, metadata), webhooks signed by
 * Stripe's own helper (generateTestHeaderString) and verified by constructEvent, forged or stale
 * ones refused, a paid order minted once on anvil, a failing provider leaving nothing held, and
 * reconciliation of a lost webhook.
 */
let h: HostedCheckoutApp;
let t: HostedCheckoutApp["t"];
let clock: HostedCheckoutApp["clock"];
let fake: HostedCheckoutApp["fake"];
const now = () => Math.floor(clock.now() / 1000);
const stripeFake = createFakeStripe(now);
const { state, sessions, refundsByKey, event, sign } = stripeFake;

beforeAll(async () => {
  // This account charges dollars; rupees (the default) are checked against the SDK below.
  h = await startHostedCheckoutApp(stripeFake.answer, (url) => stripeEnv(url, "usd"));
  ({ t, clock, fake } = h);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  state.mode = "ok";
});

const stripeOrder = (cookie: string) =>
  h.api<Order>("POST", "/api/v1/orders", cookie, { nftId: "bossEntry", provider: "stripe" });
const webhook = (body: string, signature: string) => stripeWebhook(t.app, body, signature);

describe("Stripe checkout", () => {
  let alice: Awaited<ReturnType<HostedCheckoutApp["buyer"]>>;

  beforeAll(async () => {
    alice = await h.buyer(ANVIL_PRIVATE_KEYS[1]);
  });
  afterEach(() => h.lapseUnpaid());

  it("offers Stripe as the card provider, and no secret reaches the browser", async () => {
    const res = await h.api<CheckoutOptions>("GET", "/api/v1/checkout/options");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ card: "stripe", cardCurrency: "usd", rupees: null, onrampUrl: null });
    expect(res.body.providers).toEqual(expect.arrayContaining(["stripe", "sandbox"]));
    expect(JSON.stringify(res.body)).not.toMatch(/sk_test|whsec/);
    const cashfree = await h.api("POST", "/api/v1/orders", alice.cookie, {
      nftId: "bossEntry",
      provider: "cashfree",
    });
    expect(cashfree.status).toBe(400);
  });

  it("creates a Checkout Session in USD cents with the order id as idempotency key and metadata", async () => {
    const before = await h.editions();
    const res = await stripeOrder(alice.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const o = res.body;
    expect(o).toMatchObject({
      provider: "stripe",
      state: "awaiting_payment",
      usdCents: 2500,
      payCurrency: "usd",
      payAmountMinor: 2500,
    });
    expect(o.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(await h.editions()).toBe(before - 1);

    const sent = fake.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.headers["idempotency-key"]).toBe(`order-${o.orderId}`);
    expect(sent.headers.authorization).toBe("Bearer sk_test_diginoor");
    const form = new URLSearchParams(sent.body);
    expect(Object.fromEntries(form)).toMatchObject({
      mode: "payment",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "2500",
      client_reference_id: o.orderId,
      "metadata[orderId]": o.orderId,
      success_url: `${PUBLIC_URL}/paymentstatus/bossEntry/${o.orderId}/return`,
      cancel_url: `${PUBLIC_URL}/paymentstatus/bossEntry/${o.orderId}/cancelled`,
    });
    expect(form.get("customer_email")).toBe(alice.email);
    // The session ends before the reservation of the edition does, and no sooner than Stripe accepts:
    // Stripe refuses an expires_at less than 30 minutes ahead (decision 143).
    const expiresAt = Number(form.get("expires_at")) * 1000;
    expect(expiresAt).toBeLessThan(Date.parse(o.reservedUntil));
    expect(expiresAt - Date.parse(o.createdAt)).toBeGreaterThanOrEqual(30 * 60_000);
    expect(Date.parse(o.reservedUntil) - Date.parse(o.createdAt)).toBeLessThanOrEqual(32 * 60_000);
  });

  it("refuses a currency Stripe is not set up for (rupees) without calling it", async () => {
    const before = fake.requests.length;
    const p = await stripeProvider({
      secretKey: "sk_test_x",
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      apiBase: fake.url,
      timeoutMs: 800,
    });
    await expect(p.createCheckout(checkoutRequest("inr"))).rejects.toMatchObject({ status: 502 });
    expect(fake.requests.length).toBe(before);
  });

  it("charges rupees in paise when STRIPE_CURRENCY is inr (the default), and refuses dollars then", async () => {
    const p = await stripeProvider({
      secretKey: "sk_test_x",
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      apiBase: fake.url,
      timeoutMs: 800,
    });
    expect(p.currency).toBe("usd");
    const inr = await stripeProvider({
      secretKey: "sk_test_x",
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      apiBase: fake.url,
      timeoutMs: 800,
      currency: "inr",
    });
    expect(inr.currency).toBe("inr");
    const before = fake.requests.length;
    await expect(inr.createCheckout(checkoutRequest("usd"))).rejects.toMatchObject({ status: 502 });
    expect(fake.requests.length).toBe(before);
    const req = checkoutRequest("inr");
    await inr.createCheckout(req);
    const form = new URLSearchParams(fake.requests.at(-1)!.body);
    expect(form.get("line_items[0][price_data][currency]")).toBe("inr");
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe(String(req.amountMinor));
  });

  it("refuses a tampered body, a wrong secret and an old or future timestamp with 400, changing nothing", async () => {
    const o = (await stripeOrder(alice.cookie)).body;
    const body = event(o, "checkout.session.completed");
    const tampered = body.replace('"amount_total":2500', '"amount_total":1');
    expect(tampered).not.toBe(body);
    const answers = [
      await webhook(tampered, sign(body)),
      await webhook(body, sign(body, { secret: "whsec_wrong_secret_0123456789" })),
      await webhook(body, sign(body, { timestamp: now() - 10 * 60 })),
      await webhook(body, "t=1,v1=deadbeef"),
      await webhook(body, ""),
      await webhook(body, sign(body, { timestamp: now() + 10 * 60 })),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(answers[2]!.json().error.message).toContain("replay window");
    expect(answers[5]!.json().error.message).toContain("replay window");
    expect(await h.count("SELECT count(*)::int AS n FROM payment_events WHERE provider = 'stripe'")).toBe(0);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
  });

  it("never pays an order for another currency or amount (the event is recorded and ignored)", async () => {
    const o = (await stripeOrder(alice.cookie)).body;
    for (const over of [{ currency: "eur" }, { amount_total: 100 }]) {
      const body = event(o, "checkout.session.completed", over);
      const res = await webhook(body, sign(body));
      expect(res.statusCode).toBe(200);
    }
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
    const outcomes = await t.ctx.database.query<{ outcome: string }>(
      "SELECT outcome FROM payment_events WHERE order_id = $1",
      [o.orderId],
    );
    expect(outcomes.map((r) => r.outcome)).toEqual([
      "ignored: amount or currency differ from the order",
      "ignored: amount or currency differ from the order",
    ]);
  });

  it("acknowledges an authentic event about a session that is not ours (200, recorded as ignored)", async () => {
    // A payment link or another integration on the same Stripe account: no order in the metadata.
    const id = `evt_test_foreign_${Math.random().toString(36).slice(2)}`;
    const body = JSON.stringify({
      id,
      object: "event",
      api_version: "2025-01-27.acacia",
      created: now(),
      livemode: false,
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_payment_link",
          object: "checkout.session",
          status: "complete",
          payment_status: "paid",
          amount_total: 2500,
          currency: "usd",
          client_reference_id: null,
          metadata: {},
        },
      },
    });
    const res = await webhook(body, sign(body));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    const rows = await t.ctx.database.query<{ outcome: string; order_id: string | null }>(
      "SELECT outcome, order_id FROM payment_events WHERE provider = 'stripe' AND event_id = $1",
      [id],
    );
    expect(rows).toEqual([{ outcome: "ignored: no such checkout session", order_id: null }]);
  });

  it("fulfils a paid session from the webhook once: minted on anvil to the buyer's wallet", async () => {
    const o = (await stripeOrder(alice.cookie)).body;
    const body = event(o, "checkout.session.completed");
    const first = await webhook(body, sign(body));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const again = await webhook(body, sign(body));
    expect(again.json()).toEqual({ received: true, duplicate: true });
    const done = await until(
      "fulfilment",
      async () => (await h.getOrder(alice.cookie, o.orderId)).body,
      (x) => x.state === "fulfilled",
      20_000,
    );
    expect(done.transitions.map((x) => x.to)).toEqual([
      "created",
      "awaiting_payment",
      "paid",
      "minting",
      "fulfilled",
    ]);
    expect(await h.ownerOf(done.tokenId)).toBe(alice.account.address);
    // A late 'expired' for the same session never moves a paid order back.
    const late = event(o, "checkout.session.expired");
    expect((await webhook(late, sign(late))).statusCode).toBe(200);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("fulfilled");
  });

  it("an expired or failed session fails the order and releases its edition", async () => {
    const before = await h.editions();
    const o = (await stripeOrder(alice.cookie)).body;
    expect(await h.editions()).toBe(before - 1);
    const body = event(o, "checkout.session.expired");
    expect((await webhook(body, sign(body))).statusCode).toBe(200);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("failed");
    expect(await h.editions()).toBe(before);
  });

  it("a Stripe answering 500 or timing out: 503, and no order keeps an edition", async () => {
    const before = await h.editions();
    for (const m of ["500", "hang"] as const) {
      state.mode = m;
      const res = await stripeOrder(alice.cookie);
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(JSON.stringify(res.body)).toContain("nothing was charged");
    }
    state.mode = "ok";
    expect(await h.editions()).toBe(before);
    const orders = (await h.api<{ items: Order[] }>("GET", "/api/v1/orders", alice.cookie)).body.items;
    expect(orders.slice(0, 2).map((x) => x.state)).toEqual(["failed", "failed"]);
  }, 30_000);

  it("the buyer cancels: Stripe is asked first, its session expired, the edition released; a paid one is applied", async () => {
    const sessionOf = (o: Order) =>
      [...sessions.values()].find((x) => (x.metadata as { orderId: string }).orderId === o.orderId)!;
    const before = await h.editions();
    const o = (await stripeOrder(alice.cookie)).body;
    expect(await h.editions()).toBe(before - 1);
    const cancelled = await h.api<Order>("POST", `/api/v1/orders/${o.orderId}/cancel`, alice.cookie);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.state).toBe("cancelled");
    const session = sessionOf(o);
    expect(session.status).toBe("expired");
    const paths = fake.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain(`GET /v1/checkout/sessions/${session.id}`);
    expect(paths).toContain(`POST /v1/checkout/sessions/${session.id}/expire`);
    expect(await h.editions()).toBe(before);

    // The fan paid, came back by the cancel link, and the webhook is not here yet: the payment wins.
    const paid = (await stripeOrder(alice.cookie)).body;
    Object.assign(sessionOf(paid), { status: "complete", payment_status: "paid" });
    const answer = await h.api<Order>("POST", `/api/v1/orders/${paid.orderId}/cancel`, alice.cookie);
    expect(answer.status).toBe(200);
    expect(["paid", "minting", "fulfilled"]).toContain(answer.body.state);
    expect(await h.editions()).toBe(before - 1);
    expect(
      await h.count(
        "SELECT count(*)::int AS n FROM payment_events WHERE order_id = $1 AND outcome = 'applied'",
        [paid.orderId],
      ),
    ).toBe(1);
  });

  it("reconciles a lost webhook: asks Stripe, applies a paid answer once; a failing Stripe changes nothing", async () => {
    const o = (await stripeOrder(alice.cookie)).body;
    const session = [...sessions.values()].find(
      (s) => (s.metadata as { orderId: string }).orderId === o.orderId,
    )!;
    const orders = t.ctx.services.orders.hostedCheckout;
    // Too young to ask about.
    expect((await orders.reconcilePayments()).asked).toBe(0);
    clock.advance(4 * 60 * 1000);
    // Stripe down: the order stays as it is.
    state.mode = "500";
    const down = await orders.reconcilePayments();
    expect(down.failed).toBeGreaterThanOrEqual(1);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("awaiting_payment");
    // Stripe back, the payment made, the webhook lost.
    state.mode = "ok";
    session.status = "complete";
    session.payment_status = "paid";
    await orders.reconcilePayments();
    await orders.reconcilePayments();
    const done = await until(
      "fulfilment after reconciliation",
      async () => (await h.getOrder(alice.cookie, o.orderId)).body,
      (x) => x.state === "fulfilled",
      20_000,
    );
    expect(done.transitions.find((x) => x.to === "paid")?.cause).toContain("reconcile:");
    expect(
      await h.count("SELECT count(*)::int AS n FROM payment_events WHERE order_id = $1", [o.orderId]),
    ).toBe(1);
    expect(
      fake.requests.some((r) => r.method === "GET" && r.path === `/v1/checkout/sessions/${session.id}`),
    ).toBe(true);
  }, 40_000);

  it("refunds a late payment through the SDK: one refund per idempotency key however often the job runs, refund webhooks applied once", async () => {
    const o = (await stripeOrder(alice.cookie)).body;
    const session = [...sessions.values()].find(
      (s) => (s.metadata as { orderId: string }).orderId === o.orderId,
    )!;
    await h.lapseUnpaid();
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("expired");
    // Stripe processes the refund but its answers are lost (the worker dies waiting, as far as we know).
    state.refundMode = "lost";
    const paid = event(o, "checkout.session.completed");
    const sig = sign(paid);
    expect((await webhook(paid, sig)).statusCode).toBe(200);
    expect((await webhook(paid, sig)).json()).toEqual({ received: true, duplicate: true });
    const key = `refund-${o.orderId}-late_payment-1`;
    const refundCalls = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds");
    // The SDK's own retry, then the job's retry (pg-boss, same key), all name the same refund.
    await until(
      "the refund job retried",
      async () => refundCalls().length,
      (n) => n >= 3,
      30_000,
    );
    state.refundMode = "ok";
    await until(
      "the refund requested",
      async () =>
        (
          await t.ctx.database.query<{ state: string }>(
            "SELECT state FROM order_refunds WHERE order_id = $1",
            [o.orderId],
          )
        )[0]?.state,
      (st) => st === "requested",
      30_000,
    );
    expect(new Set(refundCalls().map((r) => r.headers["idempotency-key"]))).toEqual(new Set([key]));
    expect(refundsByKey.size).toBe(1);
    const refund = refundsByKey.get(key)!;
    expect(refund).toMatchObject({ amount: 2500, payment_intent: session.payment_intent });
    expect((refund.metadata as { orderId: string }).orderId).toBe(o.orderId);
    expect((await h.getOrder(alice.cookie, o.orderId)).body.state).toBe("refund_pending");
    // Stripe's confirmations: refund.updated twice (one event), then charge.refunded.
    const updated = JSON.stringify({
      id: `evt_test_refund_${o.orderId}`,
      object: "event",
      api_version: "2025-01-27.acacia",
      created: now(),
      livemode: false,
      type: "refund.updated",
      data: { object: { ...refund, status: "succeeded" } },
    });
    const charge = JSON.stringify({
      id: `evt_test_charge_${o.orderId}`,
      object: "event",
      api_version: "2025-01-27.acacia",
      created: now(),
      livemode: false,
      type: "charge.refunded",
      data: {
        object: {
          id: "ch_test_1",
          object: "charge",
          amount: 2500,
          amount_refunded: 2500,
          refunded: true,
          currency: "usd",
          payment_intent: session.payment_intent,
          metadata: {},
        },
      },
    });
    const answers = [];
    for (const body of [updated, updated, charge]) answers.push((await webhook(body, sign(body))).json());
    expect(answers.map((a) => a.duplicate)).toEqual([false, true, false]);
    const done = (await h.getOrder(alice.cookie, o.orderId)).body;
    expect(done.state).toBe("refunded");
    expect(done.transitions.map((x) => x.to)).toEqual([
      "created",
      "awaiting_payment",
      "expired",
      "refund_pending",
      "refunded",
    ]);
    // The job run once more (a retry after a crash) asks Stripe nothing.
    const calls = refundCalls().length;
    const [row] = await t.ctx.database.query<{ id: string }>(
      "SELECT id FROM order_refunds WHERE order_id = $1",
      [o.orderId],
    );
    await t.ctx.services.orders.hostedCheckout.runRefund(row!.id, 1);
    expect(refundCalls().length).toBe(calls);
    expect(refundsByKey.size).toBe(1);
  }, 60_000);

  it("a refund Stripe refuses ends refund_failed; the console's retry is a new attempt with a new key", async () => {
    const o = (await stripeOrder(alice.cookie)).body;
    await h.lapseUnpaid();
    state.refundMode = "refuse";
    const paid = event(o, "checkout.session.completed");
    expect((await webhook(paid, sign(paid))).statusCode).toBe(200);
    const failed = await until(
      "the refund refused",
      async () => (await h.getOrder(alice.cookie, o.orderId)).body,
      (x) => x.state === "refund_failed",
      20_000,
    );
    expect(failed.transitions.at(-1)?.cause).toMatch(/failed at stripe .*refused/);
    state.refundMode = "ok";
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const studio = await newSignedInUser(t.ctx, { role: "studio", productionHouseId: 1 });
    const url = `/api/v1/admin/orders/${o.orderId}/refund`;
    expect((await h.api("POST", url, studio.cookie)).status).toBe(403);
    const retried = await h.api<{ state: string; queued: boolean }>("POST", url, admin.cookie);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ state: "refund_pending", queued: true });
    const key = `refund-${o.orderId}-late_payment-2`;
    await until(
      "the retried refund requested",
      async () => refundsByKey.has(key),
      (x) => x,
      20_000,
    );
    const refund = refundsByKey.get(key)!;
    const updated = JSON.stringify({
      id: `evt_test_refund_retry_${o.orderId}`,
      object: "event",
      api_version: "2025-01-27.acacia",
      created: now(),
      livemode: false,
      type: "refund.updated",
      data: { object: { ...refund, status: "succeeded" } },
    });
    expect((await webhook(updated, sign(updated))).statusCode).toBe(200);
    const done = (await h.getOrder(alice.cookie, o.orderId)).body;
    expect(done.state).toBe("refunded");
    expect(done.transitions.map((x) => x.to).slice(2)).toEqual([
      "expired",
      "refund_pending",
      "refund_failed",
      "refund_pending",
      "refunded",
    ]);
    const keys = fake.requests
      .filter((r) => r.method === "POST" && r.path === "/v1/refunds")
      .map((r) => r.headers["idempotency-key"])
      .filter((k) => String(k).startsWith(`refund-${o.orderId}`));
    expect(new Set(keys)).toEqual(new Set([`refund-${o.orderId}-late_payment-1`, key]));
    const audit = await t.ctx.database.query<{ action: string }>(
      "SELECT action FROM admin_audit_log WHERE subject_type = 'order' AND subject_id = $1",
      [o.orderId],
    );
    expect(audit).toEqual([{ action: "order.refund" }]);
  }, 60_000);
});
