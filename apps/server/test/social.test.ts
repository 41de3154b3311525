// Likes, follows, public profiles, showcase curation, bids and activity (issue 12, decision 151),
// and the refusals: nobody sees another's hidden showcase tokens, arranges another's showcase,
// or reads or marks another's notifications; liking twice stores one like; following oneself is refused.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Context, bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import type { ChainRuntime } from "../src/modules/chain/runtime.ts";
import { newNft, newSignedInUser } from "./factories.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

const CHAIN = 31337;
const ORIGIN = "http://localhost:3000";
let tdb: TestDatabase;
let ctx: Context;
let app: FastifyInstance;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-social-"));

beforeAll(async () => {
  tdb = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    SESSION_SECRET: "test-secret-test-secret-test-secret-123",
    // A chain id for the indexer's tables, without a chain process: nothing here calls the chain.
    WORKERS: "off",
  });
  const chain = { chainId: CHAIN, rpcUrl: "http://127.0.0.1:1", local: true, stop: async () => {} };
  ctx = await bootstrap(config, { database: tdb.database, chain: chain as unknown as ChainRuntime });
  // The web app's index.html, so pages are rendered with their meta tags.
  const dist = path.join(dataDir, "web");
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(
    path.join(dist, "index.html"),
    fs.readFileSync(new URL("../../web/index.html", import.meta.url), "utf8"),
  );
  app = await buildApp(ctx, { webDistDir: dist });
  await app.ready();
  await ctx.startWork(config.ROLE);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await ctx?.close();
  await tdb?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) =>
  tdb.database.query<T>(text, params);

async function call(method: string, url: string, cookie?: string, body?: unknown) {
  const res = await app.inject({
    method: method as "GET",
    url,
    headers: { ...(cookie ? { cookie } : {}), origin: ORIGIN },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

const newAddress = () => getAddress(`0x${randomBytes(20).toString("hex")}`);

/** A user with a linked wallet holding the given number of fresh tokens. */
async function collector(name: string, tokens: number) {
  const u = await newSignedInUser(ctx, { name });
  const address = newAddress();
  await q(
    "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, true, now())",
    [address, u.user.id, CHAIN],
  );
  const ids: string[] = [];
  for (let i = 0; i < tokens; i++) {
    const tokenId = String(BigInt(`0x${randomBytes(6).toString("hex")}`));
    await q(
      `INSERT INTO indexer_tokens (chain_id, token_id, nft_number, edition, owner, royalty_receiver, royalty_bps, minted_block)
       VALUES ($1, $2, 1, $3, $4, $4, 1000, 1)`,
      [CHAIN, tokenId, i + 1, address],
    );
    ids.push(tokenId);
  }
  const [row] = await q<{ handle: string }>("SELECT handle FROM users WHERE id = $1", [u.user.id]);
  return { ...u, address, tokens: ids, handle: row!.handle };
}

describe("handles", () => {
  it("every account has a handle from its name, shown in /me", async () => {
    const u = await newSignedInUser(ctx, { name: "Rajini Fan 1" });
    const me = await call("GET", "/api/v1/me", u.cookie);
    expect(me.body.user.handle).toMatch(/^rajini-fan-1-[0-9a-f]{6}$/);
    const tamil = await newSignedInUser(ctx, { name: "ரஜினி" });
    expect((await call("GET", "/api/v1/me", tamil.cookie)).body.user.handle).toMatch(/^fan-[0-9a-f]{6}$/);
  });
});

describe("likes", () => {
  it("liking twice stores one like; counts and my like show; unlike is idempotent", async () => {
    const nft = await newNft(ctx);
    const a = await newSignedInUser(ctx);
    const b = await newSignedInUser(ctx);
    expect((await call("PUT", `/api/v1/nfts/${nft}/like`, a.cookie)).body).toEqual({
      nftId: nft,
      count: 1,
      liked: true,
    });
    expect((await call("PUT", `/api/v1/nfts/${nft}/like`, a.cookie)).body.count).toBe(1);
    const [row] = await q<{ n: number }>("SELECT count(*)::int AS n FROM nft_likes WHERE nft_id = $1", [nft]);
    expect(row!.n).toBe(1);
    expect((await call("PUT", `/api/v1/nfts/${nft}/like`, b.cookie)).body.count).toBe(2);

    const forB = await call("GET", `/api/v1/likes?nfts=${nft},missing01`, b.cookie);
    expect(forB.body.items).toEqual([
      { nftId: nft, count: 2, liked: true },
      { nftId: "missing01", count: 0, liked: false },
    ]);
    const anonymous = await call("GET", `/api/v1/likes?nfts=${nft}`);
    expect(anonymous.body.items[0]).toEqual({ nftId: nft, count: 2, liked: false });

    expect((await call("DELETE", `/api/v1/nfts/${nft}/like`, a.cookie)).body).toEqual({
      nftId: nft,
      count: 1,
      liked: false,
    });
    expect((await call("DELETE", `/api/v1/nfts/${nft}/like`, a.cookie)).status).toBe(200);
  });

  it("refuses signed-out likes (401) and unknown NFTs (404)", async () => {
    const nft = await newNft(ctx);
    expect((await call("PUT", `/api/v1/nfts/${nft}/like`)).status).toBe(401);
    const a = await newSignedInUser(ctx);
    expect((await call("PUT", "/api/v1/nfts/nosuchnft/like", a.cookie)).status).toBe(404);
  });
});

describe("follows", () => {
  it("follows, lists, counts, notifies the followed user once, and unfollows", async () => {
    const a = await collector("Follower Anu", 0);
    const b = await collector("Star Bala", 0);
    const res = await call("PUT", `/api/v1/users/${b.handle}/follow`, a.cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      handle: b.handle,
      followers: 1,
      following: 0,
      followedByMe: true,
      isMe: false,
    });
    expect((await call("PUT", `/api/v1/users/${b.handle}/follow`, a.cookie)).body.followers).toBe(1);

    expect((await call("GET", `/api/v1/users/${b.handle}/followers`)).body.items).toEqual([
      { handle: a.handle, name: "Follower Anu", avatarUrl: null },
    ]);
    expect((await call("GET", `/api/v1/users/${a.handle}/following`)).body.items[0].handle).toBe(b.handle);
    const profile = await call("GET", `/api/v1/users/${b.handle.toUpperCase()}`, b.cookie);
    expect(profile.body).toMatchObject({ followers: 1, isMe: true, wallet: b.address });

    const bell = await call("GET", "/api/v1/notifications", b.cookie);
    expect(bell.body.items[0]).toMatchObject({
      kind: "new_follower",
      text: "Follower Anu started following you.",
      link: `/u/${a.handle}`,
    });

    await call("DELETE", `/api/v1/users/${b.handle}/follow`, a.cookie);
    await call("PUT", `/api/v1/users/${b.handle}/follow`, a.cookie);
    const again = await call("GET", "/api/v1/notifications", b.cookie);
    expect(again.body.items.filter((n: { kind: string }) => n.kind === "new_follower")).toHaveLength(1);

    const un = await call("DELETE", `/api/v1/users/${b.handle}/follow`, a.cookie);
    expect(un.body).toMatchObject({ followers: 0, followedByMe: false });
  });

  it("refuses following oneself with a clear message, and unknown handles", async () => {
    const a = await collector("Self Lover", 0);
    const res = await call("PUT", `/api/v1/users/${a.handle}/follow`, a.cookie);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("You cannot follow yourself");
    expect((await call("PUT", "/api/v1/users/nobody-000000/follow", a.cookie)).status).toBe(404);
    expect((await call("GET", "/api/v1/users/nobody-000000")).status).toBe(404);
  });
});

describe("activity", () => {
  it("lists likes and follows, filtered by the spec's tags", async () => {
    const a = await collector("Active Arun", 0);
    const b = await collector("Busy Bhavna", 0);
    const nft = await newNft(ctx);
    await call("PUT", `/api/v1/nfts/${nft}/like`, a.cookie);
    await call("PUT", `/api/v1/users/${b.handle}/follow`, a.cookie);
    const all = await call("GET", `/api/v1/users/${a.handle}/activity`);
    expect(all.body.items.map((e: { kind: string }) => e.kind).sort()).toEqual(["following", "like"]);
    const likes = await call("GET", `/api/v1/users/${a.handle}/activity?tag=likes`);
    expect(likes.body.items).toHaveLength(1);
    expect(likes.body.items[0]).toMatchObject({ kind: "like", link: `/nftdetail/${nft}` });
    const followers = await call("GET", `/api/v1/users/${b.handle}/activity?tag=followers`);
    expect(followers.body.items[0]).toMatchObject({
      kind: "follower",
      text: "Active Arun followed Busy Bhavna",
    });
    expect((await call("GET", `/api/v1/users/${a.handle}/activity?tag=nope`)).status).toBe(400);
  });
});

describe("showcase curation", () => {
  it("the owner pins, hides and orders; the public view never shows hidden tokens", async () => {
    const a = await collector("Owner Amala", 3);
    const [t1, t2, t3] = a.tokens as [string, string, string];
    const arranged = await call("PUT", "/api/v1/me/showcase", a.cookie, {
      items: [
        { tokenId: t3, pinned: false },
        { tokenId: t2, hidden: true },
        { tokenId: t1, pinned: true },
      ],
    });
    expect(arranged.status).toBe(200);
    expect(arranged.body.items.map((t: { tokenId: string }) => t.tokenId)).toEqual([t1, t3, t2]);
    expect(arranged.body.items[0]).toMatchObject({ pinned: true, hiddenFromShowcase: false });
    expect(arranged.body.items[2]).toMatchObject({ hiddenFromShowcase: true });

    const mine = await call("GET", "/api/v1/me/showcase", a.cookie);
    expect(mine.body.items).toHaveLength(3);

    const b = await collector("Onlooker Babu", 0);
    for (const cookie of [b.cookie, undefined, a.cookie]) {
      const pub = await call("GET", `/api/v1/users/${a.handle}/showcase`, cookie);
      expect(pub.status).toBe(200);
      expect(pub.body.items.map((t: { tokenId: string }) => t.tokenId)).toEqual([t1, t3]);
    }
  });

  it("nobody arranges another's showcase: tokens they do not own are refused and nothing changes", async () => {
    const a = await collector("Guarded Geetha", 2);
    const b = await collector("Meddler Mani", 1);
    await call("PUT", "/api/v1/me/showcase", a.cookie, { items: [{ tokenId: a.tokens[0], hidden: true }] });
    const res = await call("PUT", "/api/v1/me/showcase", b.cookie, {
      items: [{ tokenId: a.tokens[0], hidden: false, pinned: true }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("You can only arrange tokens you own");
    const pub = await call("GET", `/api/v1/users/${a.handle}/showcase`, b.cookie);
    expect(pub.body.items.map((t: { tokenId: string }) => t.tokenId)).toEqual([a.tokens[1]]);
    expect((await call("GET", `/api/v1/users/${b.handle}/showcase`)).body.items).toHaveLength(1);
    expect((await call("PUT", "/api/v1/me/showcase", undefined, { items: [] })).status).toBe(401);
  });
});

describe("bids", () => {
  it("each bid has its state: leading, outbid, refunded (own higher bid), won, lost", async () => {
    const a = await collector("Bidder Anil", 0);
    const b = await collector("Bidder Banu", 0);
    const seller = newAddress();
    const tokenOpen = "9001";
    const tokenSettled = "9002";
    const future = Math.floor(Date.now() / 1000) + 3600;
    for (const [tokenId, status, high, bidder] of [
      [tokenOpen, "open", "3000", b.address],
      [tokenSettled, "settled", "5000", a.address],
    ] as const) {
      await q(
        `INSERT INTO indexer_tokens (chain_id, token_id, nft_number, edition, owner, royalty_receiver, royalty_bps, minted_block)
         VALUES ($1, $2, 1, 1, $3, $3, 1000, 1)`,
        [CHAIN, tokenId, seller],
      );
      await q(
        `INSERT INTO indexer_auctions (chain_id, token_id, seller, reserve_wei, duration_days, highest_bid_wei,
           highest_bidder, ends_at, status, created_block) VALUES ($1, $2, $3, 1000, 1, $4, $5, $6, $7, 5)`,
        [CHAIN, tokenId, seller, high, bidder, future, status],
      );
    }
    let log = 0;
    const bid = (tokenId: string, bidder: string, amount: string, block: number) =>
      q(
        `INSERT INTO indexer_bids (chain_id, block_number, log_index, tx_hash, block_time, token_id, bidder, amount_wei, ends_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $9), $5, $6, $7, $8)`,
        [CHAIN, block, log++, `0x${randomBytes(32).toString("hex")}`, tokenId, bidder, amount, future, block],
      );
    await bid(tokenOpen, a.address, "2000", 10);
    await bid(tokenOpen, b.address, "3000", 11);
    await bid(tokenSettled, a.address, "4000", 12);
    await bid(tokenSettled, a.address, "5000", 13);
    await bid(tokenSettled, b.address, "4500", 14);

    const mine = await call("GET", "/api/v1/me/bids", a.cookie);
    expect(mine.body.items.map((x: { tokenId: string; state: string }) => `${x.tokenId}:${x.state}`)).toEqual(
      ["9002:won", "9002:refunded", "9001:outbid"],
    );
    expect(mine.body.items[2]).toMatchObject({
      endsAt: new Date(future * 1000).toISOString(),
      link: "/nfttransfer/9001",
    });
    const theirs = await call("GET", "/api/v1/me/bids", b.cookie);
    expect(theirs.body.items.map((x: { state: string }) => x.state)).toEqual(["lost", "leading"]);
    const bids = await call("GET", `/api/v1/users/${a.handle}/activity?tag=bids`);
    expect(bids.body.items).toHaveLength(3);
  });
});

describe("notifications are private", () => {
  it("nobody reads or marks another user's notifications", async () => {
    const a = await collector("Private Priya", 0);
    const b = await collector("Nosy Naveen", 0);
    const c = await collector("Friend Chitra", 0);
    await call("PUT", `/api/v1/users/${a.handle}/follow`, c.cookie);
    const own = await call("GET", "/api/v1/notifications", a.cookie);
    const id = own.body.items[0].id as string;
    expect(own.body.unread).toBe(1);
    expect((await call("GET", "/api/v1/notifications", b.cookie)).body.items).toEqual([]);
    expect((await call("POST", `/api/v1/notifications/${id}/read`, b.cookie)).status).toBe(404);
    await call("POST", "/api/v1/notifications/read-all", b.cookie);
    expect((await call("GET", "/api/v1/notifications", a.cookie)).body.unread).toBe(1);
    expect((await call("GET", "/api/v1/notifications")).status).toBe(401);
  });
});

describe("link previews", () => {
  const meta = (html: string, key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];

  it("a public profile's HTML carries Open Graph and Twitter card tags; an unknown handle is 404", async () => {
    const a = await collector("Preview Padma", 0);
    const res = await app.inject(`/u/${a.handle}`);
    expect(res.statusCode).toBe(200);
    expect(meta(res.body, "og:title")).toContain("Preview Padma");
    expect(meta(res.body, "og:url")).toBe(`${ORIGIN}/u/${a.handle}`);
    expect(meta(res.body, "og:description")).toContain("showcase");
    expect(meta(res.body, "twitter:card")).toBeDefined();
    expect(meta(res.body, "twitter:title")).toContain("Preview Padma");
    expect((await app.inject("/u/nobody-000000")).statusCode).toBe(404);
  });

  it("/nftshowcase/:id's HTML names the NFT, its image and its owner", async () => {
    const a = await collector("Holder Hari", 0);
    const nft = await newNft(ctx);
    const [n] = await q<{ catalogue_number: string }>(
      "SELECT catalogue_number::text FROM nfts WHERE id = $1",
      [nft],
    );
    await q(
      `INSERT INTO indexer_tokens (chain_id, token_id, nft_number, edition, owner, royalty_receiver, royalty_bps, minted_block)
       VALUES ($1, 77001, $2, 1, $3, $3, 1000, 1)`,
      [CHAIN, n!.catalogue_number, a.address],
    );
    const res = await app.inject("/nftshowcase/77001");
    expect(res.statusCode).toBe(200);
    expect(meta(res.body, "og:title")).toMatch(/^Title .* #77001, owned by Holder Hari/);
    // The NFT's link-preview card (a picture elsewhere, like /i.svg here, is left out of it).
    expect(meta(res.body, "og:image")).toMatch(
      new RegExp(`^${ORIGIN}/og/nft/${nft}\\.jpg\\?v=[0-9a-f]{16}$`),
    );
    expect(meta(res.body, "og:url")).toBe(`${ORIGIN}/nftshowcase/77001`);
    expect(meta(res.body, "twitter:image")).toBe(meta(res.body, "og:image"));
  });
});
