import type { Order } from "@diginoor/api/orders";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import {
  FORGERIES,
  fanWithWallet,
  type Delivery,
  deliver,
  mintsOnChain,
  pool,
  sandboxEvent,
  shuffle,
} from "./card-orders.ts";
import { httpApi, seedStudioFilmAndStar, until } from "./commerce-helpers.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { parseMetrics, type Samples, sample, sum } from "./metrics.ts";

/**
 * Issue 11's must-shows for card orders at scale, over HTTP and a real anvil, on both engines:
 * - the webhook storm: every event of 200 orders delivered 3 to 5 times in random order, 10% of the
 *   deliveries forged — each paid order is minted exactly once, nothing forged is accepted, no order
 *   is lost;
 * - overselling: 100 buyers at once for 10 editions — exactly 10 orders, each paid one fulfilled,
 *   the others refused; editions a declined payment gives back go to the next buyers, never twice.
 */
const PUBLIC_URL = "http://localhost:3000";
const METRICS_TOKEN = "storm-metrics-token-0123456789abcdef";
const SEED = Number(process.env.STORM_SEED ?? Date.now() % 1_000_000);

let t: TestApp;
let clock: TestClock;
let secret: string;
const api = httpApi(() => t.app);
const nowSec = () => Math.floor(clock.now() / 1000);
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);
const count = async (sql: string, params: unknown[] = []) =>
  Number((await q<{ n: number }>(sql, params))[0]?.n ?? 0);

beforeAll(async () => {
  clock = createTestClock(Date.now());
  t = await createTestApp({ PUBLIC_URL, INDEXER_POLL_MS: "100", METRICS_TOKEN }, { clock, chain: true });
  secret = sandboxSecret(t.ctx.config);
  await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
  await q(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
      thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
    VALUES ('stormNft', 'Storm Edition', 'common', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 250, 250, 'fixed', 1999, NULL),
           ('lastTen', 'The Last Ten', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 10, 10, 'fixed', 4999, NULL)`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const fan = () => fanWithWallet(t);

const cardOrder = (cookie: string, nftId: string) =>
  api<Order>("POST", "/api/v1/orders", cookie, { nftId, provider: "sandbox" });

const send = (d: Pick<Delivery, "body" | "signature">) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/webhooks/sandbox",
    payload: d.body,
    headers: { "content-type": "application/json", "x-sandbox-signature": d.signature },
  });

/** What an operator's `curl -H "Authorization: Bearer …" /metrics` shows (issue 26), parsed. */
async function scrape(): Promise<Samples> {
  const res = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return parseMetrics(res.body);
}

async function ordersOf(ids: string[]) {
  return q<{ id: string; state: string; number: string; buyer_address: string }>(
    "SELECT id, state, number::text AS number, buyer_address FROM orders WHERE id = ANY($1::uuid[])",
    [ids],
  );
}

describe("card orders at scale", () => {
  it(`webhook storm (seed ${SEED}): 200 orders, each event 3-5 times in random order, 10% forged`, async () => {
    // 200 fans, one order each (a fan holds one unpaid order per NFT: decision 143), over HTTP.
    const fans = await Promise.all(Array.from({ length: 200 }, fan));
    const placed = await pool(fans, 10, async (f) => {
      const r = await cardOrder(f.cookie, "stormNft");
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return { o: r.body, fan: f };
    });
    expect(new Set(placed.map((p) => p.o.edition)).size).toBe(200);
    const paid = placed.slice(0, 180);
    const neverPaid = placed.slice(180);

    // Deliveries: each order's one event 3-5 times; 10% of the paid ones' deliveries are forged
    // (but each paid order has at least one genuine delivery); the 20 unpaid orders' are all forged.
    let r = SEED;
    const rnd = () => {
      r = (r * 1103515245 + 12345) % 2 ** 31;
      return r / 2 ** 31;
    };
    const deliveries: Delivery[] = [];
    for (const [i, { o }] of placed.entries()) {
      const body = sandboxEvent(o, "payment.succeeded", nowSec());
      const copies = 3 + Math.floor(rnd() * 3);
      for (let c = 0; c < copies; c++) {
        const forged =
          i >= 180 || (c > 0 && rnd() < 0.1)
            ? (FORGERIES[Math.floor(rnd() * FORGERIES.length)] ?? null)
            : null;
        deliveries.push(deliver(o.orderId, body, secret, nowSec(), forged));
      }
    }
    const storm = shuffle(deliveries, SEED);
    const forgedCount = storm.filter((d) => d.forged).length;
    expect(forgedCount).toBeGreaterThan(storm.length * 0.1);

    const before = await scrape();
    const started = performance.now();
    const answers = await pool(storm, 16, async (d) => (await send(d)).statusCode);
    const ms = performance.now() - started;
    console.log(
      `storm: ${storm.length} deliveries (${forgedCount} forged) answered in ${Math.round(ms)} ms (${Math.round((storm.length / ms) * 1000)}/s)`,
    );
    for (const [i, d] of storm.entries())
      expect(answers[i], d.forged ?? "genuine").toBe(d.forged ? 400 : 200);
    // One recorded event per paid order; nothing forged got in.
    expect(
      await count("SELECT count(*)::int AS n FROM payment_events WHERE order_id = ANY($1::uuid[])", [
        placed.map((p) => p.o.orderId),
      ]),
    ).toBe(180);

    // The operator's view of the storm, scraped while the orders are still being minted: every
    // delivery counted by its result (forged ones rejected), the 180 paid orders counted by state.
    const during = await scrape();
    const moved = (name: string, labels: Record<string, string>, from = before, to = during) =>
      sample(to, name, labels) - sample(from, name, labels);
    expect(moved("diginoor_webhooks_total", { provider: "sandbox", result: "rejected" })).toBe(forgedCount);
    expect(moved("diginoor_webhooks_total", { provider: "sandbox", result: "accepted" })).toBe(
      storm.length - forgedCount,
    );
    expect(sum(during, "diginoor_orders") - sum(before, "diginoor_orders")).toBe(0);
    const paidSide = ["paid", "minting", "fulfilled"].reduce(
      (n, state) => n + moved("diginoor_orders", { state }),
      0,
    );
    expect(paidSide).toBe(180);
    expect(moved("diginoor_orders", { state: "awaiting_payment" })).toBe(-180);

    const done = await until(
      "fulfilment of the 180 paid orders",
      () => ordersOf(paid.map((p) => p.o.orderId)),
      (rows) => rows.every((o) => o.state === "fulfilled"),
      240_000,
    );
    const unpaid = await ordersOf(neverPaid.map((p) => p.o.orderId));
    expect(unpaid.map((o) => o.state)).toEqual(neverPaid.map(() => "awaiting_payment"));

    // Exactly one token per paid order, in the buyer's wallet; none for the unpaid orders.
    const mints = await mintsOnChain(t.ctx.chain!.rpcUrl, t.ctx.chain!.deployment.collectible);
    const byId = new Map(placed.map((p) => [p.o.orderId, p.fan.address]));
    for (const o of done) {
      expect(mints.get(BigInt(o.number)), `mints of order ${o.id}`).toBe(1);
      expect(o.buyer_address).toBe(byId.get(o.id));
    }
    for (const o of unpaid) expect(mints.get(BigInt(o.number))).toBeUndefined();
    // After fulfilment the gauges and the job counters say the same: 180 more fulfilled orders, none
    // left paid or minting, and (at least) one completed fulfilment job per order in this process. A
    // job is counted once pg-boss has completed it, just after its order became fulfilled, so the
    // last count may lag the orders by a moment: wait for it rather than read it once.
    const after = await until(
      "the fulfilment jobs' completions counted",
      scrape,
      (m) => moved("diginoor_jobs_completed_total", { job: "orders.fulfil" }, before, m) >= 180,
      30_000,
    );
    expect(moved("diginoor_orders", { state: "fulfilled" }, before, after)).toBe(180);
    expect(sample(after, "diginoor_orders", { state: "minting" })).toBe(0);
    expect(
      moved("diginoor_jobs_completed_total", { job: "orders.fulfil" }, before, after),
    ).toBeGreaterThanOrEqual(180);
    expect(sample(after, "diginoor_jobs_dead", { job: "orders.fulfil" })).toBe(0);
    console.log(
      `metrics during the storm: webhooks accepted +${moved("diginoor_webhooks_total", { provider: "sandbox", result: "accepted" })}, rejected +${moved("diginoor_webhooks_total", { provider: "sandbox", result: "rejected" })}; orders paid/minting/fulfilled +${paidSide}; after: fulfilled +${moved("diginoor_orders", { state: "fulfilled" }, before, after)}, orders.fulfil jobs completed +${moved("diginoor_jobs_completed_total", { job: "orders.fulfil" }, before, after)}`,
    );
    // Every paid order went the one way, once; one fulfilment job each.
    const paths = await q<{ order_id: string; path: string }>(
      `SELECT order_id, string_agg(to_state, '>' ORDER BY at, id) AS path FROM order_transitions
        WHERE order_id = ANY($1::uuid[]) GROUP BY order_id`,
      [paid.map((p) => p.o.orderId)],
    );
    expect(new Set(paths.map((p) => p.path))).toEqual(new Set(["awaiting_payment>paid>minting>fulfilled"]));
    expect(
      await count(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'orders.fulfil' AND data->>'orderId' = ANY($1::text[])",
        [placed.map((p) => p.o.orderId)],
      ),
    ).toBe(180);
  }, 300_000);

  it("overselling: 100 buyers at once for 10 editions; declined editions go to later buyers, never twice", async () => {
    const fans = await Promise.all(Array.from({ length: 100 }, fan));
    const first = await Promise.all(fans.map((f) => cardOrder(f.cookie, "lastTen")));
    const won = first.filter((x) => x.status === 201);
    const refused = first.filter((x) => x.status !== 201);
    expect(won).toHaveLength(10);
    expect(new Set(refused.map((x) => x.status))).toEqual(new Set([409]));
    expect(JSON.stringify(refused[0]?.body)).toMatch(/sold out|no edition/i);
    expect(new Set(won.map((x) => x.body.edition))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(
      (await api<{ editionsAvailable: number }>("GET", "/api/v1/nfts/lastTen")).body.editionsAvailable,
    ).toBe(0);

    // Three payers decline: their editions come back, and 50 of the refused try again at once.
    const [d1, d2, d3, ...payers] = won.map((x) => x.body);
    for (const o of [d1, d2, d3] as Order[]) {
      const body = sandboxEvent(o, "payment.failed", nowSec());
      expect((await send(deliver(o.orderId, body, secret, nowSec()))).statusCode).toBe(200);
    }
    const losers = fans.filter((_, i) => first[i]?.status !== 201).slice(0, 50);
    const second = await Promise.all(losers.map((f) => cardOrder(f.cookie, "lastTen")));
    const secondWon = second.filter((x) => x.status === 201).map((x) => x.body);
    expect(secondWon).toHaveLength(3);
    expect(second.filter((x) => x.status === 409)).toHaveLength(47);

    // Everyone holding an order pays (twice, concurrently): exactly 10 tokens for 10 editions.
    const toPay = [...payers, ...secondWon];
    await Promise.all(
      toPay.flatMap((o) => {
        const body = sandboxEvent(o, "payment.succeeded", nowSec());
        return [
          send(deliver(o.orderId, body, secret, nowSec())),
          send(deliver(o.orderId, body, secret, nowSec())),
        ];
      }),
    );
    const rows = await until(
      "the ten fulfilments",
      () => ordersOf(toPay.map((o) => o.orderId)),
      (xs) => xs.every((o) => o.state === "fulfilled"),
      120_000,
    );
    expect(rows).toHaveLength(10);
    const live = await q<{ edition: number; state: string }>(
      "SELECT edition, state FROM orders WHERE nft_id = 'lastTen' ORDER BY edition",
    );
    expect(live.filter((o) => o.state === "fulfilled").map((o) => o.edition)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(live.filter((o) => o.state === "failed")).toHaveLength(3);
    expect(live).toHaveLength(13);
    const mints = await mintsOnChain(t.ctx.chain!.rpcUrl, t.ctx.chain!.deployment.collectible);
    const numbers = await q<{ number: string; state: string }>(
      "SELECT number::text AS number, state FROM orders WHERE nft_id = 'lastTen'",
    );
    for (const o of numbers)
      expect(mints.get(BigInt(o.number))).toBe(o.state === "fulfilled" ? 1 : undefined);
    // Nobody was charged without a token: every recorded payment belongs to a fulfilled order.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM payment_events e JOIN orders o ON o.id = e.order_id
          WHERE o.nft_id = 'lastTen' AND e.type = 'payment.succeeded' AND o.state <> 'fulfilled'`,
      ),
    ).toBe(0);
  }, 240_000);
});
