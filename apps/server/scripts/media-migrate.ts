// `npm run media:migrate [-- --from <dir>]`: copies the media files of a local directory (default
// DATA_DIR/media) into the storage STORAGE names (postgres or s3), under the same keys, so the URLs
// in the database keep working. Run it once when moving from one machine to several; it is safe to
// run again (objects already stored are skipped).
import { parseArgs } from "node:util";
import { loadConfigOrExit } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { migrateLocalMedia } from "../src/modules/media/migrate.ts";
import { openStorage } from "../src/modules/media/storage.ts";

async function main() {
  const { values } = parseArgs({ options: { from: { type: "string" } } });
  const config = loadConfigOrExit();
  const from = values.from ?? config.paths.media;
  if (config.STORAGE === "local") {
    console.error(
      "STORAGE is local (DATABASE_URL unset and STORAGE not given): set STORAGE=postgres or STORAGE=s3 to migrate into it.",
    );
    process.exit(1);
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.paths.pglite,
    poolSize: 2,
  });
  try {
    await migrate(database);
    const storage = openStorage(config, database);
    const started = Date.now();
    const report = await migrateLocalMedia(from, storage);
    console.log(
      `Media from ${from} into ${config.STORAGE} storage: ${report.copied} copied (${(report.bytes / 1_048_576).toFixed(1)} MiB), ${report.present} already there, ${report.skipped.length} skipped, in ${Date.now() - started} ms.`,
    );
    for (const s of report.skipped) console.log(`  skipped (not a storage key): ${s}`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
