import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Queryable } from "./query.ts";

/** The Drizzle handle every repository uses; the same type on PGlite and on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database extends Queryable {
  db: Db;
  kind: "pglite" | "postgres";
  /** The engine's own handle, for the platform pieces that need it (transactions, jobs, LISTEN/NOTIFY). */
  raw: { kind: "pglite"; client: PGlite } | { kind: "postgres"; pool: pg.Pool };
  /** Runs a multi-statement SQL script (migrations). */
  exec(script: string): Promise<void>;
  /** Runs one parameterised query and returns its rows (raw access for the migrator and LISTEN-free tools). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** Runs `fn` on one dedicated connection (session-level locks, explicit transactions). */
  exclusive<T>(fn: (conn: Pick<Database, "exec" | "query">) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * Name of a prepared statement (PostgreSQL server only): each connection parses and plans the
   * text once and reuses it. The same name must always carry the same text.
   */
  name?: string;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string;
  /** PGlite data directory; `memory://` (or undefined) keeps it in memory. */
  dataDir?: string;
  /** PGlite: start from this data directory dump (`dumpDataDir()`) instead of an empty cluster. */
  loadDataDir?: Blob;
  /** node-postgres pool size. */
  poolSize?: number;
  /** PGlite: this open instance instead of a new one (the tests lend one from a pool: pglite-template.ts). */
  pglite?: PGlite;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 20 });
    // Bigints (count(*), int8) come back as strings from pg; numeric columns we use are int4/int8 within 2^53.
    pg.types.setTypeParser(20, (v) => Number(v));
    pool.on("error", () => {
      /* idle client errors are reported on next use */
    });
    // A connection checked out of the pool (a transaction, the indexer's lock) has no listener of
    // the pool's: when the server goes away (a restart closes every connection) the client emits
    // 'error' even between queries, and an unhandled 'error' ended the whole process (found by
    // test/fault-postgres.test.ts). The queries still fail with the error, and the pool drops a
    // client that is no longer queryable when it is released.
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    const db = drizzlePg(pool) as unknown as Db;
    return {
      db,
      kind: "postgres",
      raw: { kind: "postgres", pool },
      exec: async (script) => {
        await pool.query(script);
      },
      query: async (text, params, opts) =>
        (await pool.query({ text, values: params as unknown[], name: opts?.name })).rows,
      exclusive: async (fn) => {
        const client = await pool.connect();
        try {
          return await fn({
            exec: async (script) => {
              await client.query(script);
            },
            query: async (text, params) => (await client.query(text, params as unknown[])).rows,
          });
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const dir = opts.dataDir && opts.dataDir !== "memory://" ? opts.dataDir : undefined;
  if (dir) fs.mkdirSync(path.dirname(dir), { recursive: true });
  const unlock = dir ? lockDataDir(dir) : () => {};
  let client: PGlite;
  try {
    client =
      opts.pglite ??
      (await PGlite.create({
        ...(dir ? { dataDir: dir } : {}),
        ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
        extensions: await pgliteExtensions(),
      }));
  } catch (err) {
    unlock();
    throw err;
  }
  const db = drizzlePglite(client) as unknown as Db;
  const conn: Pick<Database, "exec" | "query"> = {
    exec: async (script) => {
      await client.exec(script);
    },
    query: async (text, params) => (await client.query(text, params)).rows as never,
  };
  // PGlite is one connection already.
  return {
    db,
    kind: "pglite",
    raw: { kind: "pglite", client },
    ...conn,
    exclusive: (fn) => fn(conn),
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

/** A second process opened an embedded database that a running process (a server) holds. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (a running server). ` +
        "PGlite serves one process at a time: what another process writes there is lost. Stop that " +
        "process and run this again, or run both against a PostgreSQL server (DATABASE_URL).",
    );
  }
}

/**
 * PGlite keeps its database in the memory of the one process that opened it and writes it back to the
 * directory, so a second process (`npm run admin:create` beside a running server) would change a copy
 * that the first one then overwrites. The owner's pid sits in `<dir>.pid`; another opener is refused
 * while that process lives. A pid file left by a process that died is taken over.
 */
function lockDataDir(dir: string): () => void {
  const file = `${dir}.pid`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(fs.readFileSync(file, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DatabaseInUseError(dir, pid);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}
