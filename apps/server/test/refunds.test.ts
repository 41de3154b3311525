import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import type { Order } from "@diginoor/api/orders";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { fanWithWallet, sandboxEvent } from "./card-orders.ts";
import { httpApi, seedStudioFilmAndStar, until } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { mailbox } from "./fixtures/accounts.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { ticketTraffic } from "./lottery-helpers.ts";

/**
 * Refunds with the sandbox provider (issue 24 point 1; decision 144), over HTTP on a real anvil, on
 * both engines: a payment that arrives after its order expired is refunded automatically, exactly
 * once, whatever duplicate payment and refund webhooks arrive, and its edition is not sold twice; the
 * console's Refund of a fulfilled order is audited and refused to another role; the buyer sees the
 * refund in My orders, in the bell and by mail.
 */
const PUBLIC_URL = "http://localhost:3000";

let t: TestApp;
let clock: TestClock;
let secret: string;
const api = httpApi(() => t.app);
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);
const nowSec = () => Math.floor(clock.now() / 1000);

beforeAll(async () => {
  clock = createTestClock(Date.now());
  t = await createTestApp({ PUBLIC_URL, INDEXER_POLL_MS: "100" }, { clock, chain: true });
  secret = sandboxSecret(t.ctx.config);
  await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
  const nft = (id: string, editions: number) =>
    `('${id}', '${id}', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', ${editions}, ${editions}, 'fixed', 2500, NULL)`;
  await q(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
      thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
    VALUES ${[nft("onlyOne", 1), nft("refundMe", 5)].join(",")}`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const cardOrder = (cookie: string, nftId: string) =>
  api<Order>("POST", "/api/v1/orders", cookie, { nftId, provider: "sandbox" });
const getOrder = (cookie: string, id: string) => api<Order>("GET", `/api/v1/orders/${id}`, cookie);
const webhook = (body: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/webhooks/sandbox",
    payload: body,
    headers: {
      "content-type": "application/json",
      "x-sandbox-signature": signSandboxPayload(secret, body, nowSec()),
    },
  });
const transitions = (orderId: string) =>
  q<{ from_state: string | null; to_state: string }>(
    "SELECT from_state, to_state FROM order_transitions WHERE order_id = $1 ORDER BY id",
    [orderId],
  );

describe("refunds (sandbox)", () => {
  it("a late payment for an expired order is refunded once, whatever duplicates arrive; its edition is not sold twice", async () => {
    const late = await fanWithWallet(t);
    const o = (await cardOrder(late.cookie, "onlyOne")).body;
    expect(o.state).toBe("awaiting_payment");
    // The checkout lapses unpaid: the edition goes back, and another fan buys it.
    await t.ctx.services.orders.lifecycle.move(
      { id: o.orderId, nft_id: "onlyOne", user_id: late.userId },
      ["awaiting_payment"],
      "expired",
      "test: the checkout lapsed unpaid; edition released",
    );
    const other = await fanWithWallet(t);
    const bought = (await cardOrder(other.cookie, "onlyOne")).body;
    expect(bought.edition).toBe(o.edition);
    const pay = sandboxEvent(bought, "payment.succeeded", nowSec(), `evt_buy_${bought.orderId}`);
    expect((await webhook(pay)).statusCode).toBe(200);

    // The late payment arrives, twice, and once more under another event id (a provider's retry).
    const latePay = sandboxEvent(o, "payment.succeeded", nowSec(), `evt_late_${o.orderId}`);
    const answers = await Promise.all([webhook(latePay), webhook(latePay)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().duplicate).sort()).toEqual([false, true]);
    const again = sandboxEvent(o, "payment.succeeded", nowSec(), `evt_late_again_${o.orderId}`);
    expect((await webhook(again)).statusCode).toBe(200);

    // The refund job asks the sandbox, whose refund.succeeded webhook (sent twice) confirms it.
    const done = await until(
      "late payment refunded",
      async () => (await getOrder(late.cookie, o.orderId)).body,
      (b) => b.state === "refunded",
      20_000,
    );
    expect(done.state).toBe("refunded");
    // Refund webhook copies are still arriving: wait for the duplicate, then replay the event once more.
    const refundEvents = () =>
      q<{ event_id: string; outcome: string }>(
        "SELECT event_id, outcome FROM payment_events WHERE order_id = $1 AND type = 'refund.succeeded'",
        [o.orderId],
      );
    const [confirmation] = await refundEvents();
    expect(confirmation?.outcome).toBe("applied: refunded");
    const refunds = await q<{ state: string; attempt: number; provider_refund_id: string; reason: string }>(
      "SELECT state, attempt, provider_refund_id, reason FROM order_refunds WHERE order_id = $1",
      [o.orderId],
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ state: "succeeded", attempt: 1, reason: "late_payment" });
    // The job run again (a retry after a crash) asks nothing and changes nothing.
    const [row] = await q<{ id: string }>("SELECT id FROM order_refunds WHERE order_id = $1", [o.orderId]);
    await t.ctx.services.orders.hostedCheckout.runRefund(row!.id, 1);
    expect((await transitions(o.orderId)).map((x) => `${x.from_state}>${x.to_state}`)).toEqual([
      "null>awaiting_payment",
      "awaiting_payment>expired",
      "expired>refund_pending",
      "refund_pending>refunded",
    ]);
    const outcomes = await q<{ event_id: string; outcome: string }>(
      "SELECT event_id, outcome FROM payment_events WHERE order_id = $1 AND type = 'payment.succeeded' ORDER BY length(event_id)",
      [o.orderId],
    );
    expect(outcomes).toEqual([
      { event_id: `evt_late_${o.orderId}`, outcome: "refunding: order already expired" },
      {
        event_id: `evt_late_again_${o.orderId}`,
        // The sandbox's refund may already be confirmed when this copy arrives.
        outcome: expect.stringMatching(/^ignored: order already refund(_pending|ed)$/),
      },
    ]);
    // The edition was sold once: to the other fan, whose order is not touched.
    const live = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE nft_id = 'onlyOne' AND state IN
        ('created', 'awaiting_payment', 'paid', 'minting', 'fulfilled')`,
    );
    expect(live[0]?.n).toBe(1);
    expect(
      (await api<{ editionsAvailable: number }>("GET", "/api/v1/nfts/onlyOne")).body.editionsAvailable,
    ).toBe(0);
    expect(["paid", "minting", "fulfilled"]).toContain(
      (await getOrder(other.cookie, bought.orderId)).body.state,
    );
    expect(
      await q("SELECT 1 FROM pgboss.job WHERE name = 'orders.fulfil' AND data->>'orderId' = $1", [o.orderId]),
    ).toEqual([]);
    // My orders shows it refunded; the bell and a mail say so.
    const mine = await api<{ items: Order[] }>("GET", "/api/v1/orders", late.cookie);
    expect(mine.body.items.find((x) => x.orderId === o.orderId)?.state).toBe("refunded");
    await until(
      "refund notification",
      () =>
        q<{ kind: string; text: string }>("SELECT kind, text FROM notifications WHERE user_id = $1", [
          late.userId,
        ]),
      (rows) => rows.some((r) => r.kind === "order_refunded"),
      10_000,
    );
    const email = (await q<{ email: string }>("SELECT email FROM users WHERE id = $1", [late.userId]))[0]!
      .email;
    const mail = await until(
      "refund mail",
      async () => (await mailbox(t.app)).filter((m) => m.to === email),
      (ms) => ms.some((m) => /was refunded/.test(m.subject)),
      10_000,
    );
    expect(mail.filter((m) => /was refunded/.test(m.subject))).toHaveLength(1);
  });

  it("the console's Refund of a fulfilled order is audited, refused to a studio account, and happens once", async () => {
    const fan = await fanWithWallet(t);
    const o = (await cardOrder(fan.cookie, "refundMe")).body;
    const session = o.checkoutUrl!.split("/sandbox/checkout/")[1];
    expect((await t.app.inject({ method: "POST", url: `/sandbox/checkout/${session}/pay` })).statusCode).toBe(
      302,
    );
    await until(
      "order fulfilled",
      async () => (await getOrder(fan.cookie, o.orderId)).body,
      (b) => b.state === "fulfilled",
      30_000,
    );
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const studio = await newSignedInUser(t.ctx, { role: "studio", productionHouseId: 1 });
    const url = `/api/v1/admin/orders/${o.orderId}/refund`;
    expect((await api("POST", url, studio.cookie)).status).toBe(403);
    expect((await api("POST", url, fan.cookie)).status).toBe(403);
    const [first, second] = await Promise.all([
      api<{ state: string; queued: boolean }>("POST", url, admin.cookie),
      api<{ state: string; queued: boolean }>("POST", url, admin.cookie),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect((first.status === 200 ? first : second).body).toMatchObject({
      state: "refund_pending",
      queued: true,
    });
    const audit = await q<{ action: string; actor_role: string }>(
      "SELECT action, actor_role FROM admin_audit_log WHERE subject_type = 'order' AND subject_id = $1",
      [o.orderId],
    );
    expect(audit).toEqual([{ action: "order.refund", actor_role: "admin" }]);
    await until(
      "admin refund confirmed",
      async () => (await getOrder(fan.cookie, o.orderId)).body,
      (b) => b.state === "refunded",
      20_000,
    );
    // The token stays with the buyer and keeps its edition: nobody else can buy that edition number.
    const [kept] = await q<{ tx_hash: string | null; edition: number }>(
      "SELECT tx_hash, edition FROM orders WHERE id = $1",
      [o.orderId],
    );
    expect(kept?.tx_hash).toMatch(/^0x/);
    const next = (await cardOrder((await fanWithWallet(t)).cookie, "refundMe")).body;
    expect(next.edition).not.toBe(kept?.edition);
    // Refunded orders cannot be refunded again; an unpaid one cannot be refunded at all.
    expect((await api("POST", url, admin.cookie)).status).toBe(409);
    expect((await api("POST", `/api/v1/admin/orders/${next.orderId}/refund`, admin.cookie)).status).toBe(409);
    expect((await q("SELECT 1 FROM order_refunds WHERE order_id = $1", [next.orderId])).length).toBe(0);
  });

  it("the lottery's call refunds a paid order once per reason, in the caller's transaction", async () => {
    const fan = await fanWithWallet(t);
    const o = (await cardOrder(fan.cookie, "refundMe")).body;
    const pay = sandboxEvent(o, "payment.succeeded", nowSec(), `evt_lottery_${o.orderId}`);
    expect((await webhook(pay)).statusCode).toBe(200);
    // (A ticket order is refunded paid; this NFT order is refunded once its mint is done.)
    await until(
      "order fulfilled",
      async () => (await getOrder(fan.cookie, o.orderId)).body,
      (b) => b.state === "fulfilled",
      30_000,
    );
    const orders = t.ctx.services.orders.hostedCheckout;
    const calls = await Promise.all(
      [1, 2, 3].map(() =>
        orders.requestRefund(o.orderId, "lottery_not_activated", {
          cause: "test: the lottery was not activated",
        }),
      ),
    );
    expect(calls.filter((c) => c.queued)).toHaveLength(1);
    await until(
      "lottery refund confirmed",
      async () => (await getOrder(fan.cookie, o.orderId)).body,
      (b) => b.state === "refunded",
      20_000,
    );
    const rows = await q<{ reason: string; state: string }>(
      "SELECT reason, state FROM order_refunds WHERE order_id = $1",
      [o.orderId],
    );
    expect(rows).toEqual([{ reason: "lottery_not_activated", state: "succeeded" }]);
  });

  it("the orders reconciler enqueues again a refund whose job was lost (sandbox only), and it ends refunded once", async () => {
    const fan = await fanWithWallet(t);
    const o = (await cardOrder(fan.cookie, "refundMe")).body;
    // An order left refund_pending with its refund row but no job (as if pg-boss lost it).
    await t.ctx.services.orders.lifecycle.move(
      { id: o.orderId, nft_id: "refundMe", user_id: fan.userId },
      ["awaiting_payment"],
      "expired",
      "test: the checkout lapsed unpaid",
    );
    await q("UPDATE orders SET state = 'refund_pending' WHERE id = $1", [o.orderId]);
    await q(
      `INSERT INTO order_refunds (order_id, reason, amount_minor, currency, state, created_at, updated_at)
       VALUES ($1, 'late_payment', $2, $3, 'pending', $4, $4)`,
      [o.orderId, o.payAmountMinor ?? o.usdCents, o.payCurrency ?? "usd", clock.date()],
    );
    clock.advance(6 * 60 * 1000);
    const counts = await t.ctx.services.orders.hostedCheckout.reconcilePayments();
    expect(counts.refunds).toMatchObject({ requeued: 1 });
    await until(
      "the requeued refund confirmed",
      async () => (await getOrder(fan.cookie, o.orderId)).body,
      (b) => b.state === "refunded",
      20_000,
    );
    expect(await q("SELECT state FROM order_refunds WHERE order_id = $1", [o.orderId])).toEqual([
      { state: "succeeded" },
    ]);
  });
});

describe("a refund whose provider is no longer configured", () => {
  it("does not stall a lottery's closing: each refund fails visibly, saying why, and the console's retry refunds it once the provider is back", async () => {
    const HOUR = 3600_000;
    const traffic = ticketTraffic(() => t, clock);
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const created = await api<{ id: string }>("POST", "/api/v1/admin/lotteries", admin.cookie, {
      name: "Unconfigured refunds",
      ticketPriceCents: 250,
      minTickets: 100,
      opensAt: new Date(clock.now() + 60_000).toISOString(),
      closesAt: new Date(clock.now() + HOUR).toISOString(),
      prize: { kind: "pool", amountCents: 10_000 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const lotteryId = created.body.id;
    clock.advance(2 * 60_000);
    const fan = await newSignedInUser(t.ctx);
    const paid = await traffic.paidTickets(lotteryId, 2, fan);
    expect(paid.state).toBe("fulfilled");
    // It was paid with a provider whose keys have since been removed from this server's configuration.
    await q("UPDATE orders SET provider = 'stripe' WHERE id = $1", [paid.orderId]);

    clock.advance(HOUR);
    expect((await t.ctx.services.lottery.tick()).notActivated).toBe(1);
    expect((await api<{ state: string }>("GET", `/api/v1/lotteries/${lotteryId}`)).body.state).toBe(
      "not_activated",
    );
    const failed = await until(
      "the refund failed visibly",
      async () => (await getOrder(fan.cookie, paid.orderId)).body,
      (b) => b.state === "refund_failed",
      20_000,
    );
    expect(failed.transitions.at(-1)?.cause).toMatch(/payment provider stripe is not configured/);
    const refunds = () =>
      q<{ state: string; attempt: number; detail: string | null }>(
        "SELECT state, attempt, detail FROM order_refunds WHERE order_id = $1",
        [paid.orderId],
      );
    expect(await refunds()).toEqual([
      { state: "failed", attempt: 1, detail: expect.stringMatching(/stripe is not configured/) },
    ]);

    // The console retries while it is still missing: it fails again, the same way.
    const url = `/api/v1/admin/orders/${paid.orderId}/refund`;
    expect((await api("POST", url, admin.cookie)).status).toBe(200);
    await until(
      "the retried refund failed",
      async () => (await refunds())[0],
      (r) => r?.state === "failed" && r.attempt === 2,
      20_000,
    );
    expect((await getOrder(fan.cookie, paid.orderId)).body.state).toBe("refund_failed");

    // The provider is back (here: the order's own, the sandbox); the console's retry refunds it, once.
    await q("UPDATE orders SET provider = 'sandbox' WHERE id = $1", [paid.orderId]);
    expect((await api("POST", url, admin.cookie)).status).toBe(200);
    const done = await until(
      "the refund made",
      async () => (await getOrder(fan.cookie, paid.orderId)).body,
      (b) => b.state === "refunded",
      20_000,
    );
    expect(done.transitions.map((x) => x.to).slice(-6)).toEqual([
      "refund_pending",
      "refund_failed",
      "refund_pending",
      "refund_failed",
      "refund_pending",
      "refunded",
    ]);
    expect(await refunds()).toMatchObject([{ state: "succeeded", attempt: 3 }]);
  });
});
