// `npm run seed`: migrates the configured database and creates the launch catalogue if it is empty.
import path from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { seedCatalogue } from "./seed.ts";

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
  const where = config.DATABASE_URL
    ? "PostgreSQL server"
    : `PGlite in ${path.join(config.DATA_DIR, "pglite")}`;
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.DATA_DIR, "pglite"),
  });
  try {
    const applied = await migrate(database);
    if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
    const mediaDir = path.join(config.DATA_DIR, "media");
    const started = Date.now();
    const result = await seedCatalogue(database.db, { mediaDir });
    const c = result.counts;
    if (result.seeded) {
      console.log(
        `Seeded the catalogue (${where}): ${c.nfts} NFTs, ${c.films} films, ${c.celebrities} stars, ${c.studios} studios, ${c.collections} collections, ${c.team} team members.`,
      );
    } else {
      console.log(`The catalogue already has data (${where}); nothing inserted.`);
    }
    console.log(
      `Artwork: ${result.artworkFilesWritten} file(s) written to ${mediaDir} (existing files kept), in ${Date.now() - started} ms.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
