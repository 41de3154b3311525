import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate, migrationsDir } from "../src/db/migrate.ts";
import { type Baseline, type ResetConnection, readBaseline, resetToBaseline } from "./db-reset.ts";
import { createJobQueues } from "./job-queues.ts";

/**
 * The PostgreSQL server the tests that need one run against, in the PostgreSQL pass (passes.ts):
 * TEST_POSTGRES_URL, else DATABASE_URL's server, else the local server of the development machine.
 */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface ServerDatabase {
  /** URL of the fresh database (for child processes). */
  url: string;
  database: Database;
  dispose(): Promise<void>;
}

async function withAdmin<T>(serverUrl: string, run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

const urlOf = (serverUrl: string, name: string) => {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

/** The migrations' names and contents: a template made from other migrations is not used. */
function migrationsHash(): string {
  const h = createHash("sha256");
  h.update("job queues"); // what the template holds besides the migrations (migratedTemplate)
  for (const f of fs.readdirSync(migrationsDir).sort())
    h.update(f).update(fs.readFileSync(`${migrationsDir}/${f}`));
  return h.digest("hex").slice(0, 12);
}

const templates = new Map<string, Promise<string>>();

/**
 * A migrated database, with the job queues (job-queues.ts), to copy (CREATE DATABASE … TEMPLATE): about 160 ms a copy against 430 ms to
 * migrate a new one, and the suite makes hundreds. Made once per server and set of migrations, by
 * the first test process to need it (an advisory lock keeps the others waiting); published under its
 * final name only once migrated. Templates of older migrations are dropped.
 */
function migratedTemplate(serverUrl: string): Promise<string> {
  let t = templates.get(serverUrl);
  if (!t) {
    t = withAdmin(serverUrl, async (admin) => {
      const name = `diginoor_tpl_${migrationsHash()}`;
      await admin.query("SELECT pg_advisory_lock(hashtext('diginoor test template'))");
      try {
        const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (exists.rowCount) return name;
        const old = await admin.query<{ datname: string }>(
          "SELECT datname FROM pg_database WHERE datname LIKE 'diginoor\\_tpl\\_%'",
        );
        for (const { datname } of old.rows)
          await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
        const building = `${name}_building`;
        await admin.query(`CREATE DATABASE ${building}`);
        // Several connections: a start takes one for its exclusive pg-boss install and queries beside it.
        const database = await openDatabase({ url: urlOf(serverUrl, building), poolSize: 4 });
        try {
          await migrate(database);
          await createJobQueues(database);
        } finally {
          await database.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        return name;
      } finally {
        await admin.query("SELECT pg_advisory_unlock(hashtext('diginoor test template'))");
      }
    });
    templates.set(serverUrl, t);
    t.catch(() => templates.delete(serverUrl));
  }
  return t;
}

/**
 * A fresh database on the PostgreSQL server at `serverUrl`, dropped by dispose(): a copy of the
 * migrated template, or empty with `migrated: false`.
 */
export async function createDatabaseOn(
  serverUrl: string,
  opts: { migrated?: boolean } = {},
): Promise<ServerDatabase> {
  const name = `diginoor_t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const template = opts.migrated === false ? undefined : await migratedTemplate(serverUrl);
  await withAdmin(serverUrl, (admin) =>
    admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`),
  );
  const url = urlOf(serverUrl, name);
  const database = await openDatabase({ url, poolSize: 10 });
  return {
    url,
    database,
    dispose: async () => {
      await database.close();
      await withAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A fresh database on the test PostgreSQL server, dropped by dispose(); migrated unless `migrated: false`. */
export function createServerDatabase(opts: { migrated?: boolean } = {}): Promise<ServerDatabase> {
  return createDatabaseOn(TEST_POSTGRES_URL, opts);
}

/**
 * The test run (global-setup.ts): the databases a run lends are named after it, and its teardown
 * drops them. Without it (a benchmark using the harness) nothing is lent: every database is dropped.
 */
const RUN = process.env.DIGINOOR_TEST_RUN;
const LENT_PREFIX = "diginoor_l_";
const MAX_IDLE = 3;
const idleDatabases = new Map<string, string[]>();
const baselines = new Map<string, Promise<Baseline>>();

/** Runs `fn` on one connection to `url` (a session of its own), then disconnects. */
async function onOneConnection<T>(url: string, fn: (conn: ResetConnection) => Promise<T>): Promise<T> {
  const database = await openDatabase({ url, poolSize: 1 });
  try {
    return await database.exclusive(fn);
  } finally {
    await database.close();
  }
}

/**
 * A migrated database on the server at `serverUrl` for one test (the harness's createTestDatabase),
 * as the template has it: one this worker used before and put back (db-reset.ts), or a new copy. A
 * copy and its drop cost the server about 0.85 s (CREATE DATABASE writes the copy to the WAL, DROP
 * DATABASE waits for a checkpoint); the reset, tens of milliseconds. Put back on dispose only when
 * no connection to it is left (a test's LISTEN client, a server process) and its schema is the
 * template's; else dropped.
 */
export async function leaseDatabaseOn(serverUrl: string): Promise<ServerDatabase> {
  if (!RUN) return createDatabaseOn(serverUrl);
  const idle = idleDatabases.get(serverUrl) ?? [];
  idleDatabases.set(serverUrl, idle);
  let name = idle.pop();
  if (!name) {
    name = `${LENT_PREFIX}${RUN}_${process.pid}_${randomBytes(4).toString("hex")}`;
    const template = await migratedTemplate(serverUrl);
    await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  }
  const url = urlOf(serverUrl, name);
  let baseline = baselines.get(serverUrl);
  if (!baseline) {
    // Read from a database nobody has used yet: this one, when it is the first.
    baseline = onOneConnection(url, readBaseline);
    baselines.set(serverUrl, baseline);
    baseline.catch(() => baselines.delete(serverUrl));
  }
  await baseline;
  const database = await openDatabase({ url, poolSize: 10 });
  const leased = name;
  return {
    url,
    database,
    dispose: async () => {
      await database.close();
      let kept = false;
      try {
        kept =
          idle.length < MAX_IDLE &&
          (await onOneConnection(url, async (conn) => {
            const [others] = await conn.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
            );
            return others?.n === 0 && resetToBaseline(conn, await (baseline as Promise<Baseline>));
          }));
      } catch (err) {
        if (process.env.TEST_DB_RESET_DEBUG) console.error("test database reset failed", err);
      }
      if (kept) idle.push(leased);
      else
        await withAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${leased} WITH (FORCE)`));
    },
  };
}

/** Drops the databases test run `run` lent (its global teardown). */
export async function dropLentDatabases(serverUrl: string, run: string): Promise<void> {
  await withAdmin(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [`${LENT_PREFIX}${run}_`],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
