import type { DevMailboxResponse } from "@diginoor/api/auth";
import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";
import { asAnotherClient } from "./accounts.ts";

/** Reads the catalogue API directly, to know what the pages must show. */
export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.status(), `GET ${url}`).toBe(200);
  return (await res.json()) as T;
}

/**
 * A common fixed-price NFT with more than one edition left, `fromEnd` places from the end of the
 * first 50 (specs that buy pick different ones, so they can run side by side).
 */
export async function fixedPriceNft(request: APIRequestContext, fromEnd: number) {
  const list = await getJson<{ items: { id: string; title: string; editionsAvailable: number }[] }>(
    request,
    "/api/v1/nfts?saleType=fixed&tier=common&limit=50",
  );
  const nft = list.items.filter((n) => n.editionsAvailable > 1).at(-fromEnd);
  expect(nft, "a fixed-price NFT with editions left").toBeTruthy();
  return nft as NonNullable<typeof nft>;
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

/** A verified account made through the API and the dev mailbox (the accounts spec tests the UI). */
export async function verifiedAccount(
  request: APIRequestContext,
): Promise<{ email: string; password: string }> {
  const email = `e2e-buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "buyer-password-9";
  const signup = await request.post("/api/v1/auth/signup", {
    data: { name: "Buyer Fan", email, password, confirmPassword: password },
    headers: asAnotherClient(),
  });
  expect(signup.status()).toBe(201);
  let token: string | undefined;
  await expect
    .poll(async () => {
      const body = (await (await request.get("/dev/mailbox/api")).json()) as DevMailboxResponse;
      const link = body.messages
        .find((m) => m.to.includes(email))
        ?.links.find((l) => l.includes("verify-email"));
      token = link ? (new URL(link).searchParams.get("token") ?? undefined) : undefined;
      return token;
    })
    .toBeTruthy();
  expect((await request.post("/api/v1/auth/verify-email", { data: { token } })).status()).toBe(200);
  return { email, password };
}
