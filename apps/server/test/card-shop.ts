import type { Order } from "@diginoor/api/orders";
import { ANVIL_ADDRESSES, ANVIL_DEPLOYER_PRIVATE_KEY } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import type { Database } from "../src/db/client.ts";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import {
  deliver,
  linkFreshWallet,
  mintsOnChain,
  sandboxEvent,
  seedStudioFilmAndStar,
} from "./card-orders.ts";
import type { ChainFixture } from "./chain-fixture.ts";
import { newSignedInUser } from "./factories.ts";

/**
 * A shop selling one NFT by card (the sandbox provider) to fans with their own wallets, run by real
 * server processes: what the fault tests (issue 26) buy from while a dependency fails, and the
 * check that every paid order ended with exactly one token.
 */
export const SHOP_SECRET = "fault-test-secret-fault-test-secret-0001";
export const SHOP_NFT = "faultNft";

export interface Fan {
  cookie: string;
  address: string;
}

/** The environment of a server process selling from the shop on `chain`. */
export function shopEnv(chain: ChainFixture, extra: Record<string, string>): Record<string, string> {
  return {
    SESSION_SECRET: SHOP_SECRET,
    CHAIN_RPC_URL: chain.rpcUrl,
    CHAIN_DEPLOYMENT: JSON.stringify({
      ...chain.deployment,
      blockNumber: String(chain.deployment.blockNumber),
    }),
    MINTER_PRIVATE_KEY: ANVIL_DEPLOYER_PRIVATE_KEY,
    VOUCHER_SIGNER_PRIVATE_KEY: ANVIL_DEPLOYER_PRIVATE_KEY,
    SEED_ON_START: "0",
    LOG_LEVEL: "warn",
    INDEXER_POLL_MS: "100",
    ORDER_FULFILMENT_RETRY_SECONDS: "2",
    ...extra,
  };
}

/** The catalogue (one studio, film, star and NFT `SHOP_NFT` of `editions`) and `fans` signed-in fans. */
export async function openShop(database: Database, chain: ChainFixture, fans: number, editions = 500) {
  await seedStudioFilmAndStar(database, ANVIL_ADDRESSES[9]);
  await database.query(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
      thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
    VALUES ('${SHOP_NFT}', 'Fault Edition', 'common', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', ${editions}, ${editions}, 'fixed', 1500, NULL)`);
  const chainId = await chain.client.getChainId();
  const out: Fan[] = [];
  for (let i = 0; i < fans; i++) {
    const { cookie, user } = await newSignedInUser(database);
    out.push({ cookie, address: await linkFreshWallet(database, user.id, chainId) });
  }
  return out;
}

const TIMEOUT_MS = 15_000;

/** POST /api/v1/orders for `fan` (a card order): the response, or null when it could not be sent. */
export async function placeOrder(base: string, fan: Fan): Promise<Response> {
  return fetch(`${base}/api/v1/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, cookie: fan.cookie },
    body: JSON.stringify({ nftId: SHOP_NFT, provider: "sandbox" }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
}

/** The sandbox provider's "paid" webhook for `order`, as it (re)sends it until it is answered 200. */
export async function payOrder(base: string, order: Order): Promise<Response> {
  const now = Math.floor(Date.now() / 1000);
  const d = deliver(
    order.orderId,
    sandboxEvent(order, "payment.succeeded", now),
    sandboxSecret({ SESSION_SECRET: SHOP_SECRET }),
    now,
  );
  return fetch(`${base}/api/v1/webhooks/sandbox`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-sandbox-signature": d.signature },
    body: d.body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
}

/** Waits until every order in `ids` is fulfilled; throws with the stragglers after `timeoutMs`. */
export async function untilFulfilled(database: Database, ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await database.query<{ id: string; state: string }>(
      "SELECT id, state FROM orders WHERE id = ANY($1::uuid[])",
      [ids],
    );
    const open = rows.filter((o) => o.state !== "fulfilled");
    if (rows.length === ids.length && open.length === 0) return;
    if (Date.now() > deadline) throw new Error(`orders not fulfilled: ${JSON.stringify(open)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Every order in `orders` (paid, so fulfilled) has exactly one token, minted once, owned by its
 * buyer's wallet; walked the one legal path, each step once; one applied payment. Returns how many
 * orders were checked. Throws on the first disagreement.
 */
export async function checkExactlyOnce(
  database: Database,
  chain: ChainFixture,
  orders: { orderId: string; address: string }[],
): Promise<number> {
  const ids = orders.map((o) => o.orderId);
  const rows = await database.query<{ id: string; number: string; buyer_address: string }>(
    "SELECT id, number::text AS number, buyer_address FROM orders WHERE id = ANY($1::uuid[])",
    [ids],
  );
  if (rows.length !== ids.length) throw new Error(`${ids.length - rows.length} orders lost`);
  const mints = await mintsOnChain(chain.rpcUrl, chain.deployment.collectible);
  const buyerOf = new Map(orders.map((o) => [o.orderId, o.address]));
  for (const o of rows) {
    const n = mints.get(BigInt(o.number)) ?? 0;
    if (n !== 1) throw new Error(`order ${o.id}: token ${o.number} minted ${n} times`);
    if (o.buyer_address !== buyerOf.get(o.id))
      throw new Error(`order ${o.id}: bought for ${o.buyer_address}`);
    const owner = await chain.client.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "ownerOf",
      args: [BigInt(o.number)],
    });
    if (owner !== o.buyer_address) throw new Error(`order ${o.id}: token ${o.number} owned by ${owner}`);
  }
  const paths = await database.query<{ path: string; n: number }>(
    `SELECT string_agg(to_state, '>' ORDER BY at, id) AS path FROM order_transitions
      WHERE order_id = ANY($1::uuid[]) GROUP BY order_id`,
    [ids],
  );
  const wrong = paths.filter((p) => p.path !== "awaiting_payment>paid>minting>fulfilled");
  if (paths.length !== ids.length || wrong.length > 0)
    throw new Error(`order histories: ${JSON.stringify(wrong)}`);
  const applied = await database.query<{ order_id: string; n: number }>(
    `SELECT order_id::text, count(*)::int AS n FROM payment_events
      WHERE outcome = 'applied' AND order_id = ANY($1::uuid[]) GROUP BY order_id`,
    [ids],
  );
  if (applied.length !== ids.length || applied.some((a) => a.n !== 1))
    throw new Error(`payments applied: ${JSON.stringify(applied)}`);
  // The indexer may still be a few blocks behind the last receipt.
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await chain.assertAgrees(
        database,
        rows.map((o) => BigInt(o.number)),
      );
      return rows.length;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
