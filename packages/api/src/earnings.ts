// Studio earnings (issue 25 point 4, decision 174): each production house's statement of what it
// earned, by month, in each currency apart (INR paise, USD cents, wei), and the payouts recorded.
import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { requiredLine } from "./text.ts";

export const earningCurrencies = ["inr", "usd", "wei"] as const;
export const earningCurrencySchema = z.enum(earningCurrencies);
export type EarningCurrency = z.infer<typeof earningCurrencySchema>;

/**
 * What a line is: a primary sale by card or rupees (the platform received the money and owes it), a
 * primary wallet sale (credited to the studio on chain, `pendingWithdrawals`), a royalty on a resale
 * (paid to the studio on chain), a primary auction's seller share (received by the minter key: owed)
 * and its royalty (paid on chain).
 */
export const earningKinds = [
  "primary_fiat",
  "primary_wallet",
  "resale_royalty",
  "auction_seller_share",
  "auction_royalty",
] as const;
export const earningKindSchema = z.enum(earningKinds);

const integer = z.string().regex(/^\d+$/, "an integer amount in minor units");

export const earningLineSchema = z.object({
  kind: earningKindSchema,
  /** ISO 8601 time of the sale (fulfilment, or the block's time). */
  at: z.string(),
  /** YYYY-MM, India time. */
  month: z.string(),
  currency: earningCurrencySchema,
  /** What the buyer paid (minor units of `currency`). */
  grossMinor: integer,
  /**
   * The platform's share taken from this line's gross: the marketplace's fee on a wallet primary sale
   * (`primaryFeeBps`, decision 104) and on a primary auction's seller share (the auction's fee rate);
   * none on a card or rupee sale, which nothing charges a commission on, nor on a royalty (decision 174).
   */
  platformFeeMinor: integer,
  /** The studio's part of it. */
  amountMinor: integer,
  /** True when the platform holds it for the studio (a payout settles it); false when paid or credited on chain. */
  owed: z.boolean(),
  nftId: z.string(),
  /** The order (fiat) or the transaction hash (chain). */
  reference: z.string(),
  tokenId: z.string().nullable(),
});
export type EarningLine = z.infer<typeof earningLineSchema>;

const perCurrency = z.object({ inr: integer, usd: integer, wei: integer });

export const studioPayoutSchema = z.object({
  id: z.string(),
  currency: earningCurrencySchema,
  amountMinor: integer,
  reference: z.string(),
  at: z.string(),
  month: z.string(),
});

export const earningsStatementSchema = z.object({
  productionHouseId: z.number().int(),
  productionHouse: z.string(),
  months: z.array(
    z.object({
      month: z.string(),
      earned: perCurrency,
      owed: perCurrency,
      paidOut: perCurrency,
    }),
  ),
  lines: z.array(earningLineSchema),
  payouts: z.array(studioPayoutSchema),
  totals: z.object({
    earned: perCurrency,
    /** Earned and held by the platform (fiat sales, auction seller shares). */
    owed: perCurrency,
    paidOut: perCurrency,
    /** owed − paidOut: what a payout may still settle. */
    balance: perCurrency,
  }),
});
export type EarningsStatement = z.infer<typeof earningsStatementSchema>;

export const studioParamsSchema = z.object({ id: z.coerce.number().int().positive() }).strict();

export const studioPayoutInputSchema = z
  .object({
    currency: earningCurrencySchema,
    amountMinor: integer.refine((v) => BigInt(v) > 0n, "must be more than 0"),
    reference: requiredLine(200),
  })
  .strict();

export const earningsMessages = {
  overBalance: (currency: string, balance: string) =>
    `The payout is more than the ${currency.toUpperCase()} balance owed to the studio (${balance} in minor units)`,
  studioKyc: "The production house" as const,
} as const;

export const earningsEndpoints = {
  statement: endpoint({
    operationId: "studioEarnings",
    method: "GET",
    path: "/api/v1/admin/studios/{id}/earnings",
    summary:
      "Console: a production house's earnings statement by month, currencies apart (a studio account: its own house only)",
    tags: ["admin"],
    params: studioParamsSchema,
    success: { status: 200, schema: earningsStatementSchema },
    errors: ["forbidden", "not_found"],
  }),
  statementCsv: endpoint({
    operationId: "studioEarningsCsv",
    method: "GET",
    path: "/api/v1/admin/studios/{id}/earnings.csv",
    summary: "Console: the statement's lines and payouts as CSV",
    tags: ["admin"],
    params: studioParamsSchema,
    success: { status: 200, schema: z.string(), contentType: "text/csv" },
    errors: ["forbidden", "not_found"],
  }),
  recordPayout: endpoint({
    operationId: "recordStudioPayout",
    method: "POST",
    path: "/api/v1/admin/studios/{id}/payouts",
    summary:
      "Console: record a payout to a production house (administrators only; a studio account of the house must have verified KYC, else 403 kyc_required; at most the balance owed); audited",
    tags: ["admin"],
    params: studioParamsSchema,
    body: studioPayoutInputSchema,
    success: { status: 201, schema: studioPayoutSchema },
    errors: ["forbidden", "not_found", "conflict", "kyc_required"],
  }),
};
