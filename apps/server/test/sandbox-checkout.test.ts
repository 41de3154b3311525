import { formatInr } from "@diginoor/api/money";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import type { Order } from "@diginoor/api/orders";
import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { newSignedInUser } from "./factories.ts";
import { shuffle } from "./card-orders.ts";
import { httpApi, linkedBuyer, seedStudioFilmAndStar, until } from "./commerce-helpers.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * Card orders through the sandbox provider over HTTP and a real anvil (decision 141): the hosted
 * checkout page, signed webhooks delivered several times in any order, exactly one mint per paid
 * order by the minter key, the confirmation mail, and every forged or stale webhook refused.
 */
const PUBLIC_URL = "http://localhost:3000";
const PAYOUT = ANVIL_ADDRESSES[9];
const SHUFFLE_SEED = Number(process.env.SHUFFLE_SEED ?? Date.now() % 1_000_000);

let t: TestApp;
let clock: TestClock;
let secret: string;

beforeAll(async () => {
  clock = createTestClock(Date.now());
  t = await createTestApp({ PUBLIC_URL, INDEXER_POLL_MS: "100" }, { clock, chain: true });
  secret = sandboxSecret(t.ctx.config);
  const q = (s: string, p?: unknown[]) => t.ctx.database.query(s, p);
  await seedStudioFilmAndStar(t.ctx.database, PAYOUT);
  await q(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
      thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
    VALUES ('bossEntry', 'The Boss Entry', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 10, 10, 'fixed', 2500, NULL),
           ('bossExit', 'The Boss Exit', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 10, 10, 'fixed', 2500, NULL)`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const pc = () => createPublicClient({ transport: http(t.ctx.chain!.rpcUrl) });
const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.ctx.database.query<{ n: number }>(sql, params))[0]?.n ?? 0);

const api = httpApi(() => t.app);

const buyer = (key: Hex) => linkedBuyer(t, { api, clock, publicUrl: PUBLIC_URL }, key);

const editions = async () =>
  (await api<{ editionsAvailable: number }>("GET", "/api/v1/nfts/bossEntry")).body.editionsAvailable;
const cardOrder = (cookie: string, nftId = "bossEntry") =>
  api<Order>("POST", "/api/v1/orders", cookie, { nftId, provider: "sandbox" });
const sessionOf = (o: Order) => o.checkoutUrl!.split("/sandbox/checkout/")[1]!;
const getOrder = (cookie: string, id: string) => api<Order>("GET", `/api/v1/orders/${id}`, cookie);

/** An event as the sandbox sends it, for order `o`. */
function event(o: Order, type: "payment.succeeded" | "payment.failed", id = `evt_test_${Math.random()}`) {
  return JSON.stringify({
    id,
    type,
    created: Math.floor(clock.now() / 1000),
    data: { session: sessionOf(o), orderId: o.orderId, amount: Number(o.payAmountMinor), currency: "inr" },
  });
}
const webhook = (body: string, signature: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/webhooks/sandbox",
    payload: body,
    headers: { "content-type": "application/json", "x-sandbox-signature": signature },
  });
const now = () => Math.floor(clock.now() / 1000);

describe("sandbox card checkout", () => {
  let alice: Awaited<ReturnType<typeof buyer>>;
  let bob: Awaited<ReturnType<typeof buyer>>;

  beforeAll(async () => {
    alice = await buyer(ANVIL_PRIVATE_KEYS[1]);
    bob = await buyer(ANVIL_PRIVATE_KEYS[2]);
  });

  it("needs a linked wallet and takes the price from the catalogue, never from the client", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const noWallet = await cardOrder(cookie);
    expect(noWallet.status).toBe(409);
    expect(JSON.stringify(noWallet.body)).toContain("Please Connect Wallet to Proceed");
    const priced = await api("POST", "/api/v1/orders", alice.cookie, {
      nftId: "bossEntry",
      provider: "sandbox",
      usdCents: 1,
    });
    expect(priced.status).toBe(400);
  });

  it("pays on the hosted page: webhook sent twice, minted once to the buyer's wallet, mailed once", async () => {
    const before = await editions();
    const created = await cardOrder(alice.cookie);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const o = created.body;
    expect(o).toMatchObject({
      provider: "sandbox",
      state: "awaiting_payment",
      usdCents: 2500,
      payCurrency: "inr",
      buyerAddress: alice.account.address,
    });
    // The sandbox stands for an Indian card: it charges rupees at the stored rate, recorded on the order.
    const rate = BigInt(o.inrMicrosPerUsd!);
    expect(o.payAmountMinor).toBe(Number((2500n * rate + 500_000n) / 1_000_000n));
    expect(o.checkoutUrl).toMatch(/^http:\/\/localhost:3000\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/);
    expect(await editions()).toBe(before - 1);

    const page = await t.app.inject({ method: "GET", url: `/sandbox/checkout/${sessionOf(o)}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    // Rupees first, then dollars; the page says what it charges in and the button the rupee amount.
    const rupees = formatInr(o.payAmountMinor!);
    expect(page.body).toContain(`${rupees} · $25`);
    expect(page.body).toContain(`Pay ${rupees}`);
    expect(page.body).toContain("Charged in Indian rupees (INR)");
    expect(page.body).toContain("The Boss Entry");

    const paid = await t.app.inject({ method: "POST", url: `/sandbox/checkout/${sessionOf(o)}/pay` });
    expect(paid.statusCode).toBe(302);
    expect(paid.headers.location).toBe(`${PUBLIC_URL}/confirmation/bossEntry/${o.orderId}`);

    const done = await until(
      "fulfilment",
      async () => (await getOrder(alice.cookie, o.orderId)).body,
      (x) => x.state === "fulfilled",
      15_000,
    );
    expect(done.transitions.map((x) => x.to)).toEqual(["awaiting_payment", "paid", "minting", "fulfilled"]);
    const owner = await pc().readContract({
      address: t.ctx.chain!.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "ownerOf",
      args: [BigInt(done.tokenId)],
    });
    expect(owner).toBe(alice.account.address);
    // The late copy of the event arrives after 1.5 s and is recorded as the event's second delivery
    // (the positive signal that the duplicate was processed): still one event, applied once.
    await until(
      "the duplicate delivery",
      () => count("SELECT max(deliveries)::int AS n FROM payment_events WHERE order_id = $1", [o.orderId]),
      (n) => n === 2,
      15_000,
    );
    expect(
      await count("SELECT count(*)::int AS n FROM payment_events WHERE order_id = $1", [o.orderId]),
    ).toBe(1);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'orders.fulfil' AND data->>'orderId' = $1",
        [o.orderId],
      ),
    ).toBe(1);
    await until(
      "the confirmation mail",
      () =>
        count(
          "SELECT count(*)::int AS n FROM dev_mail WHERE to_address = $1 AND subject LIKE '%The Boss Entry%'",
          [alice.email],
        ),
      (n) => n === 1,
      15_000,
    );
    expect((await getOrder(alice.cookie, o.orderId)).body.state).toBe("fulfilled");
    // The bell says so too, once, and its notification mails nothing more: one mail per purchase.
    const bell = await api<{ items: { id: string; kind: string; link: string }[] }>(
      "GET",
      "/api/v1/notifications",
      alice.cookie,
    );
    const confirmed = bell.body.items.filter((n) => n.kind === "purchase_confirmed");
    expect(confirmed).toEqual([expect.objectContaining({ link: `/nftshowcase/${done.tokenId}` })]);
    // The notification was written with no mail of its own: no notification mail job names it (the
    // notification and its mail job are written in one transaction, so there is nothing to wait for).
    expect(
      await count(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'notifications.mail' AND data->>'notificationId' = $1",
        [confirmed[0]!.id],
      ),
    ).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM dev_mail WHERE to_address = $1", [alice.email])).toBe(
      1,
    );
  });

  it(`fulfils each card order exactly once when every webhook arrives 3 times in random order (seed ${SHUFFLE_SEED})`, async () => {
    const orders: { o: Order; cookie: string; address: string }[] = [];
    // Two NFTs each: a fan holds one unpaid order per NFT (decision 143).
    for (const [b, nftId] of [
      [alice, "bossEntry"],
      [bob, "bossEntry"],
      [alice, "bossExit"],
      [bob, "bossExit"],
    ] as const) {
      const r = await cardOrder(b.cookie, nftId);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      orders.push({ o: r.body, cookie: b.cookie, address: b.account.address });
    }
    const bodies = orders.map(({ o }) => event(o, "payment.succeeded"));
    // A seeded order (SHUFFLE_SEED replays a failure; the seed is in the failure's message).
    const deliveries = shuffle([...bodies, ...bodies, ...bodies], SHUFFLE_SEED);
    const answers = await Promise.all(
      deliveries.map((b) => webhook(b, signSandboxPayload(secret, b, now()))),
    );
    expect(
      answers.map((a) => a.statusCode),
      `seed ${SHUFFLE_SEED}`,
    ).toEqual(deliveries.map(() => 200));
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(orders.length);

    for (const { o, cookie, address } of orders) {
      const done = await until(
        `fulfilment of ${o.orderId}`,
        async () => (await getOrder(cookie, o.orderId)).body,
        (x) => x.state === "fulfilled",
      );
      expect(done.transitions.map((x) => x.to)).toEqual(["awaiting_payment", "paid", "minting", "fulfilled"]);
      const owner = await pc().readContract({
        address: t.ctx.chain!.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [BigInt(done.tokenId)],
      });
      expect(owner).toBe(address);
      expect(
        await count(
          "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'orders.fulfil' AND data->>'orderId' = $1",
          [o.orderId],
        ),
      ).toBe(1);
    }
    // One Transfer from the zero address per order: nothing was minted twice.
    const mints = await pc().getContractEvents({
      address: t.ctx.chain!.deployment.collectible,
      abi: diginoorCollectibleAbi,
      eventName: "Transfer",
      args: { from: "0x0000000000000000000000000000000000000000" },
      fromBlock: 0n,
    });
    for (const { o } of orders) {
      expect(mints.filter((e) => e.args.tokenId === BigInt(o.tokenId))).toHaveLength(1);
    }
  });

  it("refuses a tampered body, a wrong secret and an old timestamp with 400, changing nothing", async () => {
    const o = (await cardOrder(bob.cookie)).body;
    const body = event(o, "payment.succeeded");
    const eventsBefore = await count("SELECT count(*)::int AS n FROM payment_events");
    const tampered = body.replace(`"amount":${o.payAmountMinor}`, '"amount":1');
    expect(tampered).not.toBe(body);
    const cases = [
      webhook(tampered, signSandboxPayload(secret, body, now())),
      webhook(body, signSandboxPayload("not-the-secret-at-all", body, now())),
      webhook(body, signSandboxPayload(secret, body, now() - 301)),
      webhook(body, signSandboxPayload(secret, body, now() + 301)),
      webhook(body, ""),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: "bad_request" } });
    }
    expect(await count("SELECT count(*)::int AS n FROM payment_events")).toBe(eventsBefore);
    expect((await getOrder(bob.cookie, o.orderId)).body.state).toBe("awaiting_payment");
    // The genuine one still works afterwards (a refused forgery did not burn its event id).
    expect((await webhook(body, signSandboxPayload(secret, body, now()))).statusCode).toBe(200);
    await until(
      "fulfilment",
      async () => (await getOrder(bob.cookie, o.orderId)).body.state,
      (s) => s === "fulfilled",
      15_000,
    );
    // A late 'failed' for a paid order never moves it back.
    const late = event(o, "payment.failed");
    expect((await webhook(late, signSandboxPayload(secret, late, now()))).statusCode).toBe(200);
    expect((await getOrder(bob.cookie, o.orderId)).body.state).toBe("fulfilled");
  });

  it("a declined payment fails the order and gives its edition back", async () => {
    const before = await editions();
    const o = (await cardOrder(alice.cookie)).body;
    expect(await editions()).toBe(before - 1);
    const declined = await t.app.inject({ method: "POST", url: `/sandbox/checkout/${sessionOf(o)}/decline` });
    expect(declined.statusCode).toBe(302);
    await until(
      "the decline",
      async () => (await getOrder(alice.cookie, o.orderId)).body.state,
      (s) => s === "failed",
      15_000,
    );
    expect(await editions()).toBe(before);
    // A payment reported after the decline does not revive it: it is refunded (decision 144), and the
    // edition stays released.
    const late = event(o, "payment.succeeded");
    expect((await webhook(late, signSandboxPayload(secret, late, now()))).statusCode).toBe(200);
    const after = (await getOrder(alice.cookie, o.orderId)).body;
    expect(after.state).toMatch(/^(refund_pending|refunded)$/);
    expect(after.transitions.map((x) => x.to)).not.toContain("paid");
    expect(await editions()).toBe(before);
  });

  it("an abandoned checkout is cancelled at once; one left open holds the edition until it lapses", async () => {
    const before = await editions();
    const o = (await cardOrder(bob.cookie)).body;
    // Abandon (issue 28): the order is cancelled and the edition released now, not when it lapses.
    const left = await t.app.inject({ method: "POST", url: `/sandbox/checkout/${sessionOf(o)}/abandon` });
    expect(left.statusCode).toBe(302);
    expect(left.headers.location).toBe(`${PUBLIC_URL}/paymentstatus/bossEntry/${o.orderId}/cancelled`);
    expect((await getOrder(bob.cookie, o.orderId)).body.state).toBe("cancelled");
    expect(await editions()).toBe(before);

    const open = (await cardOrder(bob.cookie)).body;
    // The sandbox's checkout is open 15 minutes (decision 143).
    expect(Date.parse(open.reservedUntil) - clock.now()).toBe(15 * 60 * 1000);
    expect(await editions()).toBe(before - 1);
    clock.advance(16 * 60 * 1000);
    await t.ctx.services.orders.lifecycle.reconcileOrders();
    expect((await getOrder(bob.cookie, open.orderId)).body.state).toBe("expired");
    expect(await editions()).toBe(before);
  });

  it("another user's order is 404, and an unknown checkout session too", async () => {
    const o = (await cardOrder(alice.cookie)).body;
    expect((await getOrder(bob.cookie, o.orderId)).status).toBe(404);
    const page = await t.app.inject({ method: "GET", url: `/sandbox/checkout/cs_sandbox_${"0".repeat(24)}` });
    expect(page.statusCode).toBe(404);
  });
});
