import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { voucherFromJson } from "@diginoor/contracts/voucher";
import type { NftAuction, Order } from "@diginoor/api/orders";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PrivateKeyAccount,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { expect } from "vitest";
import { type Clock, createTestClock } from "../src/platform/clock.ts";
import { seedStudioFilmAndStar } from "./card-orders.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

export { seedStudioFilmAndStar };

/** Shared by the HTTP + anvil tests of commerce (wallet and card orders). */

export type ApiCall = <T = Record<string, unknown>>(
  method: "GET" | "POST" | "DELETE",
  url: string,
  cookie?: string,
  payload?: object,
) => Promise<{ status: number; body: T }>;

/** JSON requests to the app under test, with a session cookie. */
export function httpApi(app: () => TestApp["app"]): ApiCall {
  return async (method, url, cookie, payload) => {
    const res = await app().inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
}

/** A signed-in user whose wallet `key` is linked (Sign-In with Ethereum, as the wallet page does it). */
export async function linkedBuyer(
  t: TestApp,
  o: { api: ApiCall; clock: Clock; publicUrl: string },
  key: Hex,
) {
  const account = privateKeyToAccount(key);
  const { cookie, user } = await newSignedInUser(t.ctx);
  const nonce = (await o.api<{ nonce: string }>("POST", "/api/v1/wallets/nonce", cookie)).body.nonce;
  const issuedAt = new Date(o.clock.now());
  const message = createSiweMessage({
    address: account.address,
    chainId: t.ctx.chain!.chainId,
    domain: new URL(o.publicUrl).host,
    uri: o.publicUrl,
    nonce,
    version: "1",
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + 5 * 60_000),
  });
  const linked = await o.api("POST", "/api/v1/wallets", cookie, {
    message,
    signature: await account.signMessage({ message }),
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  return { account, cookie, email: user.email };
}

/** Polls `read` until `ok` (every 50 ms, at most `ms`). */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 5000,
): Promise<T> {
  const start = Date.now();
  let last: T | undefined;
  while (Date.now() - start < ms) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not happen within ${ms} ms: ${JSON.stringify(last)}`);
}

export const COMMERCE_PUBLIC_URL = "http://localhost:3000";

/**
 * The app the commerce and earnings tests share: a fresh server on anvil (the indexer polling every
 * 100 ms, `env` added) on a test clock, the studio, film and star of `seedStudioFilmAndStar` paid at
 * `payout`, and what those tests do on it over HTTP and on the chain.
 */
export async function startCommerceApp(payout: Address, env: Record<string, string> = {}) {
  const clock = createTestClock(Date.now());
  const t = await createTestApp(
    { PUBLIC_URL: COMMERCE_PUBLIC_URL, INDEXER_POLL_MS: "100", ...env },
    { clock, chain: true },
  );
  await seedStudioFilmAndStar(t.ctx.database, payout);
  const rpcUrl = t.ctx.chain!.rpcUrl;
  const api = httpApi(() => t.app);
  const pc = () => createPublicClient({ transport: http(rpcUrl) });
  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ account, transport: http(rpcUrl) });
  return {
    t,
    clock,
    rpcUrl,
    collectible: t.ctx.chain!.deployment.collectible,
    marketplace: t.ctx.chain!.deployment.marketplace,
    api,
    pc,
    walletOf,
    /** A signed-in user with anvil account `key` linked, and a wallet client of it. */
    async buyer(key: Hex) {
      const b = await linkedBuyer(t, { api, clock, publicUrl: COMMERCE_PUBLIC_URL }, key);
      return { ...b, wallet: walletOf(b.account) };
    },
    /** A wallet order of `nftId` on a fresh quote (decision 121), as the web app makes it. */
    async order(cookie: string, nftId: string): Promise<{ status: number; body: Order }> {
      const quote = await api<{ quoteId: string }>("POST", "/api/v1/quotes", cookie, { nftId });
      expect(quote.status, JSON.stringify(quote.body)).toBe(201);
      return api<Order>("POST", "/api/v1/orders", cookie, {
        nftId,
        provider: "wallet",
        quoteId: quote.body.quoteId,
      });
    },
    /** Sends the purchase exactly as the web app does: purchase(voucher, signature) with the quoted value. */
    pay(wallet: ReturnType<typeof walletOf>, o: Order) {
      const p = o.payment!;
      return wallet.writeContract({
        chain: null,
        address: p.marketplace as Address,
        abi: diginoorMarketplaceAbi,
        functionName: "purchase",
        args: [voucherFromJson(p.voucher), p.signature as Hex],
        value: BigInt(p.valueWei),
      });
    },
    /** Adds a one-edition auction NFT of house 1, opens its primary auction and waits until the API shows it open. */
    async openAuction(id: string, title: string): Promise<bigint> {
      await t.ctx.database.query(
        `INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
            thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
          VALUES ($1, $2, 'rare', 'Prop', 1, 1, 1, '/i.svg', '/t.svg', 1, 1, 'auction', 30000, 1)`,
        [id, title],
      );
      await t.ctx.services.orders.auctions.openPrimaryAuctions();
      const open = await until(
        "auction open",
        async () => (await api<NftAuction>("GET", `/api/v1/nfts/${id}/auction`)).body,
        (b) => b.status === "open",
        30_000,
      );
      return BigInt(open.tokenId);
    },
  };
}

export type CommerceApp = Awaited<ReturnType<typeof startCommerceApp>>;
