import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ANVIL_ADDRESSES, ANVIL_DEPLOYER_PRIVATE_KEY } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { toOrderId } from "@diginoor/contracts/voucher";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/harness.ts";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { createPlatform } from "../../platform/index.ts";
import { type ChainRuntime, startChain } from "./runtime.ts";

describe("GET /api/v1/metadata/:tokenId", () => {
  let tdb: TestDatabase;
  let chain: ChainRuntime;
  let app: FastifyInstance;
  let catalogueNumber: bigint;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-meta-"));

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PUBLIC_URL: "https://diginoor.example",
    });
    chain = (await startChain(config, tdb.database.db, () => {}))!;
    const db = tdb.database.db;
    await db.execute(
      sql`INSERT INTO production_houses (slug, name, logo_url) VALUES ('avm', 'AVM Productions', '/l.svg')`,
    );
    await db.execute(sql`INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url, production_house_id)
      VALUES ('sivaji', 'Sivaji', '/p.svg', '/b.svg', '/t.svg', 1)`);
    await db.execute(sql`INSERT INTO celebrities (slug, name) VALUES ('rajinikanth', 'Rajinikanth')`);
    const rows = await tdb.database.query<{ catalogue_number: string | number }>(
      `INSERT INTO nfts (id, title, description, tier, category, film_id, celebrity_id, production_house_id,
        image_url, thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents)
       VALUES ('sivajiBoss1', 'The Boss Entry', 'Sivaji walks in.', 'rare', 'Scene', 1, 1, 1,
        '/media/catalogue/boss.svg', '/media/catalogue/boss-t.svg', 50, 50, 'fixed', 2500)
       RETURNING catalogue_number`,
    );
    catalogueNumber = BigInt(rows[0]!.catalogue_number);
    const wallet = createWalletClient({
      account: privateKeyToAccount(ANVIL_DEPLOYER_PRIVATE_KEY),
      chain: foundry,
      transport: http(chain.rpcUrl),
    });
    const hash = await wallet.writeContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "mintForOrder",
      args: [ANVIL_ADDRESSES[3]!, catalogueNumber, 7, ANVIL_ADDRESSES[4]!, toOrderId(42n)],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    app = await buildApp(
      { config, database: tdb.database, db, chain, ...createPlatform(config, tdb.database) },
      { webDistDir: "/nonexistent" },
    );
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await chain?.stop();
    await tdb.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("points tokenURI at this endpoint and serves the catalogue NFT's metadata", async () => {
    // The contract emits the token id it minted for the order.
    const logs = await chain.publicClient.getContractEvents({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      eventName: "CollectibleMinted",
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    const id = logs[0]!.args.tokenId!;
    const uri = await chain.publicClient.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "tokenURI",
      args: [id],
    });
    expect(uri).toBe(`https://diginoor.example/api/v1/metadata/${id}`);

    const res = await app.inject(`/api/v1/metadata/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.name).toBe("The Boss Entry #7");
    expect(body.image).toBe("https://diginoor.example/media/catalogue/boss.svg");
    expect(body.external_url).toBe("https://diginoor.example/nftdetail/sivajiBoss1");
    expect(body.attributes).toContainEqual({ trait_type: "Rarity", value: "Rare" });
    expect(body.attributes).toContainEqual({ trait_type: "Film", value: "Sivaji" });
    expect(body.attributes).toContainEqual({
      trait_type: "Royalty",
      value: 10,
      display_type: "boost_percentage",
    });
  });

  it("answers 404 for a token that does not exist and 400 for a malformed id", async () => {
    expect((await app.inject("/api/v1/metadata/999999")).statusCode).toBe(404);
    const bad = await app.inject("/api/v1/metadata/abc");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain("tokenId");
  });
});
