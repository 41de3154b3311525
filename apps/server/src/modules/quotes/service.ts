import { nativeSymbolOf, type QuoteResponse, quoteMessages, type RatesResponse } from "@diginoor/api/wallets";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import { type Rates, type RatesProvider, usdCentsToInrPaise, usdCentsToWei } from "./rates.ts";
import * as repo from "./repo.ts";
import type { QuoteRow } from "./tables.ts";

export interface QuotesServiceDeps {
  database: Database;
  clock: Clock;
  rates: RatesProvider;
  catalogue: Pick<CatalogueService, "saleTerms">;
  /** The configured chain's id; without a chain no quote can be given. */
  chainId?: number;
  ttlSeconds: number;
}

function toApi(q: QuoteRow): QuoteResponse {
  return {
    quoteId: q.id,
    nftId: q.nftId,
    chainId: q.chainId,
    symbol: q.symbol,
    priceWei: q.priceWei,
    usdCents: q.usdCents,
    rate: q.usdMicrosPerToken.toString(),
    inrPaise: Number(usdCentsToInrPaise(BigInt(q.usdCents), q.inrMicrosPerUsd)),
    expiresAt: q.expiresAt.toISOString(),
  };
}

/** The calendar day (YYYY-MM-DD) of a moment in India Standard Time (UTC+5:30). */
export function istDay(at: Date): string {
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

const quoteNotFound = () => new AppError("not_found", quoteMessages.notFound);

/** One rates service (USD ↔ native token, USD → INR) and the stored price quotes built on it. */
export function createQuotesService(deps: QuotesServiceDeps) {
  const { database, clock } = deps;

  async function ratesFor(symbol: string) {
    const rates = await deps.rates.current();
    const usdMicrosPerToken = rates.usdMicrosPerToken[symbol];
    if (!usdMicrosPerToken) {
      throw new AppError("unavailable", `No ${symbol} exchange rate is available; try again later`);
    }
    return { usdMicrosPerToken, inrMicrosPerUsd: rates.inrMicrosPerUsd };
  }

  /** Keeps the provider's current rates as today's (a row stored first by another process wins). */
  async function keepToday() {
    const rates = await deps.rates.current();
    const now = clock.date();
    return repo.keepDailyRates(database.db, {
      day: istDay(now),
      usdMicrosPerToken: Object.fromEntries(
        Object.entries(rates.usdMicrosPerToken).map(([k, v]) => [k, v.toString()]),
      ),
      inrMicrosPerUsd: rates.inrMicrosPerUsd,
      provider: deps.rates.name,
      recordedAt: now,
    });
  }

  return {
    async currentRates(): Promise<RatesResponse> {
      const rates = await deps.rates.current();
      return {
        usdMicrosPerToken: Object.fromEntries(
          Object.entries(rates.usdMicrosPerToken).map(([k, v]) => [k, v.toString()]),
        ),
        inrMicrosPerUsd: rates.inrMicrosPerUsd.toString(),
      };
    },

    /**
     * The day's stored rates (decision 176) for a moment: the rates kept for its day (India Standard
     * Time); a day without any takes the latest earlier day's, and today without any keeps the
     * provider's current rates as today's (the first asker fixes them for the day).
     */
    async ratesOfDay(at: Date): Promise<{ day: string; rates: Rates }> {
      const day = istDay(at);
      const earlier =
        day < istDay(clock.date()) ? await repo.dailyRatesOnOrBefore(database.db, day) : undefined;
      const row = earlier ?? (await keepToday());
      return {
        day: row.day,
        rates: {
          usdMicrosPerToken: Object.fromEntries(
            Object.entries(row.usdMicrosPerToken).map(([k, v]) => [k, BigInt(v)]),
          ),
          inrMicrosPerUsd: row.inrMicrosPerUsd,
        },
      };
    },

    /** The stored USD→INR rate (micro-rupees per dollar) INR prices are converted at. */
    async inrMicrosPerUsd(): Promise<bigint> {
      return (await deps.rates.current()).inrMicrosPerUsd;
    },

    /** `usdCents` in paise at the stored rate (rounded half up), with the rate used. */
    async usdCentsToInr(usdCents: bigint): Promise<{ paise: bigint; inrMicrosPerUsd: bigint }> {
      const { inrMicrosPerUsd } = await deps.rates.current();
      return { paise: usdCentsToInrPaise(usdCents, inrMicrosPerUsd), inrMicrosPerUsd };
    },

    /** `usdCents` in the configured chain's native token at the current rate (wei, rounded as quotes are). */
    async usdCentsToNative(usdCents: number): Promise<{ symbol: string; wei: bigint }> {
      if (deps.chainId === undefined)
        throw new AppError("unavailable", "This server runs without a blockchain");
      const symbol = nativeSymbolOf(deps.chainId);
      const { usdMicrosPerToken } = await ratesFor(symbol);
      return { symbol, wei: usdCentsToWei(BigInt(usdCents), usdMicrosPerToken) };
    },

    /** `wei` of the configured chain's native token in US cents at the current rate, rounded up (a resale's card price). */
    async nativeToUsdCents(wei: bigint): Promise<bigint> {
      if (deps.chainId === undefined)
        throw new AppError("unavailable", "This server runs without a blockchain");
      const { usdMicrosPerToken } = await ratesFor(nativeSymbolOf(deps.chainId));
      const d = 10n ** 22n; // 10^18 wei per token × 10^4 micro-dollars per cent
      return (wei * usdMicrosPerToken + d - 1n) / d;
    },

    /** A quote for one edition of a fixed-price NFT in the chain's native token, stored for ttlSeconds. */
    async quote(userId: string, nftId: string): Promise<QuoteResponse> {
      if (deps.chainId === undefined) {
        throw new AppError(
          "unavailable",
          "Crypto prices are unavailable: this server runs without a blockchain",
        );
      }
      const nft = await deps.catalogue.saleTerms(nftId);
      if (nft.saleType !== "fixed") throw AppError.conflict(quoteMessages.notForSale);
      if (nft.editionsAvailable <= 0) throw AppError.conflict(quoteMessages.soldOut);
      if (nft.priceUsdCents <= 0) throw AppError.conflict(quoteMessages.noPrice);
      const symbol = nativeSymbolOf(deps.chainId);
      const { usdMicrosPerToken, inrMicrosPerUsd } = await ratesFor(symbol);
      const now = clock.date();
      const row = await repo.insertQuote(database.db, {
        userId,
        nftId: nft.id,
        chainId: deps.chainId,
        symbol,
        usdCents: nft.priceUsdCents,
        priceWei: usdCentsToWei(BigInt(nft.priceUsdCents), usdMicrosPerToken).toString(),
        usdMicrosPerToken,
        inrMicrosPerUsd,
        createdAt: now,
        expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000),
      });
      await repo.deleteOldQuotes(database.db, now);
      return toApi(row);
    },

    /**
     * The user's quote if it still holds. An expired quote is refused (410) and never repriced:
     * the caller asks for a new quote. Another user's quote is not found.
     */
    async validQuote(userId: string, quoteId: string): Promise<QuoteResponse> {
      const row = await repo.findQuote(database.db, quoteId);
      if (!row || row.userId !== userId) throw quoteNotFound();
      if (row.expiresAt.getTime() <= clock.now()) throw new AppError("gone", quoteMessages.expired);
      return toApi(row);
    },
  };
}

export type QuotesService = ReturnType<typeof createQuotesService>;
