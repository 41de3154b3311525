import path from "node:path";
import { buildApp } from "./app.ts";
import { startChain } from "./modules/chain/runtime.ts";
import { ConfigError, loadConfig } from "./config.ts";
import type { AppContext } from "./context.ts";
import { openDatabase } from "./db/client.ts";
import { createPlatform } from "./platform/index.ts";
import { migrate } from "./db/migrate.ts";
import { seedCatalogue } from "../seed/seed.ts";

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.DATA_DIR, "pglite"),
  });
  const applied = await migrate(database);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  if (config.SEED_ON_START) {
    const seed = await seedCatalogue(database.db, { mediaDir: path.join(config.DATA_DIR, "media") });
    if (seed.seeded) {
      console.log(`Seeded the catalogue: ${seed.counts.nfts} NFTs in ${seed.counts.films} films`);
    }
  }

  const chain = await startChain(config, database.db, (m) => console.log(m));
  const ctx: AppContext = { config, database, db: database.db, chain, ...createPlatform(config, database) };
  const app = await buildApp(ctx);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await app.close();
    await chain?.stop();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? "PostgreSQL server" : `embedded PGlite in ${config.DATA_DIR}`;
  const onChain = chain ? `, chain ${chain.chainId}${chain.local ? " (local anvil)" : ""}` : "";
  console.log(`\nDiginoor is running at ${config.PUBLIC_URL}  (database: ${where}${onChain})\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
