import { quoteMessages } from "@diginoor/api/wallets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usdCentsToInrPaise, usdCentsToWei, weiToUsdCents } from "../src/modules/quotes/rates.ts";
import { loadConfig } from "../src/config.ts";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { newNft, newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

describe("rates arithmetic (integers only)", () => {
  it("converts USD cents to wei rounding up, and back rounding down", () => {
    // $25.00 at $3,000 per ETH = 1/120 ETH = 8333333333333333.33… wei → rounded up.
    expect(usdCentsToWei(2500n, 3_000_000_000n)).toBe(8_333_333_333_333_334n);
    expect(weiToUsdCents(8_333_333_333_333_334n, 3_000_000_000n)).toBe(2500n);
    // $150,000 at $0.25 per POL = 600,000 POL exactly.
    expect(usdCentsToWei(15_000_000n, 250_000n)).toBe(600_000n * 10n ** 18n);
    expect(usdCentsToInrPaise(2500n, 84_500_000n)).toBe(211_250n);
    expect(() => usdCentsToWei(0n, 1n)).toThrow(RangeError);
  });

  it("reads RATES_TABLE exactly and names a bad one", () => {
    const c = loadConfig({ NODE_ENV: "test", RATES_TABLE: "ETH=3123.456789,POL=0.2,INR=84" });
    expect(c.RATES_TABLE).toEqual({ ETH: 3_123_456_789n, POL: 200_000n, INR: 84_000_000n });
    expect(() => loadConfig({ NODE_ENV: "test", RATES_TABLE: "ETH=1e3,POL=1,INR=1" })).toThrow(/RATES_TABLE/);
    expect(() => loadConfig({ NODE_ENV: "test", RATES_TABLE: "ETH=3000,INR=84" })).toThrow(/must give POL/);
    expect(() => loadConfig({ NODE_ENV: "test", RATES_TABLE: "ETH=0,POL=1,INR=1" })).toThrow(/must not be 0/);
  });
});

describe("POST /api/v1/quotes", () => {
  let t: TestApp;
  let clock: TestClock;
  beforeAll(async () => {
    clock = createTestClock(Date.now());
    t = await createTestApp(
      { RATES_TABLE: "ETH=3000,POL=0.25,INR=84.5", QUOTE_TTL_SECONDS: "300" },
      { clock, chain: true },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const quote = (cookie: string | undefined, nftId: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/quotes",
      headers: cookie ? { cookie } : {},
      payload: { nftId },
    });

  it("quotes a fixed-price NFT in wei at the table rate, stores it, and refuses it once expired", async () => {
    const nftId = await newNft(t.ctx, { priceUsdCents: 2500 });
    const { cookie } = await newSignedInUser(t.ctx);
    const res = await quote(cookie, nftId);
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json();
    expect(q).toEqual({
      quoteId: expect.any(String),
      nftId,
      chainId: 31337,
      symbol: "ETH",
      priceWei: "8333333333333334",
      usdCents: 2500,
      rate: "3000000000",
      inrPaise: 211250,
      expiresAt: new Date(clock.now() + 300_000).toISOString(),
    });

    const get = () =>
      t.app.inject({ method: "GET", url: `/api/v1/quotes/${q.quoteId}`, headers: { cookie } });
    expect((await get()).json()).toEqual(q);
    // Another user cannot see it.
    const other = await newSignedInUser(t.ctx);
    const theirs = await t.app.inject({
      method: "GET",
      url: `/api/v1/quotes/${q.quoteId}`,
      headers: { cookie: other.cookie },
    });
    expect(theirs.statusCode).toBe(404);

    // Expired: refused, never repriced.
    clock.advance(300_000);
    const late = await get();
    expect(late.statusCode).toBe(410);
    expect(late.json().error).toEqual({ code: "gone", message: quoteMessages.expired });
  });

  it("refuses auctions, sold-out NFTs, unknown NFTs, bad ids and anonymous users", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const auction = await newNft(t.ctx, { saleType: "auction" });
    let res = await quote(cookie, auction);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(quoteMessages.notForSale);

    const soldOut = await newNft(t.ctx, { editionSize: 1, editionsAvailable: 0 });
    res = await quote(cookie, soldOut);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(quoteMessages.soldOut);

    const free = await newNft(t.ctx, { priceUsdCents: 0 });
    res = await quote(cookie, free);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(quoteMessages.noPrice);

    res = await quote(cookie, "nosuchnft1");
    expect(res.statusCode).toBe(404);
    res = await quote(cookie, "bad id!");
    expect(res.statusCode).toBe(400);
    res = await quote(undefined, auction);
    expect(res.statusCode).toBe(401);
    const badQuoteId = await t.app.inject({ method: "GET", url: "/api/v1/quotes/123", headers: { cookie } });
    expect(badQuoteId.statusCode).toBe(400);
  });

  it("serves the current rates publicly", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/rates" });
    expect(res.json()).toEqual({
      usdMicrosPerToken: { ETH: "3000000000", POL: "250000" },
      inrMicrosPerUsd: "84500000",
    });
  });
});
