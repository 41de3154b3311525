import type { Order } from "@diginoor/api/orders";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { createPublicClient, createWalletClient, type Hex, http, parseEther, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { fanWithWallet, sandboxEvent } from "./card-orders.ts";
import { httpApi, seedStudioFilmAndStar, until } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * Card purchases of resale listings (issue 27 point 4; decision 165), over HTTP on a real anvil, on
 * both engines: a fan without crypto pays by (sandbox) card for another fan's listing; our buyer key
 * buys it on chain (the seller paid by the marketplace) and sends the token to the fan's wallet,
 * exactly once under duplicate webhooks, a second run of the job, and a worker that died after the
 * buy; a listing cancelled, repriced or sold to someone else before the payment refunds the order.
 */
const PUBLIC_URL = "http://localhost:3000";

let t: TestApp;
let clock: TestClock;
let secret: string;
let pc: PublicClient;
const api = httpApi(() => t.app);
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);
const nowSec = () => Math.floor(clock.now() / 1000);

beforeAll(async () => {
  clock = createTestClock(Date.now());
  t = await createTestApp({ PUBLIC_URL, INDEXER_POLL_MS: "100" }, { clock, chain: true });
  secret = sandboxSecret(t.ctx.config);
  pc = createPublicClient({ chain: foundry, transport: http(t.ctx.chain!.rpcUrl) }) as PublicClient;
  await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
  await q(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
      thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
    VALUES ('resold', 'Resold Scene', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 20, 20, 'fixed', 2500, NULL)`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

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
const getOrder = (cookie: string, id: string) => api<Order>("GET", `/api/v1/orders/${id}`, cookie);
const pay = async (o: Order, copies = 1) => {
  const body = sandboxEvent(o, "payment.succeeded", nowSec(), `evt_resale_${o.orderId}`);
  const answers = await Promise.all(Array.from({ length: copies }, () => webhook(body)));
  for (const a of answers) expect(a.statusCode).toBe(200);
};
const settled = (cookie: string, id: string, states: string[]) =>
  until(
    `order ${id} in ${states}`,
    async () => (await getOrder(cookie, id)).body,
    (b) => states.includes(b.state),
    30_000,
  );
const path = async (orderId: string) =>
  (
    await q<{ to_state: string }>("SELECT to_state FROM order_transitions WHERE order_id = $1 ORDER BY id", [
      orderId,
    ])
  ).map((r) => r.to_state);
const ownerOf = (tokenId: string) =>
  pc.readContract({
    address: t.ctx.chain!.deployment.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "ownerOf",
    args: [BigInt(tokenId)],
  });
const buyerKey = () => t.ctx.chain!.buyer!.address;
const sentBy = (address: Hex) => pc.getTransactionCount({ address });

/** A seller: anvil account `i` linked to a signed-in fan, holding a token of `resold` (bought by card) listed at `price`. */
async function sellerWithListing(i: number | Hex, price: bigint) {
  const { cookie, user } = await newSignedInUser(t.ctx);
  // An anvil account, or a fresh key (funded here) when the test needs more sellers than anvil has.
  const key = typeof i === "number" ? (ANVIL_PRIVATE_KEYS[i] as Hex) : i;
  const address = privateKeyToAccount(key).address;
  if (typeof i !== "number")
    await pc.request({
      method: "anvil_setBalance" as never,
      params: [address, "0xde0b6b3a7640000"] as never,
    });
  await q(
    "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, true, now())",
    [address, user.id, t.ctx.chain!.chainId],
  );
  const bought = (
    await api<Order>("POST", "/api/v1/orders", cookie, { nftId: "resold", provider: "sandbox" })
  ).body;
  await pay(bought);
  const o = await settled(cookie, bought.orderId, ["fulfilled"]);
  const wallet = createWalletClient({
    account: privateKeyToAccount(key),
    chain: foundry,
    transport: http(t.ctx.chain!.rpcUrl),
  });
  const marketplace = t.ctx.chain!.deployment.marketplace;
  const send = async (hash: Promise<Hex>) =>
    expect((await pc.waitForTransactionReceipt({ hash: await hash })).status).toBe("success");
  await send(
    wallet.writeContract({
      address: t.ctx.chain!.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "setApprovalForAll",
      args: [marketplace, true],
    }),
  );
  await send(
    wallet.writeContract({
      address: marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "list",
      args: [BigInt(o.tokenId), price],
    }),
  );
  const market = (functionName: "cancelListing" | "updatePrice", args: readonly unknown[]) =>
    send(
      wallet.writeContract({
        address: marketplace,
        abi: diginoorMarketplaceAbi,
        functionName,
        args,
      } as never),
    );
  return { address, tokenId: o.tokenId, cookie, userId: user.id, market };
}

const resaleOrder = (cookie: string, tokenId: string, priceWei: bigint, provider = "sandbox") =>
  api<Order & { error?: { details?: { reason?: string; priceWei?: string } } }>(
    "POST",
    "/api/v1/orders",
    cookie,
    { nftId: "resold", provider, listing: { tokenId, priceWei: priceWei.toString() } },
  );

describe("card purchases of resale listings", () => {
  it("a fan without crypto buys a listing by card: bought once by our buyer key, the token sent to their wallet, the seller paid", async () => {
    const price = parseEther("0.01");
    const seller = await sellerWithListing(2, price);
    const fan = await fanWithWallet(t);
    expect(await pc.getBalance({ address: fan.address as Hex })).toBe(0n);
    const created = await resaleOrder(fan.cookie, seller.tokenId, price);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const o = created.body;
    expect(o).toMatchObject({ kind: "resale", tokenId: seller.tokenId, priceWei: price.toString() });
    // Priced at the stored rate in what the card provider charges; nothing held on chain or in the catalogue.
    expect(o.payAmountMinor).toBeGreaterThan(0);
    expect(o.usdCents).toBeGreaterThan(0);
    const sellerBefore = await pc.getBalance({ address: seller.address as Hex });
    const buyerTxsBefore = await sentBy(buyerKey());

    await pay(o, 3); // the provider's event, delivered three times at once
    const done = await settled(fan.cookie, o.orderId, ["fulfilled", "refund_pending", "refunded"]);
    expect(done.state).toBe("fulfilled");
    expect(await ownerOf(seller.tokenId)).toBe(fan.address);
    expect(await path(o.orderId)).toEqual(["awaiting_payment", "paid", "minting", "fulfilled"]);
    // Exactly one buy and one transfer by the buyer key; the seller got the sale's proceeds on chain.
    expect((await sentBy(buyerKey())) - buyerTxsBefore).toBe(2);
    const sale = await pc.getContractEvents({
      address: t.ctx.chain!.deployment.marketplace,
      abi: diginoorMarketplaceAbi,
      eventName: "Sale",
      args: { tokenId: BigInt(seller.tokenId) },
      fromBlock: 0n,
    });
    expect(sale).toHaveLength(1);
    expect(sale[0]!.args.buyer).toBe(buyerKey());
    expect((await pc.getBalance({ address: seller.address as Hex })) - sellerBefore).toBe(
      sale[0]!.args.sellerProceeds,
    );
    expect(await pc.getBalance({ address: fan.address as Hex })).toBe(0n);

    // The job run again (a retry, a late duplicate) sends nothing.
    await t.ctx.services.orders.fulfilment.fulfilCardOrder(o.orderId);
    expect((await sentBy(buyerKey())) - buyerTxsBefore).toBe(2);
    const events = await q<{ n: number }>(
      "SELECT count(*)::int AS n FROM payment_events WHERE order_id = $1 AND outcome = 'applied'",
      [o.orderId],
    );
    expect(events[0]?.n).toBe(1);
  }, 90_000);

  it("a worker that died after the buy (or after the transfer) resumes without buying or sending twice", async () => {
    const price = parseEther("0.02");
    const seller = await sellerWithListing(3, price);
    const fan = await fanWithWallet(t);
    const o = (await resaleOrder(fan.cookie, seller.tokenId, price)).body;
    // Paid, and the job died right after its buy was mined (its hash not even recorded): what the chain
    // shows then is the listing bought by our buyer key, the order `minting`.
    await q("UPDATE orders SET state = 'minting' WHERE id = $1", [o.orderId]);
    const buyer = createWalletClient({
      account: t.ctx.chain!.buyer!,
      chain: foundry,
      transport: http(t.ctx.chain!.rpcUrl),
    });
    const boughtHash = await buyer.writeContract({
      address: t.ctx.chain!.deployment.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "buy",
      args: [BigInt(seller.tokenId), price],
      value: price,
    });
    expect((await pc.waitForTransactionReceipt({ hash: boughtHash })).status).toBe("success");
    const before = await sentBy(buyerKey());
    // Two retries at once (a job re-run by the reconciler while the old one resumes): one transfer.
    await Promise.allSettled([
      t.ctx.services.orders.fulfilment.fulfilCardOrder(o.orderId),
      t.ctx.services.orders.fulfilment.fulfilCardOrder(o.orderId),
    ]);
    await t.ctx.services.orders.fulfilment.fulfilCardOrder(o.orderId).catch(() => undefined);
    expect(await ownerOf(seller.tokenId)).toBe(fan.address);
    expect((await getOrder(fan.cookie, o.orderId)).body.state).toBe("fulfilled");
    expect((await sentBy(buyerKey())) - before).toBe(1);

    // Dead after the transfer was mined, before its hash was recorded (what a second run of the job
    // also sees while the first is between the two): the fan holds the token, sent by our key, so the
    // order is fulfilled, not refunded as a listing gone (it was, under load, before the chain was asked).
    const seller2 = await sellerWithListing(7, price);
    const fan2 = await fanWithWallet(t);
    const o2 = (await resaleOrder(fan2.cookie, seller2.tokenId, price)).body;
    await q("UPDATE orders SET state = 'minting' WHERE id = $1", [o2.orderId]);
    for (const request of [
      {
        address: t.ctx.chain!.deployment.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "buy",
        args: [BigInt(seller2.tokenId), price],
        value: price,
      },
      {
        address: t.ctx.chain!.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "safeTransferFrom",
        args: [buyerKey(), fan2.address, BigInt(seller2.tokenId)],
      },
    ]) {
      const hash = await buyer.writeContract(request as never);
      expect((await pc.waitForTransactionReceipt({ hash })).status).toBe("success");
    }
    const before2 = await sentBy(buyerKey());
    await t.ctx.services.orders.fulfilment.fulfilCardOrder(o2.orderId);
    expect((await getOrder(fan2.cookie, o2.orderId)).body.state).toBe("fulfilled");
    expect(await sentBy(buyerKey())).toBe(before2);
    expect(await q("SELECT 1 FROM order_refunds WHERE order_id = $1", [o2.orderId])).toEqual([]);
  }, 120_000);

  it("refunds the order when the listing was cancelled before the payment, and when its price changed", async () => {
    const price = parseEther("0.01");
    const cancelled = await sellerWithListing(4, price);
    const repriced = await sellerWithListing(5, price);
    const fan = await fanWithWallet(t);
    const other = await fanWithWallet(t);
    const a = (await resaleOrder(fan.cookie, cancelled.tokenId, price)).body;
    const b = (await resaleOrder(other.cookie, repriced.tokenId, price)).body;
    expect([a.state, b.state]).toEqual(["awaiting_payment", "awaiting_payment"]);
    await cancelled.market("cancelListing", [BigInt(cancelled.tokenId)]);
    await repriced.market("updatePrice", [BigInt(repriced.tokenId), price * 2n]);
    const buyerTxsBefore = await sentBy(buyerKey());
    await pay(a, 2);
    await pay(b, 2);
    for (const [cookie, o] of [
      [fan.cookie, a],
      [other.cookie, b],
    ] as const) {
      const done = await settled(cookie, o.orderId, ["refunded", "fulfilled"]);
      expect(done.state).toBe("refunded");
      expect(await path(o.orderId)).toEqual([
        "awaiting_payment",
        "paid",
        "minting",
        "refund_pending",
        "refunded",
      ]);
      const refunds = await q<{ reason: string; state: string }>(
        "SELECT reason, state FROM order_refunds WHERE order_id = $1",
        [o.orderId],
      );
      expect(refunds).toEqual([{ reason: "listing_changed", state: "succeeded" }]);
    }
    const causes = await q<{ cause: string }>(
      "SELECT cause FROM order_transitions WHERE order_id = ANY($1::uuid[]) AND to_state = 'refund_pending' ORDER BY cause",
      [[a.orderId, b.orderId]],
    );
    expect(causes.map((c) => c.cause)).toEqual([
      expect.stringMatching(/^the listing of token \d+ is no longer for sale/),
      expect.stringMatching(/^the listing's price changed from 10000000000000000 to 20000000000000000 wei/),
    ]);
    // Nothing was bought: the tokens stayed with their sellers.
    expect(await sentBy(buyerKey())).toBe(buyerTxsBefore);
    expect(await ownerOf(cancelled.tokenId)).toBe(cancelled.address);
    expect(await ownerOf(repriced.tokenId)).toBe(repriced.address);
  }, 120_000);

  it("two fans pay for one listing: the first gets the token, the second is refunded", async () => {
    const price = parseEther("0.01");
    const seller = await sellerWithListing(6, price);
    const fans = [await fanWithWallet(t), await fanWithWallet(t)];
    const orders = await Promise.all(
      fans.map(async (f) => (await resaleOrder(f.cookie, seller.tokenId, price)).body),
    );
    await Promise.all(orders.map((o) => pay(o, 2)));
    const done = await Promise.all(
      orders.map((o, i) => settled(fans[i]!.cookie, o.orderId, ["fulfilled", "refunded"])),
    );
    expect(done.map((d) => d.state).sort()).toEqual(["fulfilled", "refunded"]);
    const winner = done.findIndex((d) => d.state === "fulfilled");
    expect(await ownerOf(seller.tokenId)).toBe(fans[winner]!.address);
  }, 120_000);

  it("refuses bad resale requests with a clear 4xx and records nothing", async () => {
    const price = parseEther("0.01");
    const seller = await sellerWithListing(8, price);
    const fan = await fanWithWallet(t);
    const count = async () => (await q<{ n: number }>("SELECT count(*)::int AS n FROM orders"))[0]!.n;
    const before = await count();
    const changed = await resaleOrder(fan.cookie, seller.tokenId, price + 1n);
    expect(changed.status).toBe(409);
    expect(changed.body.error?.details).toMatchObject({
      reason: "listing_changed",
      priceWei: price.toString(),
    });
    expect((await resaleOrder(fan.cookie, "999999999", price)).status).toBe(404);
    const byWallet = await resaleOrder(fan.cookie, seller.tokenId, price, "wallet");
    expect(byWallet.status).toBe(400);
    const own = await resaleOrder(seller.cookie, seller.tokenId, price);
    expect(own.status).toBe(409);
    expect(own.body.error?.details?.reason).toBe("own_listing");
    const malformed = await api("POST", "/api/v1/orders", fan.cookie, {
      nftId: "resold",
      provider: "sandbox",
      listing: { tokenId: "1", priceWei: "-5" },
    });
    expect(malformed.status).toBe(400);
    await seller.market("cancelListing", [BigInt(seller.tokenId)]);
    const gone = await resaleOrder(fan.cookie, seller.tokenId, price);
    expect(gone.status).toBe(409);
    expect(gone.body.error?.details?.reason).toBe("listing_gone");
    expect(await count()).toBe(before);
  }, 90_000);

  it("refuses a resale to any wallet ever linked to the buyer's account, and checks it again before buying (issue 34 point 7)", async () => {
    const price = parseEther("0.01");
    const seller = await sellerWithListing(generatePrivateKey(), price);
    // The seller's account gets a second wallet that receives its purchases: the listing's wallet is still its own.
    const second = privateKeyToAccount(generatePrivateKey()).address;
    await q("UPDATE wallets SET receives_purchases = false WHERE user_id = $1", [seller.userId]);
    await q(
      "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, true, now())",
      [second, seller.userId, t.ctx.chain!.chainId],
    );
    const own = await resaleOrder(seller.cookie, seller.tokenId, price);
    expect(own.status, JSON.stringify(own.body)).toBe(409);
    expect(own.body.error?.details?.reason).toBe("own_listing");
    // Unlinked, it was still linked once: still refused.
    const unlinked = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/wallets/${seller.address}`,
      headers: { cookie: seller.cookie },
    });
    expect(unlinked.statusCode).toBe(204);
    const again = await resaleOrder(seller.cookie, seller.tokenId, price);
    expect(again.status).toBe(409);
    expect(again.body.error?.details?.reason).toBe("own_listing");

    // Another fan's order is made; before it is paid, that fan links the seller's wallet: refunded, not bought.
    const fan = await fanWithWallet(t);
    const made = await resaleOrder(fan.cookie, seller.tokenId, price);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await q(
      "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, false, now())",
      [seller.address, fan.userId, t.ctx.chain!.chainId],
    );
    const buyerTxsBefore = await sentBy(buyerKey());
    await pay(made.body);
    const done = await settled(fan.cookie, made.body.orderId, ["fulfilled", "refund_pending", "refunded"]);
    expect(done.state).toMatch(/^refund/);
    const [refund] = await q<{ reason: string }>("SELECT reason FROM order_refunds WHERE order_id = $1", [
      made.body.orderId,
    ]);
    expect(refund?.reason).toBe("own_listing");
    expect(await sentBy(buyerKey())).toBe(buyerTxsBefore);
    expect(await ownerOf(seller.tokenId)).toBe(seller.address);
  }, 90_000);

  it("never buys a hidden (voided) token: the order is refused, and a paid one is refunded (issue 34 point 7)", async () => {
    const price = parseEther("0.01");
    const seller = await sellerWithListing(generatePrivateKey(), price);
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const hide = () =>
      t.app.inject({
        method: "PUT",
        url: `/api/v1/admin/hidden-tokens/${seller.tokenId}`,
        headers: { cookie: admin.cookie },
        payload: { reason: "voided", note: "duplicate edition" },
      });
    expect((await hide()).statusCode).toBe(200);
    const fan = await fanWithWallet(t);
    const refused = await resaleOrder(fan.cookie, seller.tokenId, price);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error?.details?.reason).toBe("token_hidden");
    // Shown again, an order is made; hidden before the payment is fulfilled, it is refunded and nothing is bought.
    const shown = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/admin/hidden-tokens/${seller.tokenId}`,
      headers: { cookie: admin.cookie },
    });
    expect(shown.statusCode).toBe(204);
    const made = await resaleOrder(fan.cookie, seller.tokenId, price);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await hide()).statusCode).toBe(200);
    const buyerTxsBefore = await sentBy(buyerKey());
    await pay(made.body);
    const done = await settled(fan.cookie, made.body.orderId, ["fulfilled", "refund_pending", "refunded"]);
    expect(done.state).toMatch(/^refund/);
    const [refund] = await q<{ reason: string }>("SELECT reason FROM order_refunds WHERE order_id = $1", [
      made.body.orderId,
    ]);
    expect(refund?.reason).toBe("token_hidden");
    expect(await sentBy(buyerKey())).toBe(buyerTxsBefore);
    expect(await ownerOf(seller.tokenId)).toBe(seller.address);
  }, 90_000);
});
