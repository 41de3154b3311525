import type { Order } from "@diginoor/api/orders";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { createPublicClient, getAddress, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signSandboxPayload } from "../src/modules/orders/sandbox.ts";
import { newSignedInUser } from "./factories.ts";
import type { TestApp } from "./harness.ts";

/**
 * Sandbox card-order traffic shared by the storm and overselling tests and the fulfilment
 * benchmark: the provider's events for an order, each delivery signed (or forged) as sent.
 */

export type Forgery = "wrong-secret" | "tampered-amount" | "stale" | "unsigned" | "other-body";
export const FORGERIES: Forgery[] = ["wrong-secret", "tampered-amount", "stale", "unsigned", "other-body"];

export interface Delivery {
  orderId: string;
  body: string;
  signature: string;
  forged: Forgery | null;
}

/** The sandbox's event for order `o` (as its hosted page sends it). */
export function sandboxEvent(
  o: Pick<Order, "orderId" | "usdCents" | "checkoutUrl" | "payAmountMinor" | "payCurrency">,
  type: "payment.succeeded" | "payment.failed",
  nowSec: number,
  id = `evt_storm_${o.orderId}_${type}`,
): string {
  return JSON.stringify({
    id,
    type,
    created: nowSec,
    data: {
      session: o.checkoutUrl?.split("/sandbox/checkout/")[1] ?? "",
      orderId: o.orderId,
      amount: Number(o.payAmountMinor ?? o.usdCents),
      currency: o.payCurrency ?? "usd",
    },
  });
}

/** One delivery of `body`: genuine, or forged the way `forgery` says. */
export function deliver(
  orderId: string,
  body: string,
  secret: string,
  nowSec: number,
  forgery: Forgery | null = null,
): Delivery {
  const d = (b: string, signature: string): Delivery => ({ orderId, body: b, signature, forged: forgery });
  switch (forgery) {
    case null:
      return d(body, signSandboxPayload(secret, body, nowSec));
    case "wrong-secret":
      return d(body, signSandboxPayload(`${secret}-guessed`, body, nowSec));
    case "tampered-amount":
      return d(body.replace(/"amount":\d+/, '"amount":1'), signSandboxPayload(secret, body, nowSec));
    case "stale":
      return d(body, signSandboxPayload(secret, body, nowSec - 3600));
    case "unsigned":
      return d(body, "");
    case "other-body":
      return d(body, signSandboxPayload(secret, body.replace("payment.", "payment_"), nowSec));
  }
}

/** Fisher–Yates with a seeded generator, so a failing storm can be replayed. */
export function shuffle<T>(xs: T[], seed: number): T[] {
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function pool<T, R>(
  items: T[],
  limit: number,
  fn: (x: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  });
  await Promise.all(lanes);
  return out;
}

/** Every mint (Transfer from the zero address) of the collectible, as token id → count. */
export async function mintsOnChain(rpcUrl: string, collectible: `0x${string}`): Promise<Map<bigint, number>> {
  const pc = createPublicClient({ transport: http(rpcUrl) });
  const logs = await pc.getContractEvents({
    address: collectible,
    abi: diginoorCollectibleAbi,
    eventName: "Transfer",
    args: { from: "0x0000000000000000000000000000000000000000" },
    fromBlock: 0n,
  });
  const counts = new Map<bigint, number>();
  for (const l of logs) {
    const id = l.args.tokenId as bigint;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

type Query = { query(sql: string, params?: unknown[]): Promise<unknown[]> };

/**
 * The catalogue the commerce tests and the fulfilment benchmark sell from: one studio paid at
 * `payout`, one film and one star (ids 1); the NFTs are each caller's own.
 */
export async function seedStudioFilmAndStar(database: Query, payout: string): Promise<void> {
  await database.query(
    "INSERT INTO production_houses (slug, name, logo_url, payout_address) VALUES ('avm', 'AVM Productions', '/l.svg', $1)",
    [payout],
  );
  await database.query(`INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
    VALUES ('sivaji', 'Sivaji', '/p.svg', '/b.svg', '/t.svg', 1)`);
  await database.query("INSERT INTO celebrities (slug, name) VALUES ('rajinikanth', 'Rajinikanth')");
}

/** Links a fresh address to `userId` as the wallet that receives purchases (what SIWE linking stores). */
export async function linkFreshWallet(database: Query, userId: string, chainId: number): Promise<string> {
  const address = getAddress(privateKeyToAccount(generatePrivateKey()).address);
  await database.query(
    "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, true, now())",
    [address, userId, chainId],
  );
  return address;
}

/** A signed-in fan of test app `t` (on a chain) whose own fresh wallet receives their purchases. */
export async function fanWithWallet(t: TestApp) {
  const { cookie, user } = await newSignedInUser(t.ctx);
  const address = await linkFreshWallet(t.ctx.database, user.id, t.ctx.chain!.chainId);
  return { cookie, userId: user.id, address };
}
