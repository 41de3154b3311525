import type { Order } from "@diginoor/api/orders";
import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { signPurchaseVoucher, toOrderId, voucherOrderId } from "@diginoor/contracts/voucher";
import { createPublicClient, createWalletClient, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
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
 * Editions on chain, from the server (issue 34 point 6, decision 184): an item created in the console gets its
 * edition count on chain by a durable job; a paid card order whose edition someone minted first with a voucher
 * signed by our real signer key (the leaked-key case) is refunded, never minted as a second token of that edition.
 */
const PUBLIC_URL = "http://localhost:3000";
let t: TestApp;
let clock: TestClock;
let pc: PublicClient;
const api = httpApi(() => t.app);
const nowSec = () => Math.floor(clock.now() / 1000);
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);

beforeAll(async () => {
  clock = createTestClock(Date.now());
  t = await createTestApp({ PUBLIC_URL, INDEXER_POLL_MS: "100" }, { clock, chain: true });
  pc = createPublicClient({ chain: foundry, transport: http(t.ctx.chain!.rpcUrl) }) as PublicClient;
  await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const editionsOnChain = async (catalogueNumber: bigint) =>
  pc.readContract({
    address: t.ctx.chain!.deployment.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "editions",
    args: [catalogueNumber],
  });
const catalogueNumberOf = async (nftId: string) =>
  BigInt(
    (await q<{ n: string }>("SELECT catalogue_number::text AS n FROM nfts WHERE id = $1", [nftId]))[0]!.n,
  );

describe("edition counts on chain", () => {
  it("an NFT created in the console gets its edition count on chain (a durable job); a lower edition size lowers it", async () => {
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const created = await api<{ id: string }>("POST", "/api/v1/admin/nfts", admin.cookie, {
      title: "Interval block",
      tier: "rare",
      category: "Scene",
      filmId: 1,
      celebrityId: 1,
      imageUrl: "/media/i.webp",
      thumbnailUrl: "/media/t.webp",
      editionSize: 12,
      saleType: "fixed",
      priceUsdCents: 2500,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const n = await catalogueNumberOf(created.body.id);
    expect(
      await until(
        "count on chain",
        () => editionsOnChain(n),
        ([c, r]) => r && c === 12,
        30_000,
      ),
    ).toEqual([12, true]);
    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/admin/nfts/${created.body.id}`,
      headers: { cookie: admin.cookie },
      payload: { editionSize: 8 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(
      await until(
        "lowered on chain",
        () => editionsOnChain(n),
        ([c]) => c === 8,
        30_000,
      ),
    ).toEqual([8, true]);
  }, 90_000);

  it("a paid card order whose edition a voucher of the real signer key minted first is refunded, not minted again", async () => {
    await q(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
        thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
      VALUES ('takenscene', 'Taken Scene', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 5, 5, 'fixed', 2500, NULL)`);
    const fan = await fanWithWallet(t);
    const made = await api<Order>("POST", "/api/v1/orders", fan.cookie, {
      nftId: "takenscene",
      provider: "sandbox",
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const order = made.body;
    const [row] = await q<{ edition: number; number: string }>(
      "SELECT edition, number::text AS number FROM orders WHERE id = $1",
      [order.orderId],
    );
    const n = await catalogueNumberOf("takenscene");
    const chain = t.ctx.chain!;
    // The item is on chain (registered before the first mint or voucher), with primary terms so vouchers sell it.
    const minter = createWalletClient({
      account: chain.minter!,
      chain: foundry,
      transport: http(chain.rpcUrl),
    });
    for (const [functionName, args] of [
      ["setEditionCount", [n, 5]],
      ["setPrimaryTerms", [n, ANVIL_ADDRESSES[9], 0n]],
    ] as const) {
      const hash = await minter.writeContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName,
        args,
      } as never);
      expect((await pc.waitForTransactionReceipt({ hash })).status).toBe("success");
    }
    // Someone holding our signer key signs a voucher for that edition and buys it first.
    const thief = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[8] as `0x${string}`),
      chain: foundry,
      transport: http(chain.rpcUrl),
    });
    const voucher = {
      catalogueNftId: n,
      edition: row!.edition,
      priceWei: 1000n,
      buyer: thief.account.address,
      platformFeeBps: 0,
      orderId: voucherOrderId(999_999n),
      expiry: BigInt(nowSec() + 3600),
    };
    const signature = await signPurchaseVoucher({
      account: chain.signer!,
      chainId: chain.chainId,
      marketplace: chain.deployment.marketplace,
      voucher,
    });
    const { catalogueNftId, edition, priceWei, platformFeeBps, orderId, expiry } = voucher;
    const bought = await thief.writeContract({
      address: chain.deployment.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "purchase",
      args: [{ catalogueNftId, edition, priceWei, platformFeeBps, orderId, expiry }, signature],
      value: priceWei,
    });
    expect((await pc.waitForTransactionReceipt({ hash: bought })).status).toBe("success");

    // The fan pays by card: the edition is taken on chain, so the order is refunded and nothing is minted.
    const body = sandboxEvent(order, "payment.succeeded", nowSec(), `evt_taken_${order.orderId}`);
    const paid = await t.app.inject({
      method: "POST",
      url: "/api/v1/webhooks/sandbox",
      payload: body,
      headers: {
        "content-type": "application/json",
        "x-sandbox-signature": signSandboxPayload(sandboxSecret(t.ctx.config), body, nowSec()),
      },
    });
    expect(paid.statusCode).toBe(200);
    const final = await until(
      "refunded",
      async () => (await api<Order>("GET", `/api/v1/orders/${order.orderId}`, fan.cookie)).body,
      (o) => ["refund_pending", "refunded"].includes(o.state),
      30_000,
    );
    expect(final.state).toMatch(/^refund/);
    const [refund] = await q<{ reason: string }>("SELECT reason FROM order_refunds WHERE order_id = $1", [
      order.orderId,
    ]);
    expect(refund?.reason).toBe("edition_unavailable");
    expect(
      await pc.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isOrderMinted",
        args: [toOrderId(BigInt(row!.number))],
      }),
    ).toBe(false);
  }, 90_000);
});
