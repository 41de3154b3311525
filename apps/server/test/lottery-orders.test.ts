import { randomUUID } from "node:crypto";
import type { Order, OrderList } from "@diginoor/api/orders";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock } from "../src/platform/clock.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { shuffle } from "./card-orders.ts";
import { ticketTraffic } from "./lottery-helpers.ts";

/**
 * Lottery ticket orders over HTTP (issue 24 point 4), on both engines: the server prices them and
 * checks the count, the cap, the lottery's state, the buyer's region and the rules; they go through
 * the sandbox's hosted checkout and webhooks like NFT orders, are read back at GET /api/v1/orders,
 * and a payment numbers the tickets (the next contiguous range, in payment order) with tickets sold
 * and players changed in the same transaction. Bad counts and states are a clear 4xx and record nothing.
 */
const HOUR = 3600_000;
const clock = createTestClock(Date.now());
let t: TestApp;
let admin: { cookie: string; user: { id: string } };

type Json = Record<string, unknown>;
const traffic = ticketTraffic(() => t, clock);
const { call, buy, webhook } = traffic;
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);

async function createLottery(extra: Json = {}) {
  const now = clock.now();
  const res = await call<{ id: string }>("POST", "/api/v1/admin/lotteries", admin.cookie, {
    name: `Premiere draw ${randomUUID().slice(0, 6)}`,
    ticketPriceCents: 250,
    minTickets: 10,
    maxTicketsPerUser: 20,
    opensAt: new Date(now + 60_000).toISOString(),
    closesAt: new Date(now + 3 * HOUR).toISOString(),
    prize: { kind: "pool", amountCents: 50_000 },
    rules: "One winner.",
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

beforeAll(async () => {
  t = await createTestApp({ LOTTERY_REGIONS: "IN-MH,IN-GA,GB" }, { clock });
  admin = await newSignedInUser(t.ctx, { role: "admin" });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("ticket orders", () => {
  it("are priced by the server, paid through the sandbox, numbered in payment order and read back as orders", async () => {
    const l = await createLottery();
    clock.advance(2 * 60_000); // open now
    const a = await newSignedInUser(t.ctx);
    const b = await newSignedInUser(t.ctx);
    const first = await buy(a.cookie, l.id, { count: 3 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.state).toBe("awaiting_payment");
    expect(first.body.checkoutUrl).toMatch(/\/sandbox\/checkout\//);
    const second = await buy(b.cookie, l.id, { count: 2 });
    expect(second.status).toBe(201);

    const read = await call<Order>("GET", `/api/v1/orders/${first.body.orderId}`, a.cookie);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      orderId: first.body.orderId,
      nftId: null,
      edition: null,
      lotteryId: l.id,
      ticketCount: 3,
      tickets: null,
      usdCents: 750,
      provider: "sandbox",
      state: "awaiting_payment",
    });
    expect(read.body.nftTitle).toMatch(/^3 tickets · Premiere draw/);
    const list = await call<OrderList>("GET", "/api/v1/orders", a.cookie);
    expect(list.body.items.map((o) => o.orderId)).toContain(first.body.orderId);
    // Someone else's ticket order is not theirs to read.
    expect((await call("GET", `/api/v1/orders/${first.body.orderId}`, b.cookie)).status).toBe(404);

    // B pays first, then A; each webhook twice.
    const orderB = (await call<Order>("GET", `/api/v1/orders/${second.body.orderId}`, b.cookie)).body;
    const payB = traffic.eventOf(orderB, "payment.succeeded");
    expect((await webhook(payB)).statusCode).toBe(200);
    expect((await webhook(payB)).json().duplicate).toBe(true);
    const payA = traffic.eventOf(read.body, "payment.succeeded");
    expect((await webhook(payA)).statusCode).toBe(200);
    expect((await webhook(payA)).json().duplicate).toBe(true);

    const paidA = (await call<Order>("GET", `/api/v1/orders/${first.body.orderId}`, a.cookie)).body;
    const paidB = (await call<Order>("GET", `/api/v1/orders/${second.body.orderId}`, b.cookie)).body;
    expect(paidB).toMatchObject({ state: "fulfilled", tickets: { first: 1, last: 2 } });
    expect(paidA).toMatchObject({ state: "fulfilled", tickets: { first: 3, last: 5 } });
    expect(paidA.transitions.map((x) => x.to)).toEqual(["awaiting_payment", "paid", "fulfilled"]);
    const lottery = (await call<Json>("GET", `/api/v1/lotteries/${l.id}`)).body;
    expect(lottery).toMatchObject({ ticketsSold: 5, players: 2, salesCents: 1250 });
    const mine = (
      await call<{ items: { tickets: number; ranges: unknown[] }[] }>(
        "GET",
        "/api/v1/me/lottery-tickets",
        a.cookie,
      )
    ).body;
    expect(mine.items[0]).toMatchObject({ tickets: 3, ranges: [{ first: 3, last: 5 }] });
  });

  it("refuses bad counts and states with a clear 4xx and records nothing", async () => {
    const l = await createLottery({ maxTicketsPerUser: 5 });
    const scheduled = await createLottery({
      opensAt: new Date(clock.now() + HOUR).toISOString(),
      closesAt: new Date(clock.now() + 2 * HOUR).toISOString(),
    });
    const closing = await createLottery({ closesAt: new Date(clock.now() + 10 * 60_000).toISOString() });
    clock.advance(2 * 60_000);
    const fan = await newSignedInUser(t.ctx);
    const counts = async () =>
      (
        await q<{ orders: number; transitions: number; entries: number }>(
          `SELECT (SELECT count(*)::int FROM orders) AS orders,
                  (SELECT count(*)::int FROM order_transitions) AS transitions,
                  (SELECT count(*)::int FROM lottery_entries) AS entries`,
        )
      )[0];
    const before = await counts();
    const cases: [string, string | undefined, string, Json, number, RegExp][] = [
      ["zero", fan.cookie, l.id, { count: 0 }, 400, /at least 1 ticket/],
      ["negative", fan.cookie, l.id, { count: -1 }, 400, /at least 1 ticket/],
      ["fraction", fan.cookie, l.id, { count: 1.5 }, 400, /whole number/],
      ["a string", fan.cookie, l.id, { count: "3" }, 400, /number/],
      ["10^9", fan.cookie, l.id, { count: 1e9 }, 400, /at most 100,000/],
      ["above the cap", fan.cookie, l.id, { count: 6 }, 400, /At most 5 tickets per player/],
      ["not yet open", fan.cookie, scheduled.id, { count: 1 }, 409, /not open yet/],
      [
        "outside the regions",
        fan.cookie,
        l.id,
        { count: 1, region: "IN-KA" },
        403,
        /not available in your region/,
      ],
      [
        "rules not accepted",
        fan.cookie,
        l.id,
        { count: 1, acceptRules: false },
        400,
        /rules must be accepted/,
      ],
      ["signed out", undefined, l.id, { count: 1 }, 401, /.+/],
      ["a client price", fan.cookie, l.id, { count: 1, priceCents: 1 }, 400, /priceCents/],
      ["a client total", fan.cookie, l.id, { count: 1, usdCents: 1 }, 400, /usdCents/],
      ["no such lottery", fan.cookie, randomUUID(), { count: 1 }, 404, /not found/i],
    ];
    for (const [what, cookie, id, body, status, message] of cases) {
      const res = await buy(cookie, id, body);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(JSON.stringify(res.body), what).toMatch(message);
    }
    // Closed: its closing time passed.
    clock.advance(10 * 60_000);
    const closed = await buy(fan.cookie, closing.id, { count: 1 });
    expect(closed.status).toBe(409);
    expect(JSON.stringify(closed.body)).toMatch(/This lottery is closed/);
    expect(await counts()).toEqual(before);

    // The cap counts unpaid ticket orders too: 3 + 2 pass, one more does not.
    expect((await buy(fan.cookie, l.id, { count: 3 })).status).toBe(201);
    expect((await buy(fan.cookie, l.id, { count: 2 })).status).toBe(201);
    const over = await buy(fan.cookie, l.id, { count: 1 });
    expect(over.status).toBe(400);
    expect(JSON.stringify(over.body)).toMatch(/you hold or are buying 6/);
  });

  it("200 ticket orders from 20 fans at once, webhooks 1–3 times in random order, 10% declined: counts equal the paid orders", async () => {
    const l = await createLottery({ maxTicketsPerUser: 1000, minTickets: 1 });
    clock.advance(2 * 60_000);
    const seed = 2411;
    let s = seed;
    const rnd = () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
    const fans = await Promise.all(Array.from({ length: 20 }, () => newSignedInUser(t.ctx)));
    const wanted = Array.from({ length: 200 }, (_, i) => ({
      fan: fans[i % 20] as (typeof fans)[number],
      count: 1 + Math.floor(rnd() * 10),
      declined: rnd() < 0.1,
      copies: 1 + Math.floor(rnd() * 3),
    }));
    const made = await Promise.all(wanted.map((w) => buy(w.fan.cookie, l.id, { count: w.count })));
    expect(made.map((m) => m.status)).toEqual(wanted.map(() => 201));
    const orders = await Promise.all(
      made.map((m, i) => traffic.getOrder((wanted[i] as (typeof wanted)[number]).fan.cookie, m.body.orderId)),
    );
    const deliveries = shuffle(
      orders.flatMap((o, i) => {
        const w = wanted[i] as (typeof wanted)[number];
        const body = traffic.eventOf(o, w.declined ? "payment.failed" : "payment.succeeded");
        return Array.from({ length: w.copies }, () => body);
      }),
      seed,
    );
    const answers = await Promise.all(deliveries.map((d) => webhook(d)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);

    const final = await Promise.all(
      orders.map((o, i) => traffic.getOrder((wanted[i] as (typeof wanted)[number]).fan.cookie, o.orderId)),
    );
    const paid = final.filter((o) => o.state === "fulfilled");
    expect(final.filter((o) => o.state === "failed").length).toBe(wanted.filter((w) => w.declined).length);
    expect(paid.length).toBe(wanted.filter((w) => !w.declined).length);
    const sold = paid.reduce((n, o) => n + (o.ticketCount ?? 0), 0);
    // Ticket numbers: exactly 1..sold, no gap and no duplicate, each order's range its own count.
    const ranges = paid
      .map((o) => o.tickets as { first: number; last: number })
      .sort((a, b) => a.first - b.first);
    let next = 1;
    for (const [i, r] of ranges.entries()) {
      expect(r.first, `range ${i}`).toBe(next);
      next = r.last + 1;
    }
    expect(next - 1).toBe(sold);
    for (const o of paid) expect((o.tickets?.last ?? 0) - (o.tickets?.first ?? 0) + 1).toBe(o.ticketCount);
    const payers = new Set(
      final.flatMap((o, i) =>
        o.state === "fulfilled" ? [(wanted[i] as (typeof wanted)[number]).fan.user.id] : [],
      ),
    );
    const lottery = (await call<Json>("GET", `/api/v1/lotteries/${l.id}`)).body;
    expect(lottery).toMatchObject({ ticketsSold: sold, players: payers.size, salesCents: sold * 250 });
    const [entries] = await q<{ n: number; tickets: string }>(
      "SELECT count(*)::int AS n, sum(last_ticket - first_ticket + 1)::text AS tickets FROM lottery_entries WHERE lottery_id = $1",
      [l.id],
    );
    expect(entries).toEqual({ n: paid.length, tickets: String(sold) });
  }, 120_000);
});
