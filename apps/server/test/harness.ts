import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config.ts";
import type { AppContext } from "../src/context.ts";
import type { Database } from "../src/db/client.ts";
import type { Clock } from "../src/platform/clock.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { type ChainRuntime, startChain } from "../src/modules/chain/runtime.ts";
import { startAnvil } from "@diginoor/contracts/anvil";
import { ANVIL_DEPLOYER_PRIVATE_KEY } from "@diginoor/contracts/anvil-accounts";
import { openTemplateDatabase } from "./pglite-template.ts";
import { leaseDatabaseOn } from "./pg-server.ts";

export interface TestDatabase {
  database: Database;
  /** Gives the database back: reset for another test, or dropped (server) or closed (PGlite). */
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite by default, or a new database
 * on the server named by DATABASE_URL; either may be one another test used, reset to the template
 * (db-reset.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openTemplateDatabase();
    return { database, dispose: () => database.close() };
  }
  return leaseDatabaseOn(url);
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

/** A full server on a fresh database, for app.inject() tests. `env` overrides configuration. */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: {
    clock?: Clock;
    /** Start a fresh anvil (on a free port) with our contracts deployed, as ctx.chain. */
    chain?: boolean;
    /** How often idle job workers look for work (default 0.5 s; production's is 2 s). */
    jobPollingSeconds?: number;
  } = {},
): Promise<TestApp> {
  const { database, dispose } = await createTestDatabase();
  const anvil = opts.chain ? await startAnvil({}) : undefined;
  const dataDir = `/tmp/diginoor-test-${process.pid}-${randomBytes(4).toString("hex")}`;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: "http://localhost:3000",
    SESSION_SECRET: "test-secret-test-secret-test-secret-123",
    // Tests of other things buy freely in rupees; the KYC tests set their own limit (decision 175).
    KYC_INR_YEARLY_LIMIT_PAISE: "100000000000",
    ...(anvil
      ? { CHAIN_RPC_URL: anvil.rpcUrl, DEPLOYER_PRIVATE_KEY: ANVIL_DEPLOYER_PRIVATE_KEY }
      : { CHAIN_DISABLED: "1" }),
    ...env,
  });
  let chain: ChainRuntime | undefined;
  if (anvil) {
    try {
      chain = await startChain(config, database.db, () => {});
    } catch (err) {
      await anvil.stop();
      await dispose();
      throw err;
    }
  }
  const ctx = await bootstrap(config, {
    database,
    chain: chain ?? null,
    clock: opts.clock,
    pollingIntervalSeconds: opts.jobPollingSeconds ?? 0.5,
  });
  const app = await buildApp(ctx, { webDistDir: env.WEB_DIST_DIR ?? "/nonexistent" });
  await app.ready();
  await ctx.startWork(config.ROLE);
  return {
    app,
    ctx,
    config,
    close: async () => {
      await app.close();
      await ctx.close();
      await anvil?.stop();
      await dispose();
    },
  };
}
