import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import type { Order } from "@diginoor/api/orders";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { fanWithWallet, sandboxEvent } from "./card-orders.ts";
import { httpApi, linkedBuyer, seedStudioFilmAndStar } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * Unpaid holds (issue 23 point 1, issue 28 point 2; decision 143), over HTTP on a real anvil, on
 * both engines: one unpaid order per fan per NFT however the requests interleave, caps on unpaid
 * orders per account and per wallet address, one live order per wallet quote, and cancelled orders
 * (by the buyer, or by Abandon on the provider's page) that release their edition at once and are
 * never fulfilled by a payment that still arrives.
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
    VALUES ${[nft("twoTabs", 20), nft("lastOne", 1), nft("capAAA", 5), nft("capBBB", 5), nft("capCCC", 5), nft("capDDD", 5), nft("lateOne", 5), nft("quotedNft", 5)].join(",")}`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const fan = () => fanWithWallet(t);

type Refusal = { error: { code: string; message: string; details?: Record<string, unknown> } };
const cardOrder = (cookie: string, nftId: string) =>
  api<Order & Refusal>("POST", "/api/v1/orders", cookie, { nftId, provider: "sandbox" });
const cancel = (cookie: string, orderId: string) =>
  api<Order & Refusal>("POST", `/api/v1/orders/${orderId}/cancel`, cookie);
const editions = async (nftId: string) =>
  (await api<{ editionsAvailable: number }>("GET", `/api/v1/nfts/${nftId}`)).body.editionsAvailable;

describe("unpaid holds", () => {
  it("two tabs and a double-click: simultaneous orders of one fan for one NFT give one live order", async () => {
    const f = await fan();
    const before = await editions("twoTabs");
    const answers = await Promise.all(Array.from({ length: 4 }, () => cardOrder(f.cookie, "twoTabs")));
    const made = answers.filter((a) => a.status === 201);
    expect(made, JSON.stringify(answers.map((a) => a.body))).toHaveLength(1);
    const open = made[0]!.body;
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.error.message).toMatch(/already have an unpaid order for this NFT/);
      expect(a.body.error.details).toMatchObject({ reason: "open_order", orderId: open.orderId });
    }
    const live = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM orders WHERE user_id = $1 AND nft_id = 'twoTabs'",
      [f.userId],
    );
    expect(live[0]?.n).toBe(1);
    expect(await editions("twoTabs")).toBe(before - 1);
    // Another fan is not affected; and once the first order is over, the fan may start again.
    expect((await cardOrder((await fan()).cookie, "twoTabs")).status).toBe(201);
    expect((await cancel(f.cookie, open.orderId)).status).toBe(200);
    expect((await cardOrder(f.cookie, "twoTabs")).status).toBe(201);
  });

  it("caps unpaid orders per account and per wallet address, and says the limit", async () => {
    const a = await fan();
    const held: Order[] = [];
    for (const nftId of ["capAAA", "capBBB", "capCCC"]) {
      const r = await cardOrder(a.cookie, nftId);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      held.push(r.body);
    }
    // At the limit, the same NFT again names the open order to resume, not the limit.
    const again = await cardOrder(a.cookie, "capAAA");
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({ reason: "open_order", orderId: held[0]!.orderId });
    const fourth = await cardOrder(a.cookie, "capDDD");
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.message).toBe(
      "You have 3 unpaid orders, the most an account may hold at once: pay for or cancel one of them first",
    );
    expect(fourth.body.error.details).toMatchObject({ reason: "unpaid_holds_limit", limit: 3 });
    expect(await editions("capDDD")).toBe(5);

    // The wallet address keeps its holds when another account takes it over.
    const b = await newSignedInUser(t.ctx);
    await q("UPDATE wallets SET user_id = $2 WHERE address = $1", [a.address, b.user.id]);
    const byAddress = await cardOrder(b.cookie, "capDDD");
    expect(byAddress.status).toBe(409);
    expect(byAddress.body.error.message).toBe(
      "Your receiving wallet has 3 unpaid orders, the most a wallet address may hold at once: pay for or cancel one of them first",
    );
    await q("UPDATE wallets SET user_id = $2 WHERE address = $1", [a.address, a.userId]);

    // Cancelling one frees a place at once.
    expect((await cancel(a.cookie, held[0]!.orderId)).status).toBe(200);
    expect((await cardOrder(a.cookie, "capDDD")).status).toBe(201);
  });

  it("cancel releases the edition at once: another fan buys the last edition right away", async () => {
    const alice = await fan();
    const bob = await fan();
    const o = (await cardOrder(alice.cookie, "lastOne")).body;
    expect(o.state).toBe("awaiting_payment");
    expect(await editions("lastOne")).toBe(0);
    const soldOut = await cardOrder(bob.cookie, "lastOne");
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.error.message).toBe("This NFT is sold out");

    // Only the buyer may cancel.
    expect((await cancel(bob.cookie, o.orderId)).status).toBe(404);
    const cancelled = await cancel(alice.cookie, o.orderId);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.state).toBe("cancelled");
    expect(cancelled.body.checkoutUrl).toBeNull();
    expect(cancelled.body.transitions.map((x) => [x.from, x.to])).toEqual([
      [null, "awaiting_payment"],
      ["awaiting_payment", "cancelled"],
    ]);
    expect(cancelled.body.transitions[1]?.cause).toMatch(/cancelled by the buyer/);
    expect(await editions("lastOne")).toBe(1);
    // Cancelling again answers the cancelled order; the next fan gets the edition.
    expect((await cancel(alice.cookie, o.orderId)).body.state).toBe("cancelled");
    const bobs = await cardOrder(bob.cookie, "lastOne");
    expect(bobs.status, JSON.stringify(bobs.body)).toBe(201);
    expect(bobs.body.edition).toBe(1);
    // The sandbox page of the cancelled order is closed.
    const page = await t.app.inject({
      method: "GET",
      url: `/sandbox/checkout/${o.checkoutUrl!.split("/sandbox/checkout/")[1]}`,
    });
    expect(page.body).toContain("This checkout is closed (order cancelled)");
  });

  it("Abandon on the sandbox page cancels the order and comes back to say so", async () => {
    const f = await fan();
    const before = await editions("lateOne");
    const o = (await cardOrder(f.cookie, "lateOne")).body;
    const session = o.checkoutUrl!.split("/sandbox/checkout/")[1];
    // The hosted page says how long it stays open, and warns in its last minutes.
    const page = () => t.app.inject({ method: "GET", url: `/sandbox/checkout/${session}` });
    expect((await page()).body).toContain(
      "This checkout closes in 15 minutes; the edition is held for you until then.",
    );
    const reservedUntil = new Date(Date.parse(o.reservedUntil));
    await q("UPDATE orders SET reserved_until = $2 WHERE id = $1", [
      o.orderId,
      new Date(clock.now() + 3 * 60_000),
    ]);
    expect((await page()).body).toContain(
      "This checkout closes in 3 minutes: pay now or the edition is released.",
    );
    await q("UPDATE orders SET reserved_until = $2 WHERE id = $1", [o.orderId, reservedUntil]);
    const left = await t.app.inject({ method: "POST", url: `/sandbox/checkout/${session}/abandon` });
    expect(left.statusCode).toBe(302);
    expect(left.headers.location).toBe(`${PUBLIC_URL}/paymentstatus/lateOne/${o.orderId}/cancelled`);
    const after = await api<Order>("GET", `/api/v1/orders/${o.orderId}`, f.cookie);
    expect(after.body.state).toBe("cancelled");
    expect(after.body.transitions.at(-1)?.cause).toMatch(/abandoned/);
    expect(await editions("lateOne")).toBe(before);
  });

  it("a payment confirmed for a cancelled order is refunded (decision 144), never fulfilled", async () => {
    const f = await fan();
    const o = (await cardOrder(f.cookie, "lateOne")).body;
    expect((await cancel(f.cookie, o.orderId)).body.state).toBe("cancelled");
    const body = sandboxEvent(o, "payment.succeeded", nowSec(), `evt_late_${o.orderId}`);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/webhooks/sandbox",
      payload: body,
      headers: {
        "content-type": "application/json",
        "x-sandbox-signature": signSandboxPayload(secret, body, nowSec()),
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect((await api<Order>("GET", `/api/v1/orders/${o.orderId}`, f.cookie)).body.state).toMatch(/^refund/);
    const events = await q<{ outcome: string }>(
      "SELECT outcome FROM payment_events WHERE order_id = $1 AND type = 'payment.succeeded'",
      [o.orderId],
    );
    expect(events.map((e) => e.outcome)).toEqual(["refunding: order already cancelled"]);
    const jobs = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'orders.fulfil' AND data->>'orderId' = $1",
      [o.orderId],
    );
    expect(jobs[0]?.n).toBe(0);
    // A paid order cannot be cancelled.
    const paid = (await cardOrder(f.cookie, "lateOne")).body;
    const pay = sandboxEvent(paid, "payment.succeeded", nowSec(), `evt_paid_${paid.orderId}`);
    await t.app.inject({
      method: "POST",
      url: "/api/v1/webhooks/sandbox",
      payload: pay,
      headers: {
        "content-type": "application/json",
        "x-sandbox-signature": signSandboxPayload(secret, pay, nowSec()),
      },
    });
    const refused = await cancel(f.cookie, paid.orderId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("This order can no longer be cancelled: it is paid or over");
  });

  it("one live order per wallet quote; a wallet order cannot be cancelled", async () => {
    const buyer = await linkedBuyer(t, { api, clock, publicUrl: PUBLIC_URL }, ANVIL_PRIVATE_KEYS[3] as Hex);
    const quote = (
      await api<{ quoteId: string }>("POST", "/api/v1/quotes", buyer.cookie, { nftId: "quotedNft" })
    ).body;
    const order = () =>
      api<Order & Refusal>("POST", "/api/v1/orders", buyer.cookie, {
        nftId: "quotedNft",
        provider: "wallet",
        quoteId: quote.quoteId,
      });
    const first = await order();
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const refusedCancel = await cancel(buyer.cookie, first.body.orderId);
    expect(refusedCancel.status).toBe(409);
    expect(refusedCancel.body.error.details).toMatchObject({ reason: "wallet_order" });
    // The buyer's transaction is on its way: the order is no longer unpaid, but the quote is used.
    const sent = await api("POST", `/api/v1/orders/${first.body.orderId}/transaction`, buyer.cookie, {
      txHash: `0x${"ab".repeat(32)}`,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const second = await order();
    expect(second.status).toBe(409);
    expect(second.body.error.details).toMatchObject({ reason: "quote_used" });
    expect(await editions("quotedNft")).toBe(4);
  });
});
