import { type Database, openDatabase } from "../src/db/client.ts";
import { createServerDatabase } from "./pg-server.ts";

/**
 * The server tests run in two passes, one per database engine, and CI runs both (README, `.ci/run`):
 *
 * - the PGlite pass, `npm test` with no DATABASE_URL: every test on the embedded database;
 * - the PostgreSQL pass, `DATABASE_URL=… npm test -- --project server`: the same tests on the server.
 *
 * Each test runs in the pass of the engine it tests, once. What needs a PostgreSQL server (two
 * processes on one database, the crash and fault tests, pg_dump) runs only in the PostgreSQL pass, on
 * DATABASE_URL's server; what is PGlite's own (its lock, its data directory's backup, a first
 * `npm start`) or opens no database at all (lint checks) runs only in the PGlite pass. So `npm test`
 * needs no service, and neither pass repeats the other's work.
 */
export const postgresPass = !!process.env.DATABASE_URL;

/** This pass's engine by name, and how to open an empty (unmigrated) database on it: `describe.each`'s table. */
export const engineOfThisPass: Array<
  [string, () => Promise<{ database: Database; dispose(): Promise<void> }>]
> = postgresPass
  ? [["postgres", () => createServerDatabase({ migrated: false })]]
  : [
      [
        "pglite",
        async () => {
          const database = await openDatabase({});
          return { database, dispose: () => database.close() };
        },
      ],
    ];
