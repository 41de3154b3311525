import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Order } from "@diginoor/api/orders";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { sandboxRefundId, signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { sandboxEvent } from "./card-orders.ts";
import { newSignedInUser } from "./factories.ts";
import { createFakeCashfree } from "./fake-cashfree.ts";
import { type FakeAnswer, type FakeRequest, startFakeProvider } from "./fake-provider.ts";
import { createFakeStripe } from "./fake-stripe.ts";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";
import { killAllServers, type ServerProcess, startServerProcess } from "./server-process.ts";
import { postgresPass } from "./passes.ts";

/**
 * Issue 24's refund storm: a lottery below its minimum with 30 paid ticket orders spread over the
 * sandbox, Stripe and Cashfree (the official SDKs against local servers speaking their wire formats)
 * closes, and its refunds run in a real ROLE=worker process (src/main.ts) that is SIGKILLed several
 * times meanwhile; a ROLE=api process takes the orders and every webhook, and each provider's refund
 * confirmation arrives twice. At the end every order is `refunded` exactly once: each provider made
 * one refund per order (counted at the fake servers), and each order's history has one
 * refund_pending → refunded.
 */
const SESSION_SECRET = "refund-storm-secret-refund-storm-0001";
const STRIPE_WEBHOOK_SECRET = "whsec_refund_storm_0123456789abcdef";
const CASHFREE_SECRET = "cashfree_refund_storm_secret";
const PROVIDERS = ["sandbox", "stripe", "cashfree"] as const;
const ORDERS = 30;
const KILLS = 4;
/** Stripe and Cashfree take this long to answer a refund call (so the kills land while refunds run). */
const REFUND_ANSWER_MS = 1000;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

let server: ServerDatabase;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-refund-storm-"));
const stripe = new Stripe("sk_test_helper_only");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The fake Stripe and Cashfree of their checkout tests (refunds by idempotency key, one per key, as at
 * the providers), answering a refund call only after REFUND_ANSWER_MS.
 */
const stripeFake = createFakeStripe(() => Math.floor(Date.now() / 1000));
const cashfreeFake = createFakeCashfree(() => Date.now());
const stripeSessions = stripeFake.sessions;
const stripeRefunds = stripeFake.refundsByKey;
const cashfreeRefunds = cashfreeFake.refundsByKey;
const slowRefunds =
  (answer: (r: FakeRequest) => FakeAnswer, refundPath: RegExp) =>
  async (r: FakeRequest): Promise<FakeAnswer> => {
    const a = answer(r);
    if (r.method === "POST" && refundPath.test(r.path)) await sleep(REFUND_ANSWER_MS);
    return a;
  };
const stripeAnswer = slowRefunds(stripeFake.answer, /^\/v1\/refunds$/);
const cashfreeAnswer = slowRefunds(cashfreeFake.answer, /^\/pg\/orders\/[\w-]+\/refunds$/);

const fakes = {
  stripe: undefined as unknown as Awaited<ReturnType<typeof startFakeProvider>>,
  cashfree: undefined as unknown as Awaited<ReturnType<typeof startFakeProvider>>,
};

beforeAll(async () => {
  [server, fakes.stripe, fakes.cashfree] = await Promise.all([
    createServerDatabase(),
    startFakeProvider(stripeAnswer),
    startFakeProvider(cashfreeAnswer),
  ]);
}, 60_000);
afterAll(async () => {
  killAllServers();
  await fakes.stripe?.close();
  await fakes.cashfree?.close();
  await server?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  server.database.query<T & Record<string, unknown>>(sql, params);

const start = (role: "api" | "worker", publicUrl?: string) =>
  startServerProcess(
    {
      ROLE: role,
      DATABASE_URL: server.url,
      DATA_DIR: path.join(dataDir, role),
      SESSION_SECRET,
      SEED_ON_START: "0",
      LOG_LEVEL: "warn",
      CHAIN_DISABLED: "1",
      STRIPE_SECRET_KEY: "sk_test_diginoor",
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: fakes.stripe.url,
      STRIPE_CURRENCY: "usd",
      CASHFREE_CLIENT_ID: "TEST_APP_ID",
      CASHFREE_CLIENT_SECRET: CASHFREE_SECRET,
      CASHFREE_API_BASE: fakes.cashfree.url,
      RATES_TABLE: "ETH=3000,POL=0.25,INR=84.5",
      PAYMENT_PROVIDER_TIMEOUT_MS: "2000",
      // A refund job left running by a killed worker is retried once its expiry (18 s here) passed.
      JOBS_MAINTENANCE_SECONDS: "2",
      ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
    },
    { waitReady: true },
  );

/** POSTs a webhook to the api until it answers 200 (a provider retries); its JSON answer. */
async function post(base: string, provider: string, body: string, headers: Record<string, string>) {
  for (let i = 0; ; i++) {
    const res = await fetch(`${base}/api/v1/webhooks/${provider}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }).catch(() => undefined);
    if (res?.status === 200) return (await res.json()) as { received: true; duplicate: boolean };
    if (i > 20) throw new Error(`${provider} webhook not acknowledged: ${res?.status} ${await res?.text()}`);
    await sleep(200);
  }
}

const nowSec = () => Math.floor(Date.now() / 1000);
const stripeHeaders = (body: string) => ({
  "stripe-signature": stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: STRIPE_WEBHOOK_SECRET,
    timestamp: nowSec(),
  }),
});
const cashfreeHeaders = (body: string) => {
  const timestamp = String(Date.now());
  return {
    "x-webhook-signature": createHmac("sha256", CASHFREE_SECRET)
      .update(timestamp + body)
      .digest("base64"),
    "x-webhook-timestamp": timestamp,
    "x-webhook-version": "2025-01-01",
  };
};

/** Each order's payment, as its provider reports it. */
function paymentWebhook(o: Order): { provider: string; body: string; headers: Record<string, string> } {
  if (o.provider === "stripe") {
    const session = [...stripeSessions.values()].find(
      (s) => (s.metadata as { orderId: string }).orderId === o.orderId,
    );
    const body = JSON.stringify({
      id: `evt_test_paid_${o.orderId}`,
      object: "event",
      api_version: "2025-01-27.acacia",
      created: nowSec(),
      livemode: false,
      type: "checkout.session.completed",
      data: { object: { ...session, status: "complete", payment_status: "paid" } },
    });
    return { provider: "stripe", body, headers: stripeHeaders(body) };
  }
  if (o.provider === "cashfree") {
    const amount = Number(o.payAmountMinor) / 100;
    const body = JSON.stringify({
      data: {
        order: { order_id: o.orderId, order_amount: amount, order_currency: "INR", order_tags: null },
        payment: {
          cf_payment_id: Math.floor(Math.random() * 1e12),
          payment_status: "SUCCESS",
          payment_amount: amount,
          payment_currency: "INR",
          payment_message: "Simulated response message",
          payment_time: new Date().toISOString(),
          payment_group: "upi",
        },
        customer_details: { customer_id: "x", customer_phone: "9876543210" },
      },
      event_time: new Date().toISOString(),
      type: "PAYMENT_SUCCESS_WEBHOOK",
    });
    return { provider: "cashfree", body, headers: cashfreeHeaders(body) };
  }
  const body = sandboxEvent(o, "payment.succeeded", nowSec(), `evt_paid_${o.orderId}`);
  return {
    provider: "sandbox",
    body,
    headers: { "x-sandbox-signature": signSandboxPayload(sandboxSecret({ SESSION_SECRET }), body, nowSec()) },
  };
}

/**
 * Stripe's and Cashfree's side of a refund: once a refund exists at the fake server, its confirmation
 * (refund.updated / REFUND_STATUS_WEBHOOK, one event) is delivered to the api twice. The sandbox's
 * confirmation is sent by the worker itself (its outbox, twice).
 */
function confirmRefunds(base: string) {
  const confirmed = new Map<string, boolean[]>();
  let stopped = false;
  const confirmOne = async (
    key: string,
    provider: "stripe" | "cashfree",
    refund: Record<string, unknown>,
  ) => {
    const body =
      provider === "stripe"
        ? JSON.stringify({
            id: `evt_test_refund_${refund.id}`,
            object: "event",
            api_version: "2025-01-27.acacia",
            created: nowSec(),
            livemode: false,
            type: "refund.updated",
            data: { object: { ...refund, status: "succeeded" } },
          })
        : JSON.stringify({
            data: { refund: { ...refund, refund_status: "SUCCESS" } },
            event_time: new Date().toISOString(),
            type: "REFUND_STATUS_WEBHOOK",
          });
    const headers = () => (provider === "stripe" ? stripeHeaders(body) : cashfreeHeaders(body));
    const first = await post(base, provider, body, headers());
    const second = await post(base, provider, body, headers());
    confirmed.set(key, [first.duplicate, second.duplicate]);
  };
  const loop = (async () => {
    const started = new Set<string>();
    const running: Promise<void>[] = [];
    while (!stopped) {
      for (const [provider, refunds] of [
        ["stripe", stripeRefunds],
        ["cashfree", cashfreeRefunds],
      ] as const) {
        for (const [key, refund] of refunds) {
          if (started.has(key)) continue;
          started.add(key);
          running.push(confirmOne(key, provider, refund));
        }
      }
      await sleep(100);
    }
    await Promise.all(running);
  })();
  return {
    confirmed,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

// Two processes share one database only on a PostgreSQL server: the PostgreSQL pass runs it (passes.ts).
describe.runIf(postgresPass)("lottery refunds under worker crashes", () => {
  it(`30 paid ticket orders on three providers end refunded exactly once though the worker is SIGKILLed ${KILLS} times (seed ${SEED})`, async () => {
    let r = SEED;
    const rnd = () => {
      r = (r * 1103515245 + 12345) % 2 ** 31;
      return r / 2 ** 31;
    };
    const api = await start("api");
    const admin = await newSignedInUser(server.database, { role: "admin" });
    const headers = (cookie: string) => ({ "content-type": "application/json", origin: api.base, cookie });
    const created = await fetch(`${api.base}/api/v1/admin/lotteries`, {
      method: "POST",
      headers: headers(admin.cookie),
      body: JSON.stringify({
        name: "Storm draw",
        ticketPriceCents: 250,
        minTickets: 100,
        opensAt: new Date(Date.now() - 1000).toISOString(),
        closesAt: new Date(Date.now() + 3600_000).toISOString(),
        prize: { kind: "pool", amountCents: 50_000 },
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const lottery = (await created.json()) as { id: string };

    // 30 fans, each one order of 1–3 tickets, providers in turn; every order paid (its webhook twice).
    const orders: Order[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const fan = await newSignedInUser(server.database);
      const res = await fetch(`${api.base}/api/v1/lotteries/${lottery.id}/orders`, {
        method: "POST",
        headers: headers(fan.cookie),
        body: JSON.stringify({
          count: 1 + (i % 3),
          provider: PROVIDERS[i % 3],
          region: "IN-MH",
          acceptRules: true,
          phone: "9876543210",
        }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const { orderId } = (await res.json()) as { orderId: string };
      const o = (await (
        await fetch(`${api.base}/api/v1/orders/${orderId}`, { headers: headers(fan.cookie) })
      ).json()) as Order;
      const paid = paymentWebhook(o);
      expect((await post(api.base, paid.provider, paid.body, paid.headers)).duplicate).toBe(false);
      expect((await post(api.base, paid.provider, paid.body, paid.headers)).duplicate).toBe(true);
      orders.push(o);
    }
    const ids = orders.map((o) => o.orderId);
    const states = () =>
      q<{ id: string; state: string }>("SELECT id, state FROM orders WHERE id = ANY($1::uuid[])", [ids]);
    expect(new Set((await states()).map((o) => o.state))).toEqual(new Set(["fulfilled"]));
    const sold = ORDERS + ORDERS; // counts 1, 2, 3 in turn: 10 × 6
    const before = (await (await fetch(`${api.base}/api/v1/lotteries/${lottery.id}`)).json()) as {
      ticketsSold: number;
    };
    expect(before.ticketsSold).toBe(sold);

    // Its closing time passes; a worker starts (its start-up tick closes it) and is killed while refunding.
    await q("UPDATE lotteries SET closes_at = now() - interval '1 second' WHERE id = $1", [lottery.id]);
    const confirmations = confirmRefunds(api.base);
    const refundsOpen = async () =>
      Number(
        (
          await q<{ n: number }>(
            "SELECT count(*)::int AS n FROM orders WHERE id = ANY($1::uuid[]) AND state <> 'refunded'",
            [ids],
          )
        )[0]?.n,
      );
    const openAtKill: number[] = [];
    let worker: ServerProcess = await start("worker", api.base);
    for (let k = 0; k < KILLS; k++) {
      // Wait until the lottery has closed and refunds are under way, then kill at a random moment.
      await expect
        .poll(
          async () => (await q("SELECT 1 FROM order_refunds WHERE order_id = ANY($1::uuid[])", [ids])).length,
          {
            timeout: 60_000,
            interval: 50,
          },
        )
        .toBeGreaterThan(0);
      if ((await refundsOpen()) === 0) break;
      await sleep(200 + Math.floor(rnd() * 1000));
      await worker.kill();
      openAtKill.push(await refundsOpen());
      worker = await start("worker", api.base);
    }
    console.log(
      `refund storm (seed ${SEED}): orders not yet refunded at each kill: ${openAtKill.join(", ")}`,
    );
    // The kills landed while refunds ran, or the test proves nothing.
    expect(openAtKill.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);

    const deadline = Date.now() + 90_000;
    while ((await refundsOpen()) > 0) {
      if (Date.now() > deadline)
        throw new Error(
          `not all refunded: ${JSON.stringify((await states()).filter((o) => o.state !== "refunded"))} ${worker.stderr()}`,
        );
      await sleep(200);
    }
    // Stripe's and Cashfree's second copies are delivered before counting; the sandbox's own second
    // copy died with a killed worker for some orders, so the sandbox's confirmation is sent once more
    // to each (the same signed event, as its retry would).
    await confirmations.stop();
    await worker.terminate();
    for (const o of orders.filter((x) => x.provider === "sandbox")) {
      const refundId = sandboxRefundId(`refund-${o.orderId}-lottery_not_activated-1`);
      const body = JSON.stringify({
        id: `evt_sandbox_refund_${refundId}`,
        type: "refund.succeeded",
        created: nowSec(),
        data: {
          session: o.checkoutUrl?.split("/sandbox/checkout/")[1] ?? "",
          orderId: o.orderId,
          amount: Number(o.payAmountMinor),
          currency: o.payCurrency,
          refundId,
        },
      });
      const again = await post(api.base, "sandbox", body, {
        "x-sandbox-signature": signSandboxPayload(sandboxSecret({ SESSION_SECRET }), body, nowSec()),
      });
      expect(again.duplicate, `sandbox refund of ${o.orderId} confirmed before`).toBe(true);
    }

    // The lottery did not take place; every order was refunded, each once.
    const l = (await (await fetch(`${api.base}/api/v1/lotteries/${lottery.id}`)).json()) as { state: string };
    expect(l.state).toBe("not_activated");
    expect(new Set((await states()).map((o) => o.state))).toEqual(new Set(["refunded"]));
    const paths = await q<{ order_id: string; path: string; refunded: number }>(
      `SELECT order_id, string_agg(coalesce(from_state, '') || '>' || to_state, ' ' ORDER BY at, id) AS path,
              count(*) FILTER (WHERE from_state = 'refund_pending' AND to_state = 'refunded')::int AS refunded
         FROM order_transitions WHERE order_id = ANY($1::uuid[]) GROUP BY order_id`,
      [ids],
    );
    expect(paths).toHaveLength(ORDERS);
    expect(paths.every((p) => p.refunded === 1)).toBe(true);
    // Stripe's and Cashfree's orders are `created` before their checkout opens; the sandbox's open at once.
    const after = "awaiting_payment>paid paid>fulfilled fulfilled>refund_pending refund_pending>refunded";
    expect(new Set(paths.map((p) => p.path))).toEqual(
      new Set([`>awaiting_payment ${after}`, `>created created>awaiting_payment ${after}`]),
    );
    const refunds = await q<{ order_id: string; state: string; attempt: number; reason: string }>(
      "SELECT order_id, state, attempt, reason FROM order_refunds WHERE order_id = ANY($1::uuid[])",
      [ids],
    );
    expect(refunds).toHaveLength(ORDERS);
    expect(new Set(refunds.map((x) => `${x.state} ${x.attempt} ${x.reason}`))).toEqual(
      new Set(["succeeded 1 lottery_not_activated"]),
    );

    // At each provider: one refund per order of its own, for the amount paid, under one idempotency key.
    const byProvider = (p: string) => orders.filter((o) => o.provider === p);
    const stripeRefunded = [...stripeRefunds.values()].map(
      (x) => (x.metadata as { orderId: string }).orderId,
    );
    expect(stripeRefunded.sort()).toEqual(
      byProvider("stripe")
        .map((o) => o.orderId)
        .sort(),
    );
    const cashfreeRefunded = [...cashfreeRefunds.values()].map((x) => String(x.order_id));
    expect(cashfreeRefunded.sort()).toEqual(
      byProvider("cashfree")
        .map((o) => o.orderId)
        .sort(),
    );
    for (const o of byProvider("stripe"))
      expect(stripeRefunds.get(`refund-${o.orderId}-lottery_not_activated-1`)?.amount).toBe(o.payAmountMinor);
    for (const o of byProvider("cashfree"))
      expect(cashfreeRefunds.get(`refund-${o.orderId}-lottery_not_activated-1`)?.refund_amount).toBe(
        Number(o.payAmountMinor) / 100,
      );
    const calls = (f: typeof fakes.stripe, p: RegExp) =>
      f.requests.filter((x) => x.method === "POST" && p.test(x.path)).length;
    const stripeCalls = calls(fakes.stripe, /^\/v1\/refunds$/);
    const cashfreeCalls = calls(fakes.cashfree, /\/refunds$/);
    // Each confirmation was delivered twice: the first applied, the second a duplicate.
    expect(confirmations.confirmed.size).toBe(20);
    expect(new Set([...confirmations.confirmed.values()].map((d) => d.join()))).toEqual(
      new Set(["false,true"]),
    );
    const events = await q<{
      provider: string;
      order_id: string;
      n: number;
      applied: number;
      deliveries: number;
    }>(
      `SELECT provider, order_id, count(*)::int AS n, sum(deliveries)::int AS deliveries,
              count(*) FILTER (WHERE outcome = 'applied: refunded')::int AS applied
         FROM payment_events WHERE order_id = ANY($1::uuid[])
          AND type IN ('refund.updated (succeeded)', 'REFUND_STATUS_WEBHOOK (SUCCESS)', 'refund.succeeded')
        GROUP BY provider, order_id`,
      [ids],
    );
    expect(events).toHaveLength(ORDERS);
    // One confirmation event per order (the sandbox's refund id is one per order), applied once.
    expect(events.every((e) => e.n === 1 && e.applied === 1)).toBe(true);
    const sandboxDeliveries = events.filter((e) => e.provider === "sandbox").map((e) => e.deliveries);
    expect(events.filter((e) => e.provider !== "sandbox").every((e) => e.deliveries === 2)).toBe(true);
    expect(sandboxDeliveries.every((n) => n >= 2)).toBe(true);
    console.log(
      `refund storm: refund calls Stripe ${stripeCalls} (refunds ${stripeRefunds.size}), Cashfree ${cashfreeCalls} (refunds ${cashfreeRefunds.size}); sandbox confirmations delivered ${sandboxDeliveries.join(",")} times (the last copy by the test)`,
    );
    expect(await api.terminate()).toBe(0);
  }, 300_000);
});
