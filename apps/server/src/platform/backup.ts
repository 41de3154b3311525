import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Config } from "../config.ts";

const run = promisify(execFile);

/**
 * Backups of the whole server state (issue 26, docs/operations.md):
 * - PostgreSQL server (DATABASE_URL): `pg_dump --format=custom`, one consistent snapshot of every
 *   schema (the app's tables, media objects with STORAGE=postgres, the pg-boss queue); restored
 *   with `pg_restore` into an empty database.
 * - PGlite (DATA_DIR): PGlite's own data directory dump (a consistent copy: the database is opened
 *   alone, so nothing writes meanwhile), plus DATA_DIR/media with STORAGE=local, in one tar.gz.
 * Objects in S3 (STORAGE=s3) are not copied: the bucket keeps its own versions.
 */

export type BackupEngine = "postgres" | "pglite";

export interface BackupReport {
  engine: BackupEngine;
  file: string;
  bytes: number;
  /** Files of DATA_DIR/media included (PGlite with STORAGE=local). */
  mediaFiles: number;
  ms: number;
}

/** The first bytes of a pg_dump custom-format archive. */
const PG_DUMP_MAGIC = "PGDMP";
const MANIFEST = "diginoor-backup.json";

export class BackupError extends Error {}

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(dir, f)).isFile(),
  ).length;
}

export async function backup(config: Config, out: string): Promise<BackupReport> {
  const started = Date.now();
  const file = path.resolve(out);
  if (fs.existsSync(file)) throw new BackupError(`${file} exists already; name a new file`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (config.DATABASE_URL) {
    await run(
      "pg_dump",
      ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, config.DATABASE_URL],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return {
      engine: "postgres",
      file,
      bytes: fs.statSync(file).size,
      mediaFiles: 0,
      ms: Date.now() - started,
    };
  }
  if (!fs.existsSync(path.join(config.paths.pglite, "PG_VERSION"))) {
    throw new BackupError(`no PGlite database in ${config.paths.pglite}`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-backup-"));
  try {
    // Opening the data directory fails while a server has it open (PGlite is one process): stop
    // the server first. The dump is taken with nothing else writing, so it is consistent.
    const db = await PGlite.create({ dataDir: config.paths.pglite });
    try {
      await db.query("CHECKPOINT");
      const dump = await db.dumpDataDir("gzip");
      fs.writeFileSync(path.join(work, "pglite.tar.gz"), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await db.close();
    }
    const withMedia = config.STORAGE === "local" && fs.existsSync(config.paths.media);
    const mediaFiles = withMedia ? countFiles(config.paths.media) : 0;
    if (withMedia) fs.cpSync(config.paths.media, path.join(work, "media"), { recursive: true });
    fs.writeFileSync(
      path.join(work, MANIFEST),
      JSON.stringify({ engine: "pglite", media: withMedia, at: new Date().toISOString() }),
    );
    await run("tar", ["-czf", file, "-C", work, "."]);
    return { engine: "pglite", file, bytes: fs.statSync(file).size, mediaFiles, ms: Date.now() - started };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export interface RestoreReport {
  engine: BackupEngine;
  mediaFiles: number;
  ms: number;
}

function engineOf(file: string): BackupEngine {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(5);
    fs.readSync(fd, head, 0, 5, 0);
    return head.toString("latin1") === PG_DUMP_MAGIC ? "postgres" : "pglite";
  } finally {
    fs.closeSync(fd);
  }
}

/** Tables, sequences, views or non-system schemas in the database: restore refuses a non-empty one. */
async function userObjects(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
          AND n.nspname NOT LIKE 'pg_temp%'`,
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** Restores a backup into the database DATABASE_URL or DATA_DIR names, which must be empty. */
export async function restore(config: Config, input: string): Promise<RestoreReport> {
  const started = Date.now();
  const file = path.resolve(input);
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist`);
  const engine = engineOf(file);
  if (engine === "postgres") {
    if (!config.DATABASE_URL)
      throw new BackupError("this is a PostgreSQL backup: set DATABASE_URL to an empty database");
    const existing = await userObjects(config.DATABASE_URL);
    if (existing > 0) {
      throw new BackupError(
        `the database DATABASE_URL names is not empty (${existing} tables, sequences or views): restore only into a new database`,
      );
    }
    await run(
      "pg_restore",
      [
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        "--single-transaction",
        `--dbname=${config.DATABASE_URL}`,
        file,
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return { engine, mediaFiles: 0, ms: Date.now() - started };
  }
  if (config.DATABASE_URL)
    throw new BackupError("this is a PGlite backup: unset DATABASE_URL and set DATA_DIR");
  const target = config.paths.pglite;
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
    throw new BackupError(`${target} is not empty: restore only into a new DATA_DIR`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-restore-"));
  try {
    await run("tar", ["-xzf", file, "-C", work]);
    const manifestFile = path.join(work, MANIFEST);
    if (!fs.existsSync(manifestFile)) throw new BackupError(`${file} is not a Diginoor backup`);
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { engine: string; media: boolean };
    if (manifest.engine !== "pglite")
      throw new BackupError(`${file}: unknown backup engine ${manifest.engine}`);
    const media = path.join(work, "media");
    const mediaFiles = manifest.media ? countFiles(media) : 0;
    if (manifest.media && config.STORAGE === "local") {
      if (fs.existsSync(config.paths.media) && fs.readdirSync(config.paths.media).length > 0) {
        throw new BackupError(`${config.paths.media} is not empty: restore only into a new DATA_DIR`);
      }
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const dump = new Blob([fs.readFileSync(path.join(work, "pglite.tar.gz"))]);
    const db = await PGlite.create({ dataDir: target, loadDataDir: dump });
    await db.query("SELECT 1");
    await db.close();
    if (manifest.media && config.STORAGE === "local")
      fs.cpSync(media, config.paths.media, { recursive: true });
    return { engine, mediaFiles, ms: Date.now() - started };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
