import type { Order } from "@diginoor/api/orders";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { createPublicClient, type Hex, http } from "viem";
import type { CheckoutRequest } from "../src/modules/orders/providers/types.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { httpApi, linkedBuyer, seedStudioFilmAndStar } from "./commerce-helpers.ts";
import { type FakeAnswer, type FakeRequest, startFakeProvider } from "./fake-provider.ts";
import { createTestApp } from "./harness.ts";

/**
 * The app the Stripe and Cashfree tests share (decision 142): a fresh server on anvil with `env`
 * (the provider's settings), one fixed-price NFT `bossEntry` at US$25.00 with 10 editions, and the
 * reads those tests make.
 */
export const PUBLIC_URL = "http://localhost:3000";

export async function startHostedCheckoutApp(
  answer: (r: FakeRequest) => FakeAnswer,
  envOf: (providerUrl: string) => Record<string, string>,
) {
  const fake = await startFakeProvider(answer);
  const env = envOf(fake.url);
  const clock = createTestClock(Date.now());
  const t = await createTestApp(
    { PUBLIC_URL, INDEXER_POLL_MS: "100", PAYMENT_PROVIDER_TIMEOUT_MS: "800", ...env },
    { clock, chain: true },
  );
  await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
  await t.ctx.database.query(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
      thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
    VALUES ('bossEntry', 'The Boss Entry', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 10, 10, 'fixed', 2500, NULL)`);
  const api = httpApi(() => t.app);
  return {
    t,
    clock,
    fake,
    api,
    async close() {
      await t.close();
      await fake.close();
    },
    buyer: (key: Hex) => linkedBuyer(t, { api, clock, publicUrl: PUBLIC_URL }, key),
    count: async (sql: string, params: unknown[] = []) =>
      Number((await t.ctx.database.query<{ n: number }>(sql, params))[0]?.n ?? 0),
    editions: async () =>
      (await api<{ editionsAvailable: number }>("GET", "/api/v1/nfts/bossEntry")).body.editionsAvailable,
    /**
     * Ends the unpaid orders a test left (as if their checkouts lapsed, editions returned): a fan holds
     * one unpaid order per NFT (decision 143), and each test here starts a new purchase of `bossEntry`.
     */
    async lapseUnpaid() {
      const open = await t.ctx.database.query<{ id: string; nft_id: string; user_id: string }>(
        "SELECT id, nft_id, user_id FROM orders WHERE state IN ('created', 'awaiting_payment')",
      );
      for (const o of open)
        await t.ctx.services.orders.lifecycle.move(
          o,
          ["created", "awaiting_payment"],
          "expired",
          "test: the previous test's checkout lapsed",
        );
    },
    getOrder: (cookie: string, id: string) => api<Order>("GET", `/api/v1/orders/${id}`, cookie),
    order: (cookie: string, body: Record<string, unknown>) =>
      api<Order>("POST", "/api/v1/orders", cookie, { nftId: "bossEntry", ...body }),
    /** The owner of a token on anvil. */
    ownerOf: (tokenId: string) =>
      createPublicClient({ transport: http(t.ctx.chain!.rpcUrl) }).readContract({
        address: t.ctx.chain!.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [BigInt(tokenId)],
      }),
  };
}

export type HostedCheckoutApp = Awaited<ReturnType<typeof startHostedCheckoutApp>>;

/** A checkout request for the adapters themselves (tests of what they refuse before any call). */
export const checkoutRequest = (currency: "usd" | "inr"): CheckoutRequest => ({
  orderId: "0b6f1a8e-1d2c-4b7a-9f3e-2a1b3c4d5e6f",
  title: "The Boss Entry · edition #1",
  tags: { nftId: "bossEntry" },
  amountMinor: 2500n,
  currency,
  customer: { id: "u1", email: "fan@example.com", phone: "9876543210" },
  returnUrl: `${PUBLIC_URL}/paymentstatus/bossEntry/x`,
  cancelUrl: `${PUBLIC_URL}/paymentstatus/bossEntry/x/cancelled`,
  expiresAt: new Date(Date.now() + 30 * 60_000),
});
