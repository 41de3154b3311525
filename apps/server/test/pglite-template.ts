import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate, migrationsDir } from "../src/db/migrate.ts";
import { type Baseline, readBaseline, resetToBaseline } from "./db-reset.ts";
import { createJobQueues } from "./job-queues.ts";

/**
 * A migrated PGlite (with pg-boss's schema and the job queues: job-queues.ts) is built once and kept as a data-directory
 * dump in the temp directory, keyed by the migrations and the engine versions. Every test database
 * starts from it: a new cluster costs PGlite an `initdb` (most of its boot time) plus every
 * migration, loading the dump costs neither.
 */
const nodeModules = path.resolve(import.meta.dirname, "../../../node_modules");

function templateKey(): string {
  const h = createHash("sha256");
  h.update("job queues"); // what the template holds besides the migrations (buildTemplate)
  for (const pkg of ["@electric-sql/pglite", "pg-boss"]) {
    h.update(fs.readFileSync(path.join(nodeModules, pkg, "package.json")));
  }
  for (const f of fs.readdirSync(migrationsDir).sort()) {
    h.update(f);
    h.update(fs.readFileSync(path.join(migrationsDir, f)));
  }
  return h.digest("hex").slice(0, 16);
}

let cached: Promise<Blob> | undefined;

async function buildTemplate(file: string): Promise<Blob> {
  const database = await openDatabase({});
  try {
    await migrate(database);
    await createJobQueues(database);
    const dump = await (database.raw as { client: PGlite }).client.dumpDataDir("none");
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file); // atomic: another worker never reads half a file
    return dump;
  } finally {
    await database.close();
  }
}

function template(): Promise<Blob> {
  cached ??= (async () => {
    const file = path.join(os.tmpdir(), `diginoor-pglite-template-${templateKey()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    return buildTemplate(file);
  })();
  return cached;
}

/** A new in-memory PGlite loaded from the template, migrated; not from the pool (bench/test-boot.ts). */
export async function newTemplateDatabase(): Promise<Database> {
  const database = await openDatabase({ loadDataDir: await template() });
  // Migrations newer than the dump (none, unless the key missed a change) are applied here.
  await migrate(database);
  return database;
}

/**
 * Test databases are lent from this worker's idle instances (vitest keeps one module graph per worker:
 * apps/server/vitest.config.ts): a closed test database is put back as the template had it
 * (db-reset.ts) instead of closed. Loading the template into a new PGlite took 1-1.6 s of CPU each
 * time (unpacking 44 MB, recovery, shared memory); the reset takes milliseconds. An instance whose
 * schema a test changed, or whose reset fails, is closed and never lent again.
 */
const idle: Database[] = [];
const MAX_IDLE = 3;
let baseline: Promise<Baseline> | undefined;

/** A fresh, migrated in-memory PGlite as the template has it: a reset idle one, or a new one. */
export async function openTemplateDatabase(): Promise<Database> {
  // The instance's own handle (not lent): what the reset runs on.
  const own = idle.pop() ?? (await newTemplateDatabase());
  const client = (own.raw as { client: PGlite }).client;
  baseline ??= readBaseline(own);
  await baseline;
  const lease = lend(client);
  const database = await openDatabase({ pglite: lease.client });
  return {
    ...database,
    close: async () => {
      if (!lease.end()) return;
      await lease.settled();
      let kept = false;
      try {
        // A test stopped inside a transaction leaves it open; session state (settings, locks,
        // LISTENs, prepared statements, temporary tables) goes with DISCARD ALL.
        await own.exec("ROLLBACK").catch(() => {});
        await own.exec("DISCARD ALL");
        kept = idle.length < MAX_IDLE && (await resetToBaseline(own, await (baseline as Promise<Baseline>)));
      } catch (err) {
        if (process.env.TEST_DB_RESET_DEBUG) console.error("test database reset failed", err);
      }
      if (kept) idle.push(own);
      else await own.close().catch(() => {}); // closed already if a test closed the raw client
    },
  };
}

/**
 * The instance as one test database sees it: after close, every call on it fails as on a closed
 * PGlite (a stray query of a stopped test must not reach the next test's database), and the
 * notification listeners it added are removed.
 */
function lend(client: PGlite) {
  let open = true;
  const unsubscribes: (() => unknown)[] = [];
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: T): T => {
    if (p instanceof Promise) {
      pending.add(p);
      p.then(
        () => pending.delete(p),
        () => pending.delete(p),
      );
    }
    return p;
  };
  const proxy = new Proxy(client, {
    get(target, prop) {
      if (prop === "closed") return !open || target.closed;
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (!open) throw new Error("PGlite is closed");
        if (prop === "listen") {
          const p = (value as (...a: unknown[]) => Promise<() => Promise<void>>).apply(target, args);
          return track(
            p.then((unsubscribe) => {
              unsubscribes.push(unsubscribe);
              return unsubscribe;
            }),
          );
        }
        if (prop === "onNotification") {
          const unsubscribe = (value as (...a: unknown[]) => () => void).apply(target, args);
          unsubscribes.push(unsubscribe);
          return unsubscribe;
        }
        return track((value as (...a: unknown[]) => unknown).apply(target, args));
      };
    },
  });
  return {
    client: proxy,
    /** Ends the lease; false if it had ended. */
    end(): boolean {
      if (!open) return false;
      open = false;
      return true;
    },
    /** Waits for the calls made during the lease, then removes its listeners. */
    async settled(): Promise<void> {
      await Promise.allSettled([...pending]);
      for (const u of unsubscribes.splice(0)) await Promise.resolve(u()).catch(() => {});
    },
  };
}
