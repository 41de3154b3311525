import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { voucherFromJson } from "@diginoor/contracts/voucher";
import type { EarningsStatement } from "@diginoor/api/earnings";
import type { NftAuction, Order } from "@diginoor/api/orders";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PrivateKeyAccount,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { fanWithWallet, sandboxEvent } from "./card-orders.ts";
import { httpApi, linkedBuyer, seedStudioFilmAndStar, until } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { sandboxKyc } from "./kyc-helpers.ts";

/**
 * Studio earnings (issue 25 point 4, decision 174) on a real anvil: a history of primary sales by the
 * sandbox card (rupees) and by wallet, a resale paying a royalty and a settled primary auction, over two
 * production houses. Each house's statement totals equal the sums computed here independently: the
 * card sales from the orders table, the chain's from the marketplace's own event logs read with viem.
 * A payout needs a studio account with verified KYC, at most the balance, and is audited.
 */
const PUBLIC_URL = "http://localhost:3000";
const PAYOUT_1 = ANVIL_ADDRESSES[9];
const PAYOUT_2 = ANVIL_ADDRESSES[8];

let t: TestApp;
let clock: TestClock;
let rpcUrl: string;
let collectible: Address;
let marketplace: Address;
const api = httpApi(() => t.app);
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);
const pc = () => createPublicClient({ transport: http(rpcUrl) });
const walletOf = (account: PrivateKeyAccount) => createWalletClient({ account, transport: http(rpcUrl) });
const NFT_COLUMNS = `id, title, tier, category, film_id, celebrity_id, production_house_id, image_url, thumbnail_url,
  edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days`;

beforeAll(async () => {
  clock = createTestClock(Date.now());
  t = await createTestApp({ PUBLIC_URL, INDEXER_POLL_MS: "100" }, { clock, chain: true });
  rpcUrl = t.ctx.chain!.rpcUrl;
  ({ collectible, marketplace } = t.ctx.chain!.deployment);
  await seedStudioFilmAndStar(t.ctx.database, PAYOUT_1);
  await q(
    "INSERT INTO production_houses (slug, name, logo_url, payout_address) VALUES ('lyca', 'Lyca Productions', '/l.svg', $1)",
    [PAYOUT_2],
  );
  await q(`INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
    VALUES ('enthiran', 'Enthiran', '/p.svg', '/b.svg', '/t.svg', 2)`);
  await q(`INSERT INTO nfts (${NFT_COLUMNS}) VALUES
    ('cardOne', 'Card One', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 5, 5, 'fixed', 2500, NULL),
    ('cardTwo', 'Card Two', 'common', 'Scene', 2, 1, 2, '/i.svg', '/t.svg', 5, 5, 'fixed', 1099, NULL),
    ('walletOne', 'Wallet One', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 3, 3, 'fixed', 2500, NULL)`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A sandbox card order of `nftId` by a new fan with a wallet, paid by the sandbox's signed webhook, then minted. */
async function cardSale(nftId: string): Promise<Order> {
  const fan = await fanWithWallet(t);
  const made = await api<Order>("POST", "/api/v1/orders", fan.cookie, { nftId, provider: "sandbox" });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const body = sandboxEvent(made.body, "payment.succeeded", Math.floor(clock.now() / 1000));
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/webhooks/sandbox",
    payload: body,
    headers: {
      "content-type": "application/json",
      "x-sandbox-signature": signSandboxPayload(
        sandboxSecret(t.ctx.config),
        body,
        Math.floor(clock.now() / 1000),
      ),
    },
  });
  expect(res.statusCode).toBe(200);
  return until(
    "card order fulfilled",
    async () => (await api<Order>("GET", `/api/v1/orders/${made.body.orderId}`, fan.cookie)).body,
    (o) => o.state === "fulfilled",
    30_000,
  );
}

describe("studio earnings", () => {
  it("each studio's statement totals equal the orders table's and the chain's own sums", async () => {
    // Card (sandbox, rupees) primary sales: two of house 1, one of house 2.
    const cards = [await cardSale("cardOne"), await cardSale("cardOne"), await cardSale("cardTwo")];
    expect(cards.every((o) => o.payCurrency === "inr")).toBe(true);

    // A wallet primary sale of house 1 (voucher, the buyer's own transaction).
    const alice = await linkedBuyer(t, { api, clock, publicUrl: PUBLIC_URL }, ANVIL_PRIVATE_KEYS[1]);
    const bob = await linkedBuyer(t, { api, clock, publicUrl: PUBLIC_URL }, ANVIL_PRIVATE_KEYS[2]);
    const aliceWallet = walletOf(alice.account);
    const bobWallet = walletOf(bob.account);
    const quote = await api<{ quoteId: string }>("POST", "/api/v1/quotes", alice.cookie, {
      nftId: "walletOne",
    });
    const o = (
      await api<Order>("POST", "/api/v1/orders", alice.cookie, {
        nftId: "walletOne",
        provider: "wallet",
        quoteId: quote.body.quoteId,
      })
    ).body;
    await pc().waitForTransactionReceipt({
      hash: await aliceWallet.writeContract({
        chain: null,
        address: marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "purchase",
        args: [voucherFromJson(o.payment!.voucher), o.payment!.signature as Hex],
        value: BigInt(o.payment!.valueWei),
      }),
    });
    const walletToken = BigInt(o.payment!.voucher.orderId);
    await until(
      "wallet order fulfilled",
      async () => (await api<Order>("GET", `/api/v1/orders/${o.orderId}`, alice.cookie)).body,
      (x) => x.state === "fulfilled",
      30_000,
    );

    // A resale: alice lists, bob buys; the studio's royalty is paid on chain.
    for (const [fn, args] of [
      ["setApprovalForAll", [marketplace, true]],
      ["list", [walletToken, 2n * 10n ** 16n]],
    ] as const) {
      await pc().waitForTransactionReceipt({
        hash: await aliceWallet.writeContract({
          chain: null,
          address: fn === "list" ? marketplace : collectible,
          abi: (fn === "list"
            ? diginoorMarketplaceAbi
            : diginoorCollectibleAbi) as typeof diginoorMarketplaceAbi,
          functionName: fn as "list",
          args: args as unknown as [bigint, bigint],
        }),
      });
    }
    await pc().waitForTransactionReceipt({
      hash: await bobWallet.writeContract({
        chain: null,
        address: marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "buy",
        args: [walletToken, 2n * 10n ** 16n],
        value: 2n * 10n ** 16n,
      }),
    });

    // A primary auction of house 1, opened by the minter key, won by bob and settled.
    await q(`INSERT INTO nfts (${NFT_COLUMNS}) VALUES
      ('auctionOne', 'Auction One', 'legendary', 'Prop', 1, 1, 1, '/i.svg', '/t.svg', 1, 1, 'auction', 30000, 1)`);
    await t.ctx.services.orders.auctions.openPrimaryAuctions();
    const open = await until(
      "auction open",
      async () => (await api<NftAuction>("GET", "/api/v1/nfts/auctionOne/auction")).body,
      (b) => b.status === "open",
      30_000,
    );
    const auctionToken = BigInt(open.tokenId);
    await pc().waitForTransactionReceipt({
      hash: await bobWallet.writeContract({
        chain: null,
        address: marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "bid",
        args: [auctionToken],
        value: 12n * 10n ** 16n,
      }),
    });
    await pc().request({ method: "evm_increaseTime" as never, params: [86_400 + 60] as never });
    await pc().request({ method: "evm_mine" as never, params: [] as never });
    clock.advance((86_400 + 60) * 1000);
    const outsider = walletOf(privateKeyToAccount(ANVIL_PRIVATE_KEYS[3]));
    await pc().waitForTransactionReceipt({
      hash: await outsider.writeContract({
        chain: null,
        address: marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "settle",
        args: [auctionToken],
      }),
    });
    await until(
      "settlement indexed",
      async () => (await api<NftAuction>("GET", "/api/v1/nfts/auctionOne/auction")).body,
      (b) => b.status === "settled",
      30_000,
    );
    await until(
      "every sale indexed",
      () => q<{ n: number }>("SELECT count(*)::int AS n FROM indexer_sales"),
      (r) => r[0]!.n === 3,
      30_000,
    );

    // Independent sums. Fiat: the orders table itself, per house, per currency.
    const fiat = await q<{ house: number; currency: string; total: string }>(
      `SELECT n.production_house_id AS house, o.pay_currency AS currency, sum(o.pay_amount_minor)::text AS total
         FROM orders o JOIN nfts n ON n.id = o.nft_id
        WHERE o.state = 'fulfilled' AND o.provider <> 'wallet' GROUP BY 1, 2`,
    );
    const fiatOf = (house: number, currency: string) =>
      BigInt(fiat.find((r) => r.house === house && r.currency === currency)?.total ?? "0");
    // Chain: the marketplace's own logs, read with viem (no indexer involved).
    const logs = await pc().getContractEvents({
      address: marketplace,
      abi: diginoorMarketplaceAbi,
      fromBlock: 0n,
    });
    let primaryWei = 0n;
    let royaltyWei = 0n;
    let auctionShareWei = 0n;
    let auctionRoyaltyWei = 0n;
    for (const log of logs) {
      const a = log.args as Record<string, unknown>;
      if (log.eventName === "PrimaryPurchase" && a.tokenId === walletToken)
        primaryWei += (a.price as bigint) - (a.platformFee as bigint);
      if (log.eventName === "Sale" && a.royaltyReceiver === PAYOUT_1) royaltyWei += a.royaltyAmount as bigint;
      if (log.eventName === "AuctionSettled" && a.royaltyReceiver === PAYOUT_1) {
        expect(a.seller).toBe(t.ctx.chain!.minter!.address);
        auctionShareWei += a.sellerProceeds as bigint;
        auctionRoyaltyWei += a.royaltyAmount as bigint;
      }
    }
    expect(primaryWei).toBeGreaterThan(0n);
    expect(royaltyWei).toBeGreaterThan(0n);
    expect(auctionShareWei).toBeGreaterThan(0n);
    expect(auctionRoyaltyWei).toBeGreaterThan(0n);

    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const one = (await api<EarningsStatement>("GET", "/api/v1/admin/studios/1/earnings", admin.cookie)).body;
    const two = (await api<EarningsStatement>("GET", "/api/v1/admin/studios/2/earnings", admin.cookie)).body;
    expect(one.totals.earned).toEqual({
      inr: fiatOf(1, "inr").toString(),
      usd: fiatOf(1, "usd").toString(),
      wei: (primaryWei + royaltyWei + auctionShareWei + auctionRoyaltyWei).toString(),
    });
    expect(one.totals.owed).toEqual({
      inr: fiatOf(1, "inr").toString(),
      usd: "0",
      wei: auctionShareWei.toString(),
    });
    expect(two.totals.earned).toEqual({ inr: fiatOf(2, "inr").toString(), usd: "0", wei: "0" });
    expect(fiatOf(1, "inr")).toBe(BigInt(cards[0]!.payAmountMinor!) + BigInt(cards[1]!.payAmountMinor!));
    expect(fiatOf(2, "inr")).toBe(BigInt(cards[2]!.payAmountMinor!));
    expect(one.lines.map((l) => l.kind).sort()).toEqual(
      [
        "auction_royalty",
        "auction_seller_share",
        "primary_fiat",
        "primary_fiat",
        "primary_wallet",
        "resale_royalty",
      ].sort(),
    );
    // The months add up to the totals, currency by currency.
    for (const c of ["inr", "usd", "wei"] as const)
      expect(one.months.reduce((s, m) => s + BigInt(m.earned[c]), 0n).toString()).toBe(one.totals.earned[c]);
    const csv = await t.app.inject({
      method: "GET",
      url: "/api/v1/admin/studios/1/earnings.csv",
      headers: { cookie: admin.cookie },
    });
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const rows = csv.body.trim().split("\n");
    expect(rows).toHaveLength(1 + one.lines.length);
    expect(
      rows.slice(1).reduce((s, r) => s + (r.split(",")[3] === "inr" ? BigInt(r.split(",")[5]!) : 0n), 0n),
    ).toBe(fiatOf(1, "inr"));

    // A studio account sees its own house only; a fan nothing.
    const studio = await newSignedInUser(t.ctx, { role: "studio", productionHouseId: 1 });
    expect((await api("GET", "/api/v1/admin/studios/1/earnings", studio.cookie)).status).toBe(200);
    expect((await api("GET", "/api/v1/admin/studios/2/earnings", studio.cookie)).status).toBe(403);
    const fan = await newSignedInUser(t.ctx);
    expect((await api("GET", "/api/v1/admin/studios/1/earnings", fan.cookie)).status).toBe(403);

    // Payouts: KYC of a studio account first, at most the balance, audited; studio accounts cannot record them.
    const url = "/api/v1/admin/studios/1/payouts";
    const payout = { currency: "inr", amountMinor: "100000", reference: "NEFT UTR 7001" };
    const refused = await api<{ error: { code: string; message: string } }>(
      "POST",
      url,
      admin.cookie,
      payout,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("kyc_required");
    expect(refused.body.error.message).toMatch(/no studio account with verified identity/);
    expect((await api("POST", url, studio.cookie, payout)).status).toBe(403);
    await sandboxKyc(t, studio.user.id, "approve");
    const over = { ...payout, amountMinor: (fiatOf(1, "inr") + 1n).toString() };
    expect((await api("POST", url, admin.cookie, over)).status).toBe(409);
    const paid = await api<{ amountMinor: string }>("POST", url, admin.cookie, payout);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const after = (await api<EarningsStatement>("GET", "/api/v1/admin/studios/1/earnings", admin.cookie))
      .body;
    expect(after.totals.paidOut.inr).toBe("100000");
    expect(after.totals.balance.inr).toBe((fiatOf(1, "inr") - 100000n).toString());
    expect(after.totals.earned).toEqual(one.totals.earned);
    const audit = await q(
      "SELECT 1 FROM admin_audit_log WHERE action = 'studio.payout' AND subject_id = '1'",
    );
    expect(audit).toHaveLength(1);
  }, 180_000);
});
