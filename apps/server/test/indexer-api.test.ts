import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import type { ChainEventsMessage } from "../src/modules/indexer/service.ts";
import { type Context, bootstrap } from "../src/bootstrap.ts";
import {
  type ChainFixture,
  fixtureRuntime,
  insertSivajiCatalogue,
  startChainFixture,
} from "./chain-fixture.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

/**
 * The token read API and metadata of a running server (its worker indexes the chain), while outside
 * clients act on the contracts directly: each action shows in the API within 5 s.
 */
let chain: ChainFixture;
let tdb: TestDatabase;
let app: FastifyInstance;
let ctx: Context;
let nftNumber: bigint;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-tokens-"));

beforeAll(async () => {
  [chain, tdb] = await Promise.all([startChainFixture(), createTestDatabase()]);
  const database = tdb.database;
  await insertSivajiCatalogue(database);
  const rows = await database.query<{ catalogue_number: string | number }>(
    `INSERT INTO nfts (id, title, description, tier, category, film_id, celebrity_id, production_house_id,
      image_url, video_url, thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents)
     VALUES ('sivajiBoss1', 'The Boss Entry', 'Sivaji walks in.', 'rare', 'Scene', 1, 1, 1,
      '/media/catalogue/boss.svg', 'https://cdn.example/boss.mp4', '/media/catalogue/boss-t.svg', 50, 50, 'fixed', 2500)
     RETURNING catalogue_number`,
  );
  nftNumber = BigInt(rows[0]?.catalogue_number ?? 0);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: "https://diginoor.example",
    INDEXER_POLL_MS: "100",
  });
  ctx = await bootstrap(config, { database, chain: fixtureRuntime(chain) });
  app = await buildApp(ctx, { webDistDir: "/nonexistent" });
  await app.ready();
  await ctx.startWork(config.ROLE);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await ctx?.close();
  await chain?.stop();
  await tdb?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = async (url: string) => {
  const res = await app.inject(url);
  return { status: res.statusCode, body: res.json() };
};

/** Polls `url` until `check` passes; fails after 5 s (the issue's bound for a chain event to show). */
async function within5s(url: string, check: (body: Record<string, unknown>) => boolean) {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < 5000) {
    const res = await get(url);
    last = res.body;
    if (res.status === 200 && check(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not show the change within 5 s: ${JSON.stringify(last)}`);
}

describe("token API", () => {
  it("reflects mints, listings, price changes, sales and auctions made directly on the contracts", async () => {
    const [a1, a2, a3] = [chain.address(1), chain.address(2), chain.address(3)];
    const market = chain.deployment.marketplace;
    const id = await chain.mint(1, nftNumber, 7);
    const url = `/api/v1/tokens/${id}`;
    expect(await within5s(url, () => true)).toEqual({
      tokenId: String(id),
      nftId: "sivajiBoss1",
      edition: 7,
      owner: a1,
      listing: null,
      auction: null,
      hidden: false,
    });

    await chain.send(1, "collectible", "setApprovalForAll", [market, true]);
    await chain.send(1, "marketplace", "list", [id, 10n ** 18n]);
    await within5s(
      url,
      (b) => JSON.stringify(b.listing) === JSON.stringify({ seller: a1, priceWei: "1000000000000000000" }),
    );
    await chain.send(1, "marketplace", "updatePrice", [id, 2n * 10n ** 18n]);
    await within5s(
      url,
      (b) => (b.listing as { priceWei: string } | null)?.priceWei === "2000000000000000000",
    );

    await chain.send(2, "marketplace", "buy", [id, 2n * 10n ** 18n], 2n * 10n ** 18n);
    await within5s(url, (b) => b.owner === a2 && b.listing === null);

    await chain.send(2, "collectible", "setApprovalForAll", [market, true]);
    await chain.send(2, "marketplace", "createAuction", [id, 10n ** 17n, 1]);
    const auctioned = await within5s(url, (b) => b.auction !== null);
    expect(auctioned.owner).toBe(market);
    expect(auctioned.auction).toEqual({
      seller: a2,
      reserveWei: "100000000000000000",
      highestBidWei: null,
      highestBidder: null,
      endsAt: null,
      settled: false,
    });
    // The seller still sees the escrowed token among theirs.
    const mine = await within5s(`/api/v1/accounts/${a2.toLowerCase()}/tokens`, () => true);
    expect((mine.items as { tokenId: string }[]).map((t) => t.tokenId)).toEqual([String(id)]);

    const bid = await chain.send(3, "marketplace", "bid", [id], 2n * 10n ** 17n);
    const block = await chain.client.getBlock({ blockNumber: bid.blockNumber });
    const bidded = await within5s(
      url,
      (b) => (b.auction as { highestBidder: string | null }).highestBidder === a3,
    );
    expect((bidded.auction as { endsAt: string }).endsAt).toBe(
      new Date((Number(block.timestamp) + 86_400) * 1000).toISOString(),
    );

    await chain.rpc("evm_increaseTime", [86_400 + 1]);
    await chain.send(4, "marketplace", "settle", [id]);
    const settled = await within5s(url, (b) => b.owner === a3);
    expect((settled.auction as { settled: boolean }).settled).toBe(true);

    const activity = await get("/api/v1/nfts/sivajiBoss1/activity");
    expect(activity.status).toBe(200);
    const kinds = (activity.body.items as { kind: string; saleKind: string | null }[]).map(
      (i) => `${i.kind}${i.saleKind ? `:${i.saleKind}` : ""}`,
    );
    // Newest first: settlement (transfer then sale), bid, escrow transfer, resale (transfer then sale), mint.
    expect(kinds).toEqual([
      "sale:auction",
      "transfer",
      "bid",
      "transfer",
      "sale:listing",
      "transfer",
      "mint",
    ]);
    const resale = (activity.body.items as Record<string, unknown>[])[4];
    expect(resale).toMatchObject({ from: a1, to: a2, amountWei: "2000000000000000000", tokenId: String(id) });
    expect(String(resale?.txHash)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Date.parse(String(resale?.at))).not.toBeNaN();

    const a3tokens = await get(`/api/v1/accounts/${a3}/tokens`);
    expect((a3tokens.body.items as { tokenId: string }[]).map((t) => t.tokenId)).toEqual([String(id)]);
    expect((await get(`/api/v1/accounts/${a1}/tokens`)).body).toEqual({ items: [] });
  });

  it("serves ERC-721 metadata from the indexer's tables and the catalogue", async () => {
    const id = await chain.mint(4, nftNumber, 3);
    const uri = await chain.client.readContract({
      address: chain.deployment.collectible,
      abi: (await import("@diginoor/contracts/generated/diginoorCollectible")).diginoorCollectibleAbi,
      functionName: "tokenURI",
      args: [id],
    });
    expect(uri).toBe(`http://localhost:3000/api/v1/metadata/${id}`);
    const body = await within5s(`/api/v1/metadata/${id}`, () => true);
    expect(body).toEqual({
      name: "The Boss Entry #3",
      description: "Sivaji walks in.",
      image: "https://diginoor.example/media/catalogue/boss.svg",
      animation_url: "https://cdn.example/boss.mp4",
      external_url: "https://diginoor.example/nftdetail/sivajiBoss1",
      attributes: [
        { trait_type: "Film", value: "Sivaji" },
        { trait_type: "Star", value: "Rajinikanth" },
        { trait_type: "Tier", value: "Rare" },
        { trait_type: "Production house", value: "AVM Productions" },
        { trait_type: "Category", value: "Scene" },
        { trait_type: "Edition", value: 3, display_type: "number" },
        { trait_type: "Edition size", value: 50, display_type: "number" },
        { trait_type: "Royalty", value: 10, display_type: "boost_percentage" },
      ],
    });
    expect((await app.inject(`/api/v1/metadata/${id}`)).headers["cache-control"]).toBe("public, max-age=300");
  });

  it("lets any site read metadata (CORS *, preflight 204), with an ETag and 304 (issue 23 point 12)", async () => {
    const id = await chain.mint(4, nftNumber, 4);
    await within5s(`/api/v1/metadata/${id}`, () => true);
    const first = await app.inject({
      url: `/api/v1/metadata/${id}`,
      headers: { origin: "https://dapp.example" },
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers["access-control-allow-origin"]).toBe("*");
    expect(first.headers["access-control-allow-credentials"]).toBeUndefined();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await app.inject({ url: `/api/v1/metadata/${id}`, headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["access-control-allow-origin"]).toBe("*");
    const changed = await app.inject({
      url: `/api/v1/metadata/${id}`,
      headers: { "if-none-match": '"other"' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe(first.body);
    const head = await app.inject({ method: "HEAD", url: `/api/v1/metadata/${id}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers["access-control-allow-origin"]).toBe("*");
    // A browser's preflight (a conditional request sends If-None-Match, which needs one).
    const preflight = await app.inject({
      method: "OPTIONS",
      url: `/api/v1/metadata/${id}`,
      headers: {
        origin: "https://dapp.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    expect(String(preflight.headers["access-control-allow-headers"])).toMatch(/If-None-Match/i);
    // Errors of the path are readable too; the rest of the API stays same-origin.
    expect((await app.inject("/api/v1/metadata/999999")).headers["access-control-allow-origin"]).toBe("*");
    const api = await app.inject({
      url: `/api/v1/tokens/${id}`,
      headers: { origin: "https://dapp.example" },
    });
    expect(api.statusCode).toBe(200);
    expect(api.headers["access-control-allow-origin"]).toBeUndefined();
    const apiPreflight = await app.inject({
      method: "OPTIONS",
      url: `/api/v1/tokens/${id}`,
      headers: { origin: "https://dapp.example", "access-control-request-method": "GET" },
    });
    expect(apiPreflight.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("publishes chain.events after each batch and records the notifications that concern users", async () => {
    const messages: ChainEventsMessage[] = [];
    const unsubscribe = await ctx.pubsub.subscribe("chain.events", (m) => {
      messages.push(m as ChainEventsMessage);
    });
    try {
      const id = await chain.mint(5, nftNumber, 9);
      await chain.send(5, "collectible", "approve", [chain.deployment.marketplace, id]);
      await chain.send(5, "marketplace", "list", [id, 1000n]);
      await chain.send(6, "marketplace", "buy", [id, 1000n], 1000n);
      const end = Date.now() + 5000;
      const sold = () =>
        messages.find((m) => m.tokenIds.includes(String(id)) && m.notificationIds.length === 2);
      while (!sold() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      const message = sold();
      expect(message).toMatchObject({ chainId: 31337, kind: "batch" });
      const notes = await tdb.database.query<{ kind: string; recipient: string; amount_wei: string }>(
        `SELECT kind, recipient, amount_wei::text AS amount_wei FROM indexer_notifications
          WHERE id = ANY($1::bigint[]) ORDER BY kind`,
        [message?.notificationIds],
      );
      expect(notes).toEqual([
        { kind: "nft_sold", recipient: chain.address(5), amount_wei: "1000" },
        { kind: "purchase_confirmed", recipient: chain.address(6), amount_wei: "1000" },
      ]);
    } finally {
      await unsubscribe();
    }
  });

  it("answers bad and unknown ids with the one error shape, never a 500", async () => {
    const tooBig = (2n ** 256n).toString();
    const cases: [string, number][] = [
      ["/api/v1/tokens/abc", 400],
      ["/api/v1/tokens/-1", 400],
      ["/api/v1/tokens/1e3", 400],
      [`/api/v1/tokens/${"9".repeat(101)}`, 400],
      // Above 2^256 − 1 it is no token id (issue 23 point 12): 400, not 404.
      [`/api/v1/tokens/${tooBig}`, 400],
      [`/api/v1/tokens/${"9".repeat(100)}`, 400],
      [`/api/v1/tokens/${(2n ** 256n - 1n).toString()}`, 404],
      ["/api/v1/tokens/999999", 404],
      ["/api/v1/metadata/abc", 400],
      [`/api/v1/metadata/${tooBig}`, 400],
      ["/api/v1/metadata/999999", 404],
      ["/api/v1/metadata/0", 404],
      // A token id has one spelling: a leading zero is a mistake to name, not a second URL of token 1.
      ["/api/v1/metadata/01", 400],
      ["/api/v1/tokens/007", 400],
      ["/api/v1/accounts/0x123/tokens", 400],
      ["/api/v1/accounts/not-an-address/tokens", 400],
      ["/api/v1/nfts/no-such-nft/activity", 404],
      ["/api/v1/nfts/sivajiBoss1/activity?limit=0", 400],
      ["/api/v1/nfts/sivajiBoss1/activity?limit=abc", 400],
      ["/api/v1/nfts/sivajiBoss1/activity?bogus=1", 400],
    ];
    for (const [url, status] of cases) {
      const res = await get(url);
      expect({ url, status: res.status }).toEqual({ url, status });
      expect(typeof res.body.error?.code).toBe("string");
      expect(typeof res.body.error?.message).toBe("string");
    }
    expect((await get("/api/v1/tokens/abc")).body.error.message).toContain("tokenId");
  });
});
