import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CarReader } from "@ipld/car";
import { ANVIL_DEPLOYER_PRIVATE_KEY, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { MINTER_ROLE } from "@diginoor/contracts/deploy";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import type { FastifyInstance } from "fastify";
import { exporter } from "ipfs-unixfs-exporter";
import { getAddress, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Context, bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { refreshMetadataJob, refreshRanges } from "../src/modules/portability/service.ts";
import {
  type ChainFixture,
  fixtureRuntime,
  insertSivajiCatalogue,
  startChainFixture,
} from "./chain-fixture.ts";
import { carStore, readAll } from "./car-files.ts";
import { newSignedInUser } from "./factories.ts";
import { ORIGIN } from "./fixtures/accounts.ts";
import { createTestDatabase, type TestDatabase } from "./harness.ts";

/**
 * Issue 37 point 1 (ERC-4906 kept) and point 6 (contractURI), on anvil and this pass's engine: a console edit
 * of an NFT, its film, its star or its studio that changes what minted tokens' metadata says leads to one
 * refreshMetadata transaction from the minter key (MetadataUpdate for a lone token, BatchMetadataUpdate for a
 * run), an edit that changes nothing of the metadata to none; a royalty change on chain emits MetadataUpdate
 * itself; the IPFS exit runs again after such changes, with a new root holding the new metadata.
 * Before the change: no event at all after the edits, and contractURI() reverted.
 */
let chain: ChainFixture;
let tdb: TestDatabase;
let app: FastifyInstance | undefined;
let ctx: Context;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-4906-"));
/** The built web app, as far as the snapshot reads it: the collection's image. */
const webDir = path.join(dataDir, "web");
const icon = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
);
fs.mkdirSync(webDir);
fs.writeFileSync(path.join(webDir, "favicon.svg"), icon);
/** The minter key the server holds: anvil account 1, given MINTER_ROLE, never the admin. */
const minterKey = privateKeyToAccount(ANVIL_PRIVATE_KEYS[1]);
const MAX = 2n ** 256n - 1n;
let nftA = "";
let nftC = "";
/** Token ids: A#1, B#1, A#2, A#3 (one film, star and studio), then C#1 (another film, star and studio). */
let ids: bigint[] = [];

beforeAll(async () => {
  [chain, tdb] = await Promise.all([startChainFixture(), createTestDatabase()]);
  const database = tdb.database;
  await insertSivajiCatalogue(database);
  await database.query(
    "INSERT INTO production_houses (slug, name, logo_url) VALUES ('lyca', 'Lyca Productions', '/l2.svg')",
  );
  await database.query(`INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
    VALUES ('enthiran', 'Enthiran', '/p.svg', '/b.svg', '/t.svg', 2)`);
  await database.query("INSERT INTO celebrities (slug, name) VALUES ('aishwarya', 'Aishwarya Rai')");
  const insert = async (id: string, title: string, film: number, star: number, house: number) =>
    BigInt(
      (
        await database.query<{ catalogue_number: string | number }>(
          `INSERT INTO nfts (id, title, description, tier, category, film_id, celebrity_id, production_house_id,
            image_url, thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents)
           VALUES ($1, $2, 'Sivaji walks in.', 'rare', 'Scene', $3, $4, $5, '/media/a.svg', '/media/a.svg', 50, 50, 'fixed', 2500)
           RETURNING catalogue_number`,
          [id, title, film, star, house],
        )
      )[0]?.catalogue_number ?? 0,
    );
  nftA = "bossEntry";
  nftC = "robotDance";
  const a = await insert(nftA, "The Boss Entry", 1, 1, 1);
  const b = await insert("bossExit", "The Boss Exit", 1, 1, 1);
  const c = await insert(nftC, "Robot Dance", 2, 2, 2);
  // The server's minter key holds MINTER_ROLE only (granted by the admin, anvil account 0).
  await chain.send(0, "collectible", "grantRole", [MINTER_ROLE, minterKey.address]);
  ids = [
    await chain.mint(2, a, 1),
    await chain.mint(2, b, 1),
    await chain.mint(3, a, 2),
    await chain.mint(3, a, 3),
    await chain.mint(4, c, 1),
  ];
  await start("all");
  await ctx.storage.put("a.svg", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), "image/svg+xml");
  await until(async () => {
    const codes = await Promise.all(
      ids.map(async (id) => (await http().inject(`/api/v1/tokens/${id}`)).statusCode),
    );
    return codes.every((c) => c === 200);
  }, "the indexer to apply the mints");
}, 90_000);

/** A server process of `role` on the test's database and chain (ctx, and app unless a worker). */
async function start(role: "all" | "api" | "worker"): Promise<void> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    INDEXER_POLL_MS: "100",
    ROLE: role,
    WEB_DIST_DIR: webDir,
  });
  ctx = await bootstrap(config, {
    database: tdb.database,
    chain: fixtureRuntime(chain, {
      minter: minterKey,
      admin: privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY),
    }),
  });
  app = undefined;
  if (role !== "worker") {
    app = await buildApp(ctx, { webDistDir: "/nonexistent" });
    await app.ready();
  }
  await ctx.startWork(role);
}

/** The HTTP app of the running process (not a worker's). */
function http(): FastifyInstance {
  if (!app) throw new Error("no HTTP app in a worker process");
  return app;
}

async function stop(): Promise<void> {
  await app?.close();
  await ctx?.close();
}

afterAll(async () => {
  await stop();
  await chain?.stop();
  await tdb?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function until(ok: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Announced = { event: string; args: Record<string, unknown>; from: string };

/** The collectible's ERC-4906/7572 events since `fromBlock`, with each transaction's sender. */
async function announcedSince(fromBlock: bigint): Promise<Announced[]> {
  // Nothing mined since: no log (anvil refuses a fromBlock above its head).
  if (fromBlock > (await chain.client.getBlockNumber())) return [];
  const logs = await chain.client.getLogs({ address: chain.deployment.collectible, fromBlock });
  const parsed = parseEventLogs({ abi: diginoorCollectibleAbi, logs }).filter((l) =>
    ["MetadataUpdate", "BatchMetadataUpdate", "ContractURIUpdated"].includes(l.eventName),
  );
  const out: Announced[] = [];
  for (const l of parsed) {
    const tx = await chain.client.getTransaction({ hash: l.transactionHash });
    out.push({ event: l.eventName, args: l.args as Record<string, unknown>, from: getAddress(tx.from) });
  }
  return out;
}

async function refreshJobs(): Promise<number> {
  let n = 0;
  for (const state of ["created", "retry", "active", "completed", "failed"] as const) {
    n += (await ctx.jobs.list(state, refreshMetadataJob.name, 1000)).length;
  }
  return n;
}

/**
 * Waits until an edit's refresh job exists (the count went past `before`: it may reach the queue a moment
 * after the edit's answer) and every refresh job has run. Without the first wait a slow PostgreSQL pass saw
 * an empty queue before the job arrived, and the event then landed in the next test's window.
 */
async function refreshedAfter(before: number): Promise<void> {
  await until(async () => (await refreshJobs()) > before, "the edit's metadata refresh job");
  await refreshesDone();
}

async function refreshesDone(): Promise<void> {
  await until(async () => {
    const pending = await Promise.all(
      (["created", "retry", "active"] as const).map((s) => ctx.jobs.list(s, refreshMetadataJob.name, 10)),
    );
    return pending.every((p) => p.length === 0);
  }, "the metadata refresh jobs");
  expect(await ctx.jobs.list("failed", refreshMetadataJob.name, 10)).toEqual([]);
}

async function admin() {
  return newSignedInUser(ctx, { role: "admin" });
}

function patch(url: string, cookie: string, payload: object) {
  return http().inject({ method: "PATCH", url, payload, headers: { origin: ORIGIN, cookie } });
}

async function block(): Promise<bigint> {
  return (await chain.client.getBlockNumber()) + 1n;
}

describe("ERC-4906: what changes a token's metadata is announced on chain (issue 37 point 1)", () => {
  it("groups the affected minted tokens into runs", () => {
    const tokens = [1n, 2n, 3n, 4n, 5n, 2n ** 64n + 1n, 2n ** 64n + 2n].map((tokenId, i) => ({
      tokenId,
      catalogueNumber: [1, 2, 1, 1, 3, 1, 1][i] as number,
    }));
    expect(refreshRanges(tokens, new Set([1]))).toEqual([
      { fromTokenId: 1n, toTokenId: 1n },
      { fromTokenId: 3n, toTokenId: 4n },
      { fromTokenId: 2n ** 64n + 1n, toTokenId: 2n ** 64n + 2n },
    ]);
    expect(refreshRanges(tokens, new Set([9]))).toEqual([]);
    // Over the cap: one range from the first to the last affected token.
    expect(refreshRanges(tokens, new Set([1]), 2)).toEqual([{ fromTokenId: 1n, toTokenId: 2n ** 64n + 2n }]);
  });

  it("a console edit of an NFT's description: MetadataUpdate and BatchMetadataUpdate over its minted tokens, from the minter key", async () => {
    const { cookie } = await admin();
    const jobs = await refreshJobs();
    const from = await block();
    const res = await patch(`/api/v1/admin/nfts/${nftA}`, cookie, {
      description: "The Boss, restored in 4K.",
    });
    expect(res.statusCode, res.body).toBe(200);
    await refreshedAfter(jobs);
    await until(async () => (await announcedSince(from)).length >= 2, "the two announcements");
    // A's tokens are ids[0], ids[2], ids[3]; B's ids[1] sits between them.
    expect(await announcedSince(from)).toEqual([
      { event: "MetadataUpdate", args: { _tokenId: ids[0] }, from: minterKey.address },
      {
        event: "BatchMetadataUpdate",
        args: { _fromTokenId: ids[2], _toTokenId: ids[3] },
        from: minterKey.address,
      },
    ]);
    expect((await http().inject(`/api/v1/metadata/${ids[2]}`)).json().description).toBe(
      "The Boss, restored in 4K.",
    );
  }, 60_000);

  it("an edit that changes nothing tokenURI serves (the price) enqueues nothing and sends nothing", async () => {
    const { cookie } = await admin();
    const jobs = await refreshJobs();
    const from = await block();
    const res = await patch(`/api/v1/admin/nfts/${nftA}`, cookie, { priceUsdCents: 9900 });
    expect(res.statusCode, res.body).toBe(200);
    expect(await refreshJobs()).toBe(jobs);
    expect(await announcedSince(from)).toEqual([]);
  }, 60_000);

  it("renaming the star, the film or the studio announces every minted token that names it, batched", async () => {
    const { cookie } = await admin();
    const whole = { event: "BatchMetadataUpdate", args: { _fromTokenId: ids[0], _toTokenId: ids[3] } };
    for (const [url, body, trait, value] of [
      ["/api/v1/admin/celebrities/1", { name: "Superstar Rajinikanth" }, "Star", "Superstar Rajinikanth"],
      ["/api/v1/admin/films/1", { name: "Sivaji: The Boss" }, "Film", "Sivaji: The Boss"],
      ["/api/v1/admin/studios/1", { name: "AVM" }, "Production house", "AVM"],
    ] as const) {
      const jobs = await refreshJobs();
      const from = await block();
      const res = await patch(url, cookie, body);
      expect(res.statusCode, res.body).toBe(200);
      await refreshedAfter(jobs);
      await until(async () => (await announcedSince(from)).length >= 1, "the announcement");
      // A and B (ids[0..3]) share the star, film and studio; C (ids[4]) does not.
      expect(await announcedSince(from)).toEqual([{ ...whole, from: minterKey.address }]);
      const doc = (await http().inject(`/api/v1/metadata/${ids[1]}`)).json();
      expect(doc.attributes).toContainEqual({ trait_type: trait, value });
    }
  }, 90_000);

  it("an on-chain royalty change (10% to 5%) emits MetadataUpdate itself; our metadata follows", async () => {
    const from = await block();
    await chain.send(0, "collectible", "setTokenRoyalty", [ids[4], chain.address(9), 500]);
    expect(await announcedSince(from)).toEqual([
      { event: "MetadataUpdate", args: { _tokenId: ids[4] }, from: getAddress(chain.address(0)) },
    ]);
    await until(async () => {
      const doc = (await http().inject(`/api/v1/metadata/${ids[4]}`)).json();
      return doc.attributes.some(
        (a: { trait_type: string; value: unknown }) => a.trait_type === "Royalty" && a.value === 5,
      );
    }, "the indexer to apply the royalty");
  }, 60_000);
});

describe("contractURI (ERC-7572, issue 37 point 6)", () => {
  it("names the collection's metadata, which the server serves", async () => {
    const uri = await chain.client.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "contractURI",
    });
    expect(uri).toBe("http://localhost:3000/api/v1/metadata/contract");
    const res = await http().inject(new URL(uri).pathname);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.json()).toEqual({
      name: "Diginoor Collectible",
      symbol: "DGNR",
      description: expect.stringMatching(/Indian films/),
      image: `${ORIGIN}/favicon.svg`,
      external_link: ORIGIN,
      seller_fee_basis_points: 1000,
    });
    const again = await http().inject({
      url: new URL(uri).pathname,
      headers: { "if-none-match": String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe("the IPFS exit runs again after tokens changed (issue 37 point 1)", () => {
  const exportSnapshot = async (name: string) => {
    const out = path.join(dataDir, name);
    const exported = await ctx.services.portability.exportCar(out);
    const reader = await CarReader.fromBytes(fs.readFileSync(out));
    const store = carStore(reader);
    const read = async (p: string) =>
      JSON.parse((await readAll(await exporter(`${exported.root}/${p}`, store as never))).toString("utf8"));
    const bytes = async (p: string) => readAll(await exporter(`${exported.root}/${p}`, store as never));
    return { root: exported.root, read, bytes };
  };
  const exit = async (rootCid: string, cookie: string) => {
    const res = await http().inject({
      method: "POST",
      url: "/api/v1/admin/chain/ipfs-exit",
      payload: { rootCid },
      headers: { origin: ORIGIN, cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { txHash: `0x${string}`; baseUri: string };
  };
  const royaltyOf = (doc: { attributes: { trait_type: string; value: unknown }[] }) =>
    doc.attributes.find((a) => a.trait_type === "Royalty")?.value;

  it("exports, exits, then after a royalty change and a console edit exports a new root with them and exits again", async () => {
    const { cookie } = await admin();
    const first = await exportSnapshot("first.car");
    const collection = await first.read("metadata/contract");
    expect(collection).toMatchObject({ name: "Diginoor Collectible", seller_fee_basis_points: 1000 });
    // The collection's image is in the snapshot too, named by its CID, its bytes the web app's icon.
    const iconCid = String(collection.image).replace(/^ipfs:\/\//, "");
    expect(collection.image).toMatch(/^ipfs:\/\/baf/);
    expect(Buffer.compare(await first.bytes(`media/${iconCid}.svg`), icon)).toBe(0);
    expect(royaltyOf(await first.read(`metadata/${ids[0]}`))).toBe(10);
    await exit(first.root, cookie);
    expect(
      await chain.client.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "contractURI",
      }),
    ).toBe(`ipfs://${first.root}/metadata/contract`);

    // After the exit: the royalty of ids[0] goes to 5% on chain, and the console edits NFT A's description.
    await chain.send(0, "collectible", "setTokenRoyalty", [ids[0], chain.address(9), 500]);
    const edit = await patch(`/api/v1/admin/nfts/${nftA}`, cookie, {
      description: "Now with the 5% royalty.",
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await refreshesDone();
    await until(
      async () => royaltyOf((await http().inject(`/api/v1/metadata/${ids[0]}`)).json()) === 5,
      "the royalty",
    );
    // The pinned copy still says what it said: the snapshot is a point in time.
    expect(royaltyOf(await first.read(`metadata/${ids[0]}`))).toBe(10);

    const second = await exportSnapshot("second.car");
    expect(second.root).not.toBe(first.root);
    const doc = await second.read(`metadata/${ids[0]}`);
    expect(royaltyOf(doc)).toBe(5);
    expect(doc.description).toBe("Now with the 5% royalty.");
    expect((await second.read(`metadata/${ids[2]}`)).description).toBe("Now with the 5% royalty.");

    const from = await block();
    const result = await exit(second.root, cookie);
    expect(result.baseUri).toBe(`ipfs://${second.root}/metadata/`);
    const receipt = await chain.client.getTransactionReceipt({ hash: result.txHash });
    const events = parseEventLogs({ abi: diginoorCollectibleAbi, logs: receipt.logs }).map(
      (e) => e.eventName,
    );
    expect(events).toEqual(
      expect.arrayContaining(["BaseURIUpdated", "BatchMetadataUpdate", "ContractURIUpdated"]),
    );
    expect(await announcedSince(from)).toContainEqual(
      expect.objectContaining({ event: "BatchMetadataUpdate", args: { _fromTokenId: 0n, _toTokenId: MAX } }),
    );
    expect(
      await chain.client.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "tokenURI",
        args: [ids[0] as bigint],
      }),
    ).toBe(`ipfs://${second.root}/metadata/${ids[0]}`);
  }, 120_000);
});

describe("durable (issue 37 point 1): the refresh outlives the process that took the edit", () => {
  it("an API process enqueues it with the edit and stops before any worker ran it; the next worker sends it", async () => {
    await stop();
    await start("api");
    const { cookie } = await admin();
    const from = await block();
    const res = await patch(`/api/v1/admin/nfts/${nftC}`, cookie, { title: "Robot Dance (4K)" });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ctx.jobs.list("created", refreshMetadataJob.name, 10)).toHaveLength(1);
    await stop();
    expect(await announcedSince(from)).toEqual([]);
    await start("worker");
    await refreshesDone();
    expect(await announcedSince(from)).toEqual([
      { event: "MetadataUpdate", args: { _tokenId: ids[4] }, from: minterKey.address },
    ]);
  }, 90_000);
});
