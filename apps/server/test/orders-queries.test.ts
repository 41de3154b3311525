import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newNft, newSignedInUser, newUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * Issue 21: listing orders costs a constant number of queries. 100 orders (over 10 NFTs, each with a
 * history of two moves) are listed for the studio console and for their owner while every query of
 * the database handle the services share is counted.
 */
let t: TestApp;
let buyerId: string;

beforeAll(async () => {
  t = await createTestApp();
  const buyer = await newUser(t.ctx);
  buyerId = buyer.id;
  const q = <T = Record<string, unknown>>(s: string, p?: unknown[]) => t.ctx.database.query<T>(s, p);
  const nfts: string[] = [];
  for (let i = 0; i < 10; i++) nfts.push(await newNft(t.ctx, { editionSize: 10 }));
  const now = new Date();
  for (let i = 0; i < 100; i++) {
    const [o] = await q<{ id: string }>(
      `INSERT INTO orders (user_id, nft_id, provider, state, edition, usd_cents, reserved_until, created_at, updated_at,
                           provider_session, pay_currency, pay_amount_minor)
       VALUES ($1, $2, 'stripe', 'expired', $3, 2500, $4, $4, $4, $5, 'usd', 2500) RETURNING id`,
      [buyerId, nfts[i % 10], Math.floor(i / 10) + 1, now, `cs_${i}`],
    );
    await q(
      `INSERT INTO order_transitions (order_id, from_state, to_state, cause, at)
       VALUES ($1, NULL, 'created', 'made', $2), ($1, 'created', 'expired', 'not paid', $2)`,
      [o!.id, now],
    );
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** Runs `fn` and counts the queries sent through the shared database handle meanwhile. */
async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const database = t.ctx.database;
  const original = database.query;
  let queries = 0;
  database.query = ((text, params, opts) => {
    queries++;
    return original.call(database, text, params, opts);
  }) as typeof original;
  try {
    return { result: await fn(), queries };
  } finally {
    database.query = original;
  }
}

describe("listing orders", () => {
  it("the console's list of 100 orders, with their histories and NFTs, takes at most 5 queries", async () => {
    const { result, queries } = await countQueries(() => t.ctx.services.orders.lifecycle.adminOrders());
    expect(result.items).toHaveLength(100);
    expect(result.items.every((o) => o.transitions.length === 2 && o.nftTitle.startsWith("Title "))).toBe(
      true,
    );
    expect(result.items[0]?.userId).toBe(buyerId);
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBeLessThanOrEqual(5);
  });

  it("a buyer's list of 100 orders takes at most 5 queries", async () => {
    const { result, queries } = await countQueries(() => t.ctx.services.orders.lifecycle.listOrders(buyerId));
    expect(result.items).toHaveLength(100);
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBeLessThanOrEqual(5);
  });

  it("the console's list over HTTP returns the same 100 orders", async () => {
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/admin/orders",
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { items: unknown[] }).items).toHaveLength(100);
  });
});
