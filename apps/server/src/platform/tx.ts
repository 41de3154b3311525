import type { PGlite, Transaction as PgliteTransaction } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type pg from "pg";
import type { Database, Db } from "../db/client.ts";
import type { Queryable } from "../db/query.ts";

/**
 * One open transaction. Everything that must commit or roll back together goes through `db`
 * (Drizzle) or `query` (raw SQL) of this handle, never through the Database it came from:
 * on PGlite there is one connection, and a query outside the handle waits for the transaction
 * to end, which never happens (a deadlock).
 */
export interface Tx extends Queryable {
  readonly kind: Database["kind"];
  /** Drizzle bound to the transaction. */
  readonly db: Db;
  /** Raw parameterised SQL inside the transaction. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `fn` once the transaction has committed (never after a rollback): wake a job worker,
   * publish an in-process message. Errors are reported to `onAfterCommitError`, not rethrown:
   * the transaction has already committed.
   */
  afterCommit(fn: () => void | Promise<void>): void;
}

export interface TransactionOptions {
  /** Called when an after-commit callback throws; defaults to console.error. */
  onAfterCommitError?: (err: unknown) => void;
}

const TX = Symbol("diginoor.tx");

/** True when `v` is a transaction handle (so services can accept either a Database or a Tx). */
export function isTx(v: unknown): v is Tx {
  return typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[TX] === true;
}

/**
 * Runs `fn` in one transaction on either engine. Given a Tx instead of a Database, joins it
 * (no nested transaction, no savepoint): a service that needs atomicity can be called from
 * another service's transaction.
 */
export async function withTransaction<T>(
  on: Database | Tx,
  fn: (tx: Tx) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  if (isTx(on)) return fn(on);
  const hooks: Array<() => void | Promise<void>> = [];
  const raw = on.raw;
  const result =
    raw.kind === "pglite"
      ? await raw.client.transaction((t) => fn(pgliteTx(t, hooks)))
      : await postgresTransaction(raw.pool, hooks, fn);
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      (opts.onAfterCommitError ?? console.error)(err);
    }
  }
  return result;
}

function pgliteTx(t: PgliteTransaction, hooks: Array<() => void | Promise<void>>): Tx {
  // Drizzle's PGlite session only calls `query` on its client, which a PGlite transaction has.
  const db = drizzlePglite({ client: t as unknown as PGlite }) as unknown as Db;
  return {
    [TX]: true,
    kind: "pglite",
    db,
    query: async (text, params) => (await t.query(text, params)).rows as never,
    afterCommit: (fn) => {
      hooks.push(fn);
    },
  } as Tx;
}

async function postgresTransaction<T>(
  pool: pg.Pool,
  hooks: Array<() => void | Promise<void>>,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // Set when the connection may be left inside a transaction: the pool then drops it.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const tx = {
      [TX]: true,
      kind: "postgres",
      db: drizzlePg(client) as unknown as Db,
      query: async (text: string, params?: unknown[]) => (await client.query(text, params)).rows,
      afterCommit: (hook: () => void | Promise<void>) => {
        hooks.push(hook);
      },
    } as Tx;
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      await client.query("ROLLBACK").catch((rollbackErr: Error) => {
        broken = rollbackErr;
      });
      throw err;
    }
    try {
      await client.query("COMMIT");
    } catch (err) {
      // A COMMIT the server refused has ended the transaction; a lost connection has not.
      if ((err as { code?: string }).code === undefined) broken = err as Error;
      throw err;
    }
    return result;
  } finally {
    client.release(broken);
  }
}
