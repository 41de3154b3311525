// Tax records for Indian residents (issue 25 point 5, decision 176): the declared tax residence, the
// s.194S TDS shown before a sale, and the yearly statement (CSV and PDF) per financial year.
import { z } from "zod";
import { endpoint } from "./endpoint.ts";

export const taxMessages = {
  notResident:
    "Tax statements are kept for Indian tax residents. Set your tax residence to India in Edit Profile first.",
  unknownYear: "There is no statement for this financial year yet",
} as const;

/** "2026-27": the Indian financial year from 1 April 2026 to 31 March 2027. */
export const financialYearSchema = z
  .string()
  .regex(/^(20\d\d)-(\d\d)$/, "A financial year such as 2026-27")
  .refine(
    (fy) => (Number(fy.slice(0, 4)) + 1) % 100 === Number(fy.slice(5)),
    "A financial year such as 2026-27",
  );

/** The financial year (April–March, Indian Standard Time) a moment falls in. */
export function financialYearOf(at: Date): string {
  const ist = new Date(at.getTime() + 330 * 60_000);
  const y = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  return `${y}-${String((y + 1) % 100).padStart(2, "0")}`;
}

export const taxResidenceSchema = z.enum(["india", "elsewhere"]);

export const taxProfileSchema = z.object({
  /** null until the user says. */
  residence: taxResidenceSchema.nullable(),
  /**
   * A "specified person" under s.194S (an individual or HUF without business or professional income
   * needing a tax audit): the higher yearly threshold applies to their sales.
   */
  specifiedPerson: z.boolean(),
});
export type TaxProfile = z.infer<typeof taxProfileSchema>;

export const updateTaxProfileRequestSchema = z.object({
  residence: taxResidenceSchema,
  specifiedPerson: z.boolean(),
});

/** The most a listing's price or an auction's reserve can be on the marketplace (a uint96 of wei). */
export const MAX_LISTING_WEI = 2n ** 96n - 1n;

/** Paise as a decimal string (money is never a JSON number: it can pass 2^53). */
const paiseSchema = z.string().regex(/^\d+$/, "a whole number of paise");

export const tdsPreviewQuerySchema = z.object({
  /** The asking price (or reserve) in wei, a decimal string, at most what a listing holds (uint96). */
  priceWei: z
    .string()
    .regex(/^[1-9]\d{0,28}$/, "A positive whole number of wei")
    .refine((v) => BigInt(v) <= MAX_LISTING_WEI, `at most ${MAX_LISTING_WEI} wei, the most a listing holds`),
});

/** How the TDS of a sale is handled (decision 176). */
export const tdsTreatmentSchema = z.enum([
  /** A purchase: the TDS of s.194S is on the seller's side. */
  "not_applicable",
  /** The seller's sales this financial year are within the threshold: no TDS. */
  "below_threshold",
  /** Bought by card or UPI: Diginoor's buyer key paid the seller, so Diginoor deducts and deposits it. */
  "deposited_by_diginoor",
  /** Bought by a wallet on chain: nobody can withhold it; recorded for the seller's return. */
  "not_withheld",
]);
export type TdsTreatment = z.infer<typeof tdsTreatmentSchema>;

export const tdsPreviewSchema = z.object({
  /** False for a user who has not declared Indian residence: nothing else is computed. */
  resident: z.boolean(),
  financialYear: z.string(),
  /** The sale's value in paise at today's stored rate (paise are decimal strings, like all money). */
  valuePaise: paiseSchema,
  rateBps: z.number().int(),
  thresholdPaise: paiseSchema,
  /** The user's sales already recorded in this financial year, in paise. */
  soldThisYearPaise: paiseSchema,
  /** TDS on this sale if it were made today ("0" within the threshold). */
  tdsPaise: paiseSchema,
});
export type TdsPreview = z.infer<typeof tdsPreviewSchema>;

export const statementYearSchema = z.object({
  financialYear: z.string(),
  purchases: z.number().int(),
  sales: z.number().int(),
  tdsPaise: paiseSchema,
});
export const statementYearsSchema = z.object({ items: z.array(statementYearSchema) });
export type StatementYear = z.infer<typeof statementYearSchema>;

export const statementParamsSchema = z.object({
  financialYear: financialYearSchema,
  format: z.enum(["csv", "pdf"]),
});

export const taxEndpoints = {
  getTaxProfile: endpoint({
    operationId: "getTaxProfile",
    method: "GET",
    path: "/api/v1/me/tax",
    summary: "Your declared tax residence (India or elsewhere) and whether you are a specified person",
    tags: ["profile"],
    success: { status: 200, schema: taxProfileSchema },
  }),
  updateTaxProfile: endpoint({
    operationId: "updateTaxProfile",
    method: "PUT",
    path: "/api/v1/me/tax",
    summary: "Declare your tax residence; Indian residents get tax records and yearly statements",
    tags: ["profile"],
    body: updateTaxProfileRequestSchema,
    success: { status: 200, schema: taxProfileSchema },
  }),
  tdsPreview: endpoint({
    operationId: "tdsPreview",
    method: "GET",
    path: "/api/v1/me/tax/tds-preview",
    summary: "The s.194S TDS a sale at this price would carry today (shown before listing)",
    tags: ["profile"],
    query: tdsPreviewQuerySchema,
    success: { status: 200, schema: tdsPreviewSchema },
  }),
  listStatements: endpoint({
    operationId: "listTaxStatements",
    method: "GET",
    path: "/api/v1/me/tax/statements",
    summary: "The financial years with tax records, newest first",
    tags: ["profile"],
    errors: ["conflict"],
    success: { status: 200, schema: statementYearsSchema },
  }),
  downloadStatement: endpoint({
    operationId: "downloadTaxStatement",
    method: "GET",
    path: "/api/v1/me/tax/statements/{financialYear}/{format}",
    summary: "A financial year's tax statement: purchases, sales, TDS and acquisition costs (CSV or PDF)",
    tags: ["profile"],
    params: statementParamsSchema,
    errors: ["conflict", "not_found"],
    success: { status: 200, schema: z.string(), contentType: ["text/csv", "application/pdf"] },
  }),
} as const;
