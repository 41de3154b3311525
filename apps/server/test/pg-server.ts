import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";

/**
 * The PostgreSQL server the platform tests run against (both engines are tested, always):
 * TEST_POSTGRES_URL, or the local server of the development machine.
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface ServerDatabase {
  /** URL of the fresh database (for child processes). */
  url: string;
  database: Database;
  dispose(): Promise<void>;
}

/** A fresh database on the PostgreSQL server, dropped by dispose(); migrated unless `migrated: false`. */
export async function createServerDatabase(opts: { migrated?: boolean } = {}): Promise<ServerDatabase> {
  const name = `diginoor_t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(TEST_POSTGRES_URL);
  dbUrl.pathname = `/${name}`;
  const url = dbUrl.toString();
  const database = await openDatabase({ url, poolSize: 10 });
  if (opts.migrated !== false) await migrate(database);
  return {
    url,
    database,
    dispose: async () => {
      await database.close();
      const a = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
