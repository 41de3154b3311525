import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";

/** Reads the catalogue API directly, to know what the pages must show. */
export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.status(), `GET ${url}`).toBe(200);
  return (await res.json()) as T;
}

export interface NftSummaryLite {
  id: string;
  title: string;
  tier: string;
  saleType: "fixed" | "auction";
  priceUsdCents: number;
  film: { slug: string; name: string };
  celebrity: { slug: string; name: string };
}

/** Same rules as the app: whole dollars without decimals. */
export function usd(cents: number): string {
  const fmt = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
    maximumFractionDigits: cents % 100 === 0 ? 0 : 2,
  });
  return fmt.format(cents / 100);
}
