// `npm run backup -- --out <file>`: a consistent backup of the database DATABASE_URL or DATA_DIR
// names (pg_dump for a PostgreSQL server; PGlite's data directory and DATA_DIR/media otherwise).
// `npm run restore -- --in <file>` puts it back into an empty database (src/platform/backup.ts).
import { parseArgs } from "node:util";
import { loadConfigOrExit } from "../src/config.ts";
import { BackupError, backup, restore } from "../src/platform/backup.ts";

async function main() {
  const mode = process.argv[2];
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { out: { type: "string" }, in: { type: "string" } },
  });
  const config = loadConfigOrExit();
  if (mode === "backup") {
    if (!values.out) throw new BackupError("usage: npm run backup -- --out <file>");
    const r = await backup(config, values.out);
    console.log(
      `Backup (${r.engine}) written to ${r.file}: ${(r.bytes / 1_048_576).toFixed(1)} MiB${r.engine === "pglite" ? `, ${r.mediaFiles} media files` : ""}, in ${r.ms} ms.`,
    );
  } else if (mode === "restore") {
    if (!values.in) throw new BackupError("usage: npm run restore -- --in <file>");
    const r = await restore(config, values.in);
    console.log(
      `Restored the ${r.engine} backup${r.mediaFiles ? ` and ${r.mediaFiles} media files` : ""} in ${r.ms} ms.`,
    );
  } else {
    throw new BackupError("usage: backup.ts backup --out <file> | restore --in <file>");
  }
}

main().catch((err) => {
  if (err instanceof BackupError) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
