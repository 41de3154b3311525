// Tax records for Indian residents (issue 25 point 5, decision 176): the declared tax residence, one
// record per purchase and sale of a resident valued at the day's stored rate, the s.194S TDS of each
// sale by the configured rule, and the yearly statement (CSV and PDF).
import {
  financialYearOf,
  type StatementYear,
  type TaxProfile,
  type TdsPreview,
  taxMessages,
} from "@diginoor/api/tax";
import { usdCentsToPaise, weiToCents } from "@diginoor/api/money";
import { nativeSymbolOf } from "@diginoor/api/wallets";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { OrderLifecycle } from "../orders/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import * as repo from "./repo.ts";
import { ruleOf, type TdsRules, tdsOf } from "./rules.ts";
import { statementCsv, statementPdf } from "./statement.ts";
import type { TaxRecordRow } from "./tables.ts";

export interface TaxServiceDeps {
  database: Database;
  clock: Clock;
  rules: TdsRules;
  quotes: Pick<QuotesService, "ratesOfDay">;
  wallets: Pick<WalletsService, "list">;
  tokens: Pick<TokenReads, "salesOfAccounts">;
  orders: Pick<OrderLifecycle, "taxableOrdersOf" | "isCardResale">;
  catalogue: Pick<CatalogueService, "nftsByCatalogueNumber" | "catalogueNumberOf">;
}

/** One purchase or sale found for a user, before it is valued. */
interface Found {
  side: "purchase" | "sale";
  source: string;
  at: Date;
  chainId: number | null;
  tokenId: string | null;
  nftNumber: number | null;
  paidWith: "crypto" | "card" | "auction";
  wei: bigint | null;
  usdCents: bigint | null;
  paidPaise: bigint | null;
  /** A sale bought by card or UPI through our buyer key (Diginoor is the payer). */
  byCard: boolean;
}

export function createTaxService(deps: TaxServiceDeps) {
  const { database, clock } = deps;
  const db = database.db;

  async function profileOf(userId: string): Promise<TaxProfile> {
    const row = await repo.findProfile(db, userId);
    return row
      ? { residence: row.residence, specifiedPerson: row.specifiedPerson }
      : { residence: null, specifiedPerson: true };
  }

  /** Every purchase and sale of the user we know of: chain sales of their wallets and card orders. */
  async function findAll(userId: string): Promise<Found[]> {
    const mine = new Set((await deps.wallets.list(userId)).map((w) => w.address.toLowerCase()));
    const out: Found[] = [];
    for (const s of await deps.tokens.salesOfAccounts([...mine])) {
      const base = {
        source: s.source,
        at: s.at,
        chainId: s.chainId,
        tokenId: s.tokenId,
        nftNumber: s.nftNumber,
        paidWith: s.kind === "auction" ? ("auction" as const) : ("crypto" as const),
        wei: s.priceWei,
        usdCents: null,
        paidPaise: null,
      };
      if (mine.has(s.buyer)) out.push({ ...base, side: "purchase", byCard: false });
      if (mine.has(s.seller)) {
        const byCard = await deps.orders.isCardResale({
          chainId: s.chainId,
          tokenId: s.tokenId,
          seller: s.seller,
          priceWei: s.priceWei,
        });
        out.push({ ...base, side: "sale", byCard });
      }
    }
    for (const o of await deps.orders.taxableOrdersOf(userId)) {
      out.push({
        side: "purchase",
        source: o.source,
        at: o.at,
        chainId: o.chainId,
        tokenId: o.tokenId,
        nftNumber: await deps.catalogue.catalogueNumberOf(o.nftId).catch(() => null),
        paidWith: "card",
        wei: null,
        usdCents: o.usdCents,
        paidPaise: o.paidPaise,
        byCard: false,
      });
    }
    // Oldest first, a purchase before a sale of the same moment (the year's total grows in order).
    return out.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.side === "purchase" ? -1 : 1));
  }

  /** The value in paise at the day's stored rate, and the rate used. */
  async function valuation(f: Pick<Found, "at" | "chainId" | "wei" | "usdCents" | "paidPaise">) {
    if (f.paidPaise !== null) {
      // Paid in rupees: the amount paid is the value; no rate is needed.
      return {
        day: null,
        symbol: null,
        usdMicrosPerToken: null,
        inrMicrosPerUsd: null,
        usdCents: f.usdCents,
        valuePaise: f.paidPaise,
      };
    }
    const { day, rates } = await deps.quotes.ratesOfDay(f.at);
    const symbol = f.wei !== null && f.chainId !== null ? nativeSymbolOf(f.chainId) : null;
    const usdMicrosPerToken = symbol ? (rates.usdMicrosPerToken[symbol] ?? null) : null;
    let usdCents: bigint | null = f.usdCents;
    if (f.wei !== null) {
      if (usdMicrosPerToken === null)
        throw new AppError("unavailable", `No ${symbol} rate is stored for ${day}`);
      usdCents = weiToCents(f.wei, usdMicrosPerToken);
    }
    const valuePaise = usdCentsToPaise(usdCents ?? 0n, rates.inrMicrosPerUsd);
    return {
      day: day as string | null,
      symbol,
      usdMicrosPerToken,
      inrMicrosPerUsd: rates.inrMicrosPerUsd as bigint | null,
      usdCents,
      valuePaise,
    };
  }

  /**
   * Records every purchase and sale of a resident not recorded yet, oldest first (idempotent: a
   * record is made once and never re-valued). Non-residents get nothing. Returns how many were made.
   */
  async function syncUser(userId: string): Promise<number> {
    const profile = await repo.findProfile(db, userId);
    if (profile?.residence !== "india") return 0;
    const done = await repo.recordedSources(db, userId);
    const todo = (await findAll(userId)).filter((f) => !done.has(`${f.side}|${f.source}`));
    if (!todo.length) return 0;
    // Everything read from other modules first: on PGlite a read outside the transaction would wait for it.
    const titles = await deps.catalogue.nftsByCatalogueNumber(
      todo.map((f) => f.nftNumber).filter((n): n is number => n !== null),
    );
    const valued: { f: Found; v: Awaited<ReturnType<typeof valuation>> }[] = [];
    for (const f of todo) valued.push({ f, v: await valuation(f) });
    let made = 0;
    await withTransaction(database, async (tx) => {
      // One recorder per user at a time, so the year's running total is read after the previous sale.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('tax-records:' || $1))", [userId]);
      const now = clock.date();
      const recorded = await repo.recordedSources(tx.db, userId);
      for (const { f, v } of valued) {
        if (recorded.has(`${f.side}|${f.source}`)) continue;
        const fy = financialYearOf(f.at);
        let tds = { rateBps: 0, thresholdPaise: null as bigint | null, tdsPaise: 0n };
        let treatment: TaxRecordRow["tdsTreatment"] = "not_applicable";
        let acquisitionPaise: bigint | null = null;
        if (f.side === "sale") {
          const soldBeforePaise = await repo.salesInYear(tx.db, userId, fy, f.at);
          tds = tdsOf(ruleOf(deps.rules, fy), {
            valuePaise: v.valuePaise,
            soldBeforePaise,
            specifiedPerson: profile.specifiedPerson,
          });
          treatment =
            tds.tdsPaise === 0n ? "below_threshold" : f.byCard ? "deposited_by_diginoor" : "not_withheld";
          if (f.tokenId !== null) {
            acquisitionPaise =
              (await repo.lastPurchaseOf(tx.db, userId, f.tokenId, f.at))?.valuePaise ?? null;
          }
        }
        const nft = f.nftNumber !== null ? titles.get(f.nftNumber) : undefined;
        await repo.insertRecord(tx.db, {
          userId,
          side: f.side,
          source: f.source,
          financialYear: fy,
          occurredAt: f.at,
          chainId: f.chainId,
          tokenId: f.tokenId,
          title: nft?.title ?? (f.tokenId !== null ? `Token ${f.tokenId}` : "NFT"),
          paidWith: f.paidWith,
          amountWei: f.wei?.toString() ?? null,
          symbol: v.symbol,
          usdCents: v.usdCents,
          valuePaise: v.valuePaise,
          rateDay: v.day,
          inrMicrosPerUsd: v.inrMicrosPerUsd,
          usdMicrosPerToken: v.usdMicrosPerToken,
          tdsRateBps: tds.rateBps,
          tdsThresholdPaise: tds.thresholdPaise,
          tdsPaise: tds.tdsPaise,
          tdsTreatment: treatment,
          acquisitionPaise,
          recordedAt: now,
        });
        recorded.add(`${f.side}|${f.source}`);
        made++;
      }
    });
    return made;
  }

  async function requireResident(userId: string) {
    const profile = await repo.findProfile(db, userId);
    if (profile?.residence !== "india") throw AppError.conflict(taxMessages.notResident);
    return profile;
  }

  return {
    profileOf,

    async updateProfile(userId: string, p: { residence: "india" | "elsewhere"; specifiedPerson: boolean }) {
      const row = await repo.upsertProfile(db, {
        userId,
        residence: p.residence,
        specifiedPerson: p.specifiedPerson,
        updatedAt: clock.date(),
      });
      // A new resident's earlier purchases and sales are recorded now (their acquisition costs too).
      if (row.residence === "india") await syncUser(userId);
      return { residence: row.residence, specifiedPerson: row.specifiedPerson } satisfies TaxProfile;
    },

    syncUser,

    /** Records the purchases and sales of every resident (the job after chain batches and every few minutes). */
    async syncResidents(): Promise<number> {
      let made = 0;
      for (const userId of await repo.residents(db)) made += await syncUser(userId);
      return made;
    },

    /** The TDS a sale at `priceWei` on the configured chain would carry today (before the seller lists). */
    async tdsPreview(userId: string, priceWei: bigint, chainId: number | undefined): Promise<TdsPreview> {
      const now = clock.date();
      const fy = financialYearOf(now);
      const profile = await repo.findProfile(db, userId);
      const rule = ruleOf(deps.rules, fy);
      const base = { financialYear: fy, rateBps: rule?.rateBps ?? 0 };
      if (profile?.residence !== "india") {
        return {
          resident: false,
          ...base,
          valuePaise: "0",
          thresholdPaise: "0",
          soldThisYearPaise: "0",
          tdsPaise: "0",
        };
      }
      await syncUser(userId);
      const v = await valuation({
        at: now,
        chainId: chainId ?? 1,
        wei: priceWei,
        usdCents: null,
        paidPaise: null,
      });
      const soldBeforePaise = await repo.salesInYear(db, userId, fy, now);
      const tds = tdsOf(rule, {
        valuePaise: v.valuePaise,
        soldBeforePaise,
        specifiedPerson: profile.specifiedPerson,
      });
      return {
        resident: true,
        ...base,
        valuePaise: v.valuePaise.toString(),
        thresholdPaise: (tds.thresholdPaise ?? 0n).toString(),
        soldThisYearPaise: soldBeforePaise.toString(),
        tdsPaise: tds.tdsPaise.toString(),
      };
    },

    async statementYears(userId: string): Promise<StatementYear[]> {
      await requireResident(userId);
      await syncUser(userId);
      const years = await repo.yearsOf(db, userId);
      const current = financialYearOf(clock.date());
      const items = years.map((y) => ({ ...y, tdsPaise: BigInt(y.tdsPaise).toString() }));
      if (!items.some((y) => y.financialYear === current)) {
        items.unshift({ financialYear: current, purchases: 0, sales: 0, tdsPaise: "0" });
      }
      return items.sort((a, b) => b.financialYear.localeCompare(a.financialYear));
    },

    /** A financial year's statement as CSV or PDF bytes. */
    async statement(
      user: { id: string; name: string; email: string },
      fy: string,
      format: "csv" | "pdf",
    ): Promise<Buffer> {
      const profile = await requireResident(user.id);
      if (fy > financialYearOf(clock.date())) throw new AppError("not_found", taxMessages.unknownYear);
      await syncUser(user.id);
      const records = await repo.recordsOfYear(db, user.id, fy);
      const facts = {
        user,
        financialYear: fy,
        specifiedPerson: profile.specifiedPerson,
        rule: ruleOf(deps.rules, fy),
        records,
        generatedAt: clock.date(),
      };
      return format === "csv" ? Buffer.from(statementCsv(facts), "utf8") : statementPdf(facts);
    },
  };
}

export type TaxService = ReturnType<typeof createTaxService>;

// Data rights (decision 170): the tax profile and records are exported; nothing is erased (kept by law).
export { exportTax } from "./personal-data.ts";
