// Studio earnings (issue 25 point 4, decision 174): a production house's statement is derived at read
// time from what already records each sale exactly once: the orders table (card and rupee primary
// sales) and the indexer's sales (wallet primary sales, resale royalties, primary auctions). Only the
// payouts an administrator records are stored (studio_payouts). Currencies are never mixed.
import type { EarningCurrency, EarningLine, EarningsStatement } from "@diginoor/api/earnings";
import { earningsMessages } from "@diginoor/api/earnings";
import type { Database, Db } from "../../db/client.ts";
import { type Query, queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import { toCsv } from "../../lib/csv.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Tx } from "../../platform/tx.ts";
import type { AccountsService } from "../accounts/service.ts";
import { nftHouses, studios } from "../catalogue/service.ts";
import { salesWithNft } from "../indexer/service.ts";
import type { KycService } from "../kyc/service.ts";
import { fiatPrimarySales } from "../orders/service.ts";
import * as repo from "./repo.ts";

export interface EarningsDeps {
  database: Database;
  clock: Clock;
  /** The chain whose indexed sales count, and the minter key that sells primary auctions for the studios. */
  chain?: { chainId: number; minterAddress: string };
  kyc: Pick<KycService, "stateOf">;
  /** The studio accounts of a production house (their KYC gates its payouts). */
  accounts: Pick<AccountsService, "studioAccountIds">;
}

type Totals = Record<EarningCurrency, bigint>;
const zero = (): Totals => ({ inr: 0n, usd: 0n, wei: 0n });
const text = (t: Totals) => ({ inr: t.inr.toString(), usd: t.usd.toString(), wei: t.wei.toString() });

/** YYYY-MM of a time in India (UTC+5:30): statements are by Indian calendar month. */
export function monthOf(d: Date): string {
  return new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 7);
}

export function createEarningsService(deps: EarningsDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);

  /** NFT id → production house, for the NFTs named (by id or by catalogue number). */
  async function housesOf(db: Db, numbers: number[], ids: string[]) {
    const byNumber = new Map<number, { id: string; houseId: number }>();
    const byId = new Map<string, number>();
    for (const r of await nftHouses(db, numbers, ids)) {
      if (r.catalogueNumber !== null) byNumber.set(r.catalogueNumber, { id: r.id, houseId: r.houseId });
      byId.set(r.id, r.houseId);
    }
    return { byNumber, byId };
  }

  /** Every earning line of one house, oldest first. */
  async function linesOf(on: Query, db: Db, houseId: number): Promise<EarningLine[]> {
    const fiat = await fiatPrimarySales(on);
    const sales = deps.chain ? await salesWithNft(on, deps.chain.chainId) : [];
    const houses = await housesOf(
      db,
      [...new Set(sales.map((s) => Number(s.nft_number)))],
      [...new Set(fiat.map((f) => f.nft_id))],
    );
    const lines: (EarningLine & { sort: number })[] = [];
    for (const f of fiat) {
      if (houses.byId.get(f.nft_id) !== houseId) continue;
      const currency = f.pay_currency === "inr" ? "inr" : "usd";
      lines.push({
        kind: "primary_fiat",
        at: f.fulfilled_at.toISOString(),
        month: monthOf(f.fulfilled_at),
        currency,
        grossMinor: f.pay_amount_minor,
        // No commission is charged on a fiat sale (decision 174): the whole charge is the studio's.
        platformFeeMinor: "0",
        amountMinor: f.pay_amount_minor,
        owed: true,
        nftId: f.nft_id,
        reference: f.id,
        tokenId: null,
        sort: f.fulfilled_at.getTime(),
      });
    }
    const minter = deps.chain?.minterAddress.toLowerCase();
    for (const s of sales) {
      const nft = houses.byNumber.get(Number(s.nft_number));
      if (!nft || nft.houseId !== houseId) continue;
      const base = {
        at: s.block_time.toISOString(),
        month: monthOf(s.block_time),
        currency: "wei" as const,
        grossMinor: s.price_wei,
        platformFeeMinor: "0",
        nftId: nft.id,
        reference: s.tx_hash,
        tokenId: s.token_id,
        sort: s.block_time.getTime(),
      };
      const price = BigInt(s.price_wei);
      const royalty = BigInt(s.royalty_wei);
      const fee = BigInt(s.fee_wei);
      if (s.kind === "primary") {
        // Credited to the studio's payee on chain (pendingWithdrawals, decision 106): earned, not owed by us.
        lines.push({
          ...base,
          kind: "primary_wallet",
          platformFeeMinor: fee.toString(),
          amountMinor: (price - fee).toString(),
          owed: false,
        });
      } else if (s.kind === "auction" && s.seller.toLowerCase() === minter) {
        // A primary auction: the seller share reached the minter key (decision 140) and is owed to the studio.
        lines.push({
          ...base,
          kind: "auction_seller_share",
          platformFeeMinor: fee.toString(),
          amountMinor: (price - royalty - fee).toString(),
          owed: true,
        });
        if (royalty > 0n)
          lines.push({ ...base, kind: "auction_royalty", amountMinor: royalty.toString(), owed: false });
      } else if (royalty > 0n) {
        lines.push({ ...base, kind: "resale_royalty", amountMinor: royalty.toString(), owed: false });
      }
    }
    return lines.sort((a, b) => a.sort - b.sort).map(({ sort: _, ...l }) => l);
  }

  async function statement(houseId: number, on: Query = q, db: Db = database.db): Promise<EarningsStatement> {
    const house = await studios.get(db, houseId);
    const lines = await linesOf(on, db, houseId);
    const payouts = await repo.payoutsOf(on, houseId);
    const months = new Map<string, { earned: Totals; owed: Totals; paidOut: Totals }>();
    const monthTotals = (m: string) => {
      const v = months.get(m) ?? { earned: zero(), owed: zero(), paidOut: zero() };
      months.set(m, v);
      return v;
    };
    const earned = zero();
    const owed = zero();
    const paidOut = zero();
    for (const l of lines) {
      const m = monthTotals(l.month);
      const a = BigInt(l.amountMinor);
      m.earned[l.currency] += a;
      earned[l.currency] += a;
      if (l.owed) {
        m.owed[l.currency] += a;
        owed[l.currency] += a;
      }
    }
    for (const p of payouts) {
      const a = BigInt(p.amount);
      monthTotals(monthOf(p.created_at)).paidOut[p.currency] += a;
      paidOut[p.currency] += a;
    }
    const balance = zero();
    for (const c of ["inr", "usd", "wei"] as const) balance[c] = owed[c] - paidOut[c];
    return {
      productionHouseId: houseId,
      productionHouse: house.name,
      months: [...months.entries()]
        .sort(([a], [b]) => b.localeCompare(a))
        .map(([month, v]) => ({
          month,
          earned: text(v.earned),
          owed: text(v.owed),
          paidOut: text(v.paidOut),
        })),
      lines,
      payouts: payouts.map((p) => ({
        id: p.id,
        currency: p.currency,
        amountMinor: p.amount,
        reference: p.reference,
        at: p.created_at.toISOString(),
        month: monthOf(p.created_at),
      })),
      totals: { earned: text(earned), owed: text(owed), paidOut: text(paidOut), balance: text(balance) },
    };
  }

  return {
    statement: (houseId: number) => statement(houseId),

    /** The statement as CSV: one row per line and per payout (amounts in minor units, currency named). */
    async statementCsv(houseId: number): Promise<string> {
      const s = await statement(houseId);
      // Amounts in minor units are numbers (bigint), every other cell text: a payout reference or
      // NFT id that starts like a formula is neutralised by the one writer.
      const amount = (minor: string) => BigInt(minor);
      return toCsv(
        [
          ...s.lines.map((l) => [
            l.month,
            l.at,
            l.kind,
            l.currency,
            amount(l.grossMinor),
            amount(l.platformFeeMinor),
            amount(l.amountMinor),
            String(l.owed),
            l.nftId,
            l.tokenId ?? "",
            l.reference,
          ]),
          ...s.payouts.map((p) => [
            p.month,
            p.at,
            "payout",
            p.currency,
            "",
            "",
            amount(p.amountMinor),
            "",
            "",
            "",
            p.reference,
          ]),
        ],
        {
          header: [
            "month",
            "at",
            "kind",
            "currency",
            "gross_minor",
            "platform_fee_minor",
            "amount_minor",
            "owed",
            "nft_id",
            "token_id",
            "reference",
          ],
          eol: "\n",
        },
      );
    },

    /**
     * Records a payout in `tx` (the console audits it): a studio account of the house must have
     * verified KYC (403 `kyc_required`), and it may not exceed the balance owed in its currency (409).
     */
    async recordPayout(
      tx: Tx,
      actorId: string,
      houseId: number,
      p: { currency: EarningCurrency; amountMinor: string; reference: string },
    ) {
      const tq = queryOf(tx);
      await studios.get(tx.db, houseId);
      const ids = await deps.accounts.studioAccountIds(houseId, tx.db);
      const states = await Promise.all(ids.map((id) => deps.kyc.stateOf(id, tq)));
      if (!states.includes("verified"))
        throw new AppError(
          "kyc_required",
          `${earningsMessages.studioKyc} has no studio account with verified identity (KYC): a payout needs one. Ask the studio to verify it in Edit Profile → Verify identity.`,
          { states },
        );
      await repo.lockHouse(tq, houseId);
      const before = await statement(houseId, tq, tx.db);
      const amount = BigInt(p.amountMinor);
      const balance = BigInt(before.totals.balance[p.currency]);
      if (amount > balance)
        throw AppError.conflict(earningsMessages.overBalance(p.currency, balance.toString()));
      const row = await repo.insertPayout(tq, {
        houseId,
        currency: p.currency,
        amount,
        reference: p.reference,
        by: actorId,
        now: clock.date(),
      });
      return {
        id: row.id,
        currency: row.currency,
        amountMinor: row.amount,
        reference: row.reference,
        at: row.created_at.toISOString(),
        month: monthOf(row.created_at),
      };
    },
  };
}

export type EarningsService = ReturnType<typeof createEarningsService>;
