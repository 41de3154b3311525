import type { TaxProfile, taxEndpoints as api } from "@diginoor/api/tax";
import { callApi } from "../../lib/api.ts";

export const taxProfileKey = ["tax-profile"] as const;
export const taxYearsKey = ["tax-statements"] as const;

export const getTaxProfile = (signal?: AbortSignal) =>
  callApi<typeof api.getTaxProfile>("GET /api/v1/me/tax", { signal });

export const updateTaxProfile = (body: { residence: "india" | "elsewhere"; specifiedPerson: boolean }) =>
  callApi<typeof api.updateTaxProfile>("PUT /api/v1/me/tax", { body });

export const listStatements = (signal?: AbortSignal) =>
  callApi<typeof api.listStatements>("GET /api/v1/me/tax/statements", { signal });

export const tdsPreview = (priceWei: string, signal?: AbortSignal) =>
  callApi<typeof api.tdsPreview>("GET /api/v1/me/tax/tds-preview", { query: { priceWei }, signal });

/** The download link of a year's statement (a plain link: the browser saves the file). */
export const statementUrl = (financialYear: string, format: "csv" | "pdf") =>
  `/api/v1/me/tax/statements/${encodeURIComponent(financialYear)}/${format}`;

export type { TaxProfile };
