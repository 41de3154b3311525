import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { CarReader } from "@ipld/car";
import * as dagPb from "@ipld/dag-pb";
import { ANVIL_DEPLOYER_PRIVATE_KEY, ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import Ajv from "ajv";
import type { FastifyInstance } from "fastify";
import { exporter } from "ipfs-unixfs-exporter";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import { sha256 } from "multiformats/hashes/sha2";
import { parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Context, bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { createKeySender } from "../src/modules/chain/service.ts";
import { createPortabilityService } from "../src/modules/portability/service.ts";
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
 * Issue 25's "Portability": tokens minted on anvil, the IPFS export (a CAR), every CID recomputed from
 * the bytes and every file read back through the DAG and compared with what our API serves, every
 * metadata document checked against the ERC-721 metadata JSON schema, the console's exit through the
 * HTTP API, then tokenURI read from the contract names the snapshot and BatchMetadataUpdate was emitted.
 * (ethers is not installed here: the contract is read with viem's readContract.)
 */
let chain: ChainFixture;
let tdb: TestDatabase;
let app: FastifyInstance;
let ctx: Context;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-ipfs-"));
const PUBLIC_URL = ORIGIN;
/** A song over 256 KiB: several raw leaves under one dag-pb node, as `ipfs add` chunks it. */
const song = randomBytes(700_000);
const artwork = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#c0392b"/></svg>',
);
const artwork2 = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#f1c40f"/></svg>',
);
let nftWithSong: bigint;
let nftElsewhere: bigint;

/** The ERC-721 metadata JSON schema (EIP-721) with the marketplace conventions (OpenSea's metadata standard). */
const ERC721_METADATA_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Asset Metadata",
  type: "object",
  required: ["name", "description", "image", "external_url", "attributes"],
  properties: {
    name: { type: "string", minLength: 1, description: "Identifies the asset to which this NFT represents" },
    description: { type: "string", description: "Describes the asset to which this NFT represents" },
    image: {
      type: "string",
      pattern: "^(ipfs|https?)://",
      description: "A URI pointing to a resource with mime type image/*",
    },
    external_url: { type: "string", pattern: "^https?://" },
    animation_url: { type: "string", pattern: "^(ipfs|https?)://" },
    attributes: {
      type: "array",
      items: {
        type: "object",
        required: ["trait_type", "value"],
        properties: {
          trait_type: { type: "string" },
          value: { type: ["string", "number"] },
          display_type: { type: "string" },
        },
        additionalProperties: false,
      },
    },
  },
};
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  ERC721_METADATA_SCHEMA,
);

beforeAll(async () => {
  [chain, tdb] = await Promise.all([startChainFixture(), createTestDatabase()]);
  const database = tdb.database;
  await insertSivajiCatalogue(database);
  const insert = (id: string, title: string, tier: string, image: string, video: string | null) =>
    database.query<{ catalogue_number: string | number }>(
      `INSERT INTO nfts (id, title, description, tier, category, film_id, celebrity_id, production_house_id,
        image_url, video_url, thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents)
       VALUES ($1, $2, 'Sivaji walks in.', $3, 'Scene', 1, 1, 1, $4, $5, $4, 50, 50, 'fixed', 2500)
       RETURNING catalogue_number`,
      [id, title, tier, image, video],
    );
  nftWithSong = BigInt(
    (
      await insert(
        "bossSong",
        "The Boss Song",
        "legendary",
        "/media/catalogue/nfts/boss.svg",
        "/media/catalogue/songs/boss.mp4",
      )
    )[0]?.catalogue_number ?? 0,
  );
  nftElsewhere = BigInt(
    (
      await insert(
        "bossStill",
        "The Boss Still",
        "rare",
        "/media/catalogue/nfts/still.svg",
        "https://cdn.example/boss.mp4",
      )
    )[0]?.catalogue_number ?? 0,
  );
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL,
    INDEXER_POLL_MS: "100",
    // No built web app: the collection's image (its icon) stays a URL (metadata-updates.test.ts has one).
    WEB_DIST_DIR: path.join(dataDir, "no-web-build"),
  });
  ctx = await bootstrap(config, {
    database,
    // The fixture deployed with anvil's first account, which is therefore the collectible's admin.
    chain: fixtureRuntime(chain, { admin: privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY) }),
  });
  await ctx.storage.put("catalogue/nfts/boss.svg", artwork, "image/svg+xml");
  await ctx.storage.put("catalogue/nfts/still.svg", artwork2, "image/svg+xml");
  await ctx.storage.put("catalogue/songs/boss.mp4", song, "video/mp4");
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

async function indexed(ids: bigint[]): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < 10_000) {
    const codes = await Promise.all(
      ids.map(async (id) => (await app.inject(`/api/v1/tokens/${id}`)).statusCode),
    );
    if (codes.every((c) => c === 200)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the indexer did not apply the mints within 10 s");
}

const post = (url: string, cookie: string, payload: unknown) =>
  app.inject({ method: "POST", url, payload: payload as object, headers: { origin: ORIGIN, cookie } });

describe("tokens that outlive the platform (issue 25 point 1)", () => {
  it("exports a CAR whose CIDs recompute and whose files are what we serve, then exits to it on chain", async () => {
    const ids = [
      await chain.mint(1, nftWithSong, 1),
      await chain.mint(2, nftWithSong, 2),
      await chain.mint(3, nftElsewhere, 7),
    ];
    await indexed(ids);

    // The metadata our API serves: ERC-721 JSON with the traits marketplaces show.
    const served = new Map<string, Record<string, unknown>>();
    for (const id of ids) {
      const res = await app.inject(`/api/v1/metadata/${id}`);
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      const traits = (doc.attributes as { trait_type: string; value: unknown }[]).map((a) => a.trait_type);
      expect(traits).toEqual(expect.arrayContaining(["Film", "Star", "Tier", "Edition"]));
      served.set(String(id), doc);
    }
    expect(served.get(String(ids[0]))).toMatchObject({
      name: "The Boss Song #1",
      image: `${PUBLIC_URL}/media/catalogue/nfts/boss.svg`,
      animation_url: `${PUBLIC_URL}/media/catalogue/songs/boss.mp4`,
      external_url: `${PUBLIC_URL}/nftdetail/bossSong`,
    });
    // Media are served immutable from their stable URLs.
    const media = await app.inject("/media/catalogue/songs/boss.mp4");
    expect(media.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Buffer.compare(media.rawPayload, song)).toBe(0);

    // The export (what `npm run export:ipfs -- --out <file>` runs).
    const out = path.join(dataDir, "snapshot.car");
    const exported = await ctx.services.portability.exportCar(out);
    // The collection's image (metadata/contract's, the web app's icon) is not built here: it stays a URL.
    expect(exported).toMatchObject({
      tokens: 3,
      media: 3,
      external: ["https://cdn.example/boss.mp4", `${PUBLIC_URL}/favicon.svg`],
    });

    // 1. Every block's CID recomputed from its bytes (multiformats' sha256), and the CAR's one root.
    const reader = await CarReader.fromBytes(fs.readFileSync(out));
    const roots = await reader.getRoots();
    expect(roots.map(String)).toEqual([exported.root]);
    const root = roots[0] as CID;
    expect(root.version).toBe(1);
    expect(root.code).toBe(dagPb.code);
    let blocks = 0;
    for await (const block of reader.blocks()) {
      const digest = await sha256.digest(block.bytes);
      expect([raw.code, dagPb.code]).toContain(block.cid.code);
      expect(CID.create(1, block.cid.code, digest).equals(block.cid)).toBe(true);
      blocks++;
    }
    expect(blocks).toBe(exported.blocks);

    // 2. The DAG walked with ipfs-unixfs-exporter: the layout, and every file's bytes.
    const store = carStore(reader);
    const paths: string[] = [];
    // (Walked by path strings: the exporter's `recursive` trips over the CID class of @ipld/dag-pb's own
    // multiformats copy in this tree.)
    const walk = async (dir: string): Promise<void> => {
      const node = await exporter(dir, store as never);
      if (node.type !== "directory") return;
      for await (const child of node.entries()) {
        paths.push(`${dir}/${child.name}`);
        await walk(`${dir}/${child.name}`);
      }
    };
    await walk(root.toString());
    const metadataPaths = ids.map((id) => `${exported.root}/metadata/${id}`);
    expect(paths).toEqual(
      expect.arrayContaining([`${exported.root}/media`, `${exported.root}/metadata`, ...metadataPaths]),
    );
    expect(paths.filter((p) => p.startsWith(`${exported.root}/media/`))).toHaveLength(3);

    for (const id of ids) {
      const file = await exporter(`${exported.root}/metadata/${id}`, store as never);
      const bytes = await readAll(file);
      // A small file is one raw block: its CID is sha256 of its bytes, whatever library added it.
      expect(file.cid.toString()).toBe(CID.create(1, raw.code, await sha256.digest(bytes)).toString());
      const doc = JSON.parse(bytes.toString("utf8"));
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      const api = served.get(String(id)) as { image: string; animation_url?: string };
      // The same document as the API's, its media named by their own CIDs.
      const imageCid = String(doc.image).replace("ipfs://", "");
      expect(doc).toEqual({
        ...api,
        image: `ipfs://${imageCid}`,
        ...(api.animation_url ? { animation_url: doc.animation_url } : {}),
      });
      for (const [ref, url] of [
        [doc.image, api.image],
        [doc.animation_url, api.animation_url],
      ] as const) {
        if (!url) continue;
        if (!url.startsWith(`${PUBLIC_URL}/media/`)) {
          expect(ref).toBe(url); // another site's file stays its URL
          continue;
        }
        expect(ref).toMatch(/^ipfs:\/\/bafy|^ipfs:\/\/bafk/);
        const cid = CID.parse(String(ref).slice("ipfs://".length));
        // The medium is in the snapshot under media/, with that CID, and its bytes are what /media/ serves.
        const name = paths.find((p) => p.startsWith(`${exported.root}/media/${cid}`));
        expect(name).toBeDefined();
        const entry = await exporter(name as string, store as never);
        expect(entry.cid.toString()).toBe(cid.toString());
        const fromCar = await readAll(entry);
        const fromApi = (await app.inject(url.slice(PUBLIC_URL.length))).rawPayload;
        expect(Buffer.compare(fromCar, fromApi)).toBe(0);
        if (fromCar.length <= 262_144) {
          expect(cid.equals(CID.create(1, raw.code, await sha256.digest(fromCar)))).toBe(true);
        } else {
          // `ipfs add --cid-version 1`: 256 KiB raw leaves under one dag-pb node.
          expect(cid.code).toBe(dagPb.code);
          const node = dagPb.decode((await reader.get(cid))?.bytes as Uint8Array);
          expect(node.Links).toHaveLength(Math.ceil(fromCar.length / 262_144));
          expect(node.Links.every((l) => l.Hash.code === raw.code)).toBe(true);
        }
      }
    }

    // "Where it lives" (the token page's panel): what the chain has, our metadata URL before the exit.
    const location = async (id: bigint) => {
      const res = await app.inject(`/api/v1/tokens/${id}/location`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const owner = await chain.client.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "ownerOf",
      args: [ids[0] as bigint],
    });
    expect(await location(ids[0] as bigint)).toEqual({
      tokenId: String(ids[0]),
      standard: "ERC-721",
      chainId: ctx.chain?.chainId,
      chainName: "Local chain",
      contract: chain.deployment.collectible,
      owner,
      ownerHandle: null,
      tokenUri: `${PUBLIC_URL}/api/v1/metadata/${ids[0]}`,
      onIpfs: false,
      // The local chain has no explorer: no invented link.
      explorer: null,
    });
    expect((await app.inject("/api/v1/tokens/999999/location")).statusCode).toBe(404);
    // The owner's handle when the wallet is linked and the public showcase shows the token; not when hidden.
    const holder = await newSignedInUser(ctx, { name: "Boss Collector" });
    await ctx.database.query(
      "INSERT INTO wallets (address, user_id, chain_id, receives_purchases, linked_at) VALUES ($1, $2, $3, true, now())",
      [chain.address(3), holder.user.id, ctx.chain?.chainId],
    );
    const [{ handle } = { handle: "" }] = await ctx.database.query<{ handle: string }>(
      "SELECT handle FROM users WHERE id = $1",
      [holder.user.id],
    );
    expect((await location(ids[2] as bigint)).ownerHandle).toBe(handle);
    await ctx.services.social.arrangeShowcase(holder.user.id, {
      items: [{ tokenId: String(ids[2]), hidden: true }],
    });
    expect((await location(ids[2] as bigint)).ownerHandle).toBeNull();

    // 3. The console's exit: administrators only, a directory CID only.
    const admin = await newSignedInUser(ctx, { role: "admin" });
    const fan = await newSignedInUser(ctx);
    const url = "/api/v1/admin/chain/ipfs-exit";
    expect((await post(url, fan.cookie, { rootCid: exported.root })).statusCode).toBe(403);
    const notCid = await post(url, admin.cookie, { rootCid: "bafy-not-a-cid" });
    expect(notCid.statusCode).toBe(400);
    expect(notCid.json().error.code).toBe("validation_failed");
    const fileCid = await post(url, admin.cookie, {
      rootCid: CID.create(1, raw.code, await sha256.digest(song)).toString(),
    });
    expect(fileCid.statusCode).toBe(400);
    expect(fileCid.json().error.message).toMatch(/not a directory/);

    const exit = await post(url, admin.cookie, { rootCid: exported.root });
    expect(exit.statusCode, exit.body).toBe(200);
    const result = exit.json();
    expect(result).toMatchObject({
      rootCid: exported.root,
      baseUri: `ipfs://${exported.root}/metadata/`,
      batchMetadataUpdate: true,
    });

    // 4. The contract: tokenURI names the snapshot, and the transaction emitted BatchMetadataUpdate(0, max).
    for (const id of ids) {
      const uri = await chain.client.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "tokenURI",
        args: [id],
      });
      expect(uri).toBe(`ipfs://${exported.root}/metadata/${id}`);
      // …which is a file of the CAR.
      expect(paths).toContain(uri.slice("ipfs://".length));
    }
    const receipt = await chain.client.getTransactionReceipt({ hash: result.txHash });
    const events = parseEventLogs({
      abi: diginoorCollectibleAbi,
      logs: receipt.logs,
      eventName: "BatchMetadataUpdate",
    });
    expect(events.map((e) => e.args)).toEqual([{ _fromTokenId: 0n, _toTokenId: 2n ** 256n - 1n }]);

    expect(await location(ids[1] as bigint)).toMatchObject({
      tokenUri: `ipfs://${exported.root}/metadata/${ids[1]}`,
      onIpfs: true,
    });

    // The console reads where token URIs point; the exit is in the audit log.
    const where = await app.inject({
      url: "/api/v1/admin/chain/metadata",
      headers: { cookie: admin.cookie },
    });
    expect(where.json()).toMatchObject({ baseUri: `ipfs://${exported.root}/metadata/`, onIpfs: true });
    const audit = await app.inject({
      url: "/api/v1/admin/audit-log?limit=5",
      headers: { cookie: admin.cookie },
    });
    const entry = (
      audit.json().items as { action: string; subjectId: string; before: unknown; after: unknown }[]
    ).find((e) => e.action === "chain.ipfs_exit");
    expect(entry).toMatchObject({
      subjectId: exported.root,
      before: { baseUri: "http://localhost:3000/api/v1/metadata/" },
      after: { baseUri: `ipfs://${exported.root}/metadata/`, txHash: result.txHash },
    });
  }, 120_000);

  it("refuses the exit when the server's key is not the collectible's admin, naming the call for the multisig", async () => {
    const stranger = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]);
    const runtime = ctx.chain;
    if (!runtime) throw new Error("no chain");
    const service = createPortabilityService({
      tokens: ctx.services.tokens,
      storage: ctx.storage,
      publicUrl: PUBLIC_URL,
      chain: {
        chainId: runtime.chainId,
        explorerUrl: null,
        publicClient: runtime.publicClient,
        collectible: runtime.deployment.collectible,
        admin: createKeySender(runtime, stranger),
      },
    });
    const root = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";
    const err = await service.exitToIpfs(root).catch((e) => e);
    expect(err.code).toBe("conflict");
    expect(err.details).toMatchObject({
      to: runtime.deployment.collectible,
      baseUri: `ipfs://${root}/metadata/`,
    });
    expect(String(err.details.data)).toMatch(/^0x/);
  });
});
