// What the benchmark scripts share: a fresh PostgreSQL database, the real server (in a child process or in
// this one), autocannon runs, and the writing of their section of docs/benchmarks.md.
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { buildApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import { bootstrap } from "../src/bootstrap.ts";

const require = createRequire(import.meta.url);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test";

// ─── database ───────────────────────────────────────────────────────────────

/**
 * A fresh database `name` on the PostgreSQL server at postgresql://postgres@127.0.0.1:5432 (dropped first if it
 * exists), or undefined when no server is reachable. `drop` removes it again.
 */
export async function freshPostgres(
  name: string,
): Promise<{ url: string; engine: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: DEFAULT_SERVER, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]
    ?.server_version;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(DEFAULT_SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    engine: `PostgreSQL ${version ?? ""} server (fresh database ${name})`.replace("  ", " "),
    drop: async () => {
      const a = new pg.Client({ connectionString: DEFAULT_SERVER });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

// ─── server ─────────────────────────────────────────────────────────────────

/** The server as benchmarked: production mode, silent, chain off; `env` adds or overrides settings. */
export function benchConfig(env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: "production",
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
    // Production requires SMTP; the benchmarked routes send no mail, so nothing ever connects here.
    SMTP_URL: "smtp://127.0.0.1:2525",
    LOG_LEVEL: "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    CHAIN_DISABLED: "1",
    SEED_ON_START: "0",
    ...env,
  });
}

/** Starts the real server on `database` at a free port of 127.0.0.1. */
export async function listen(config: Config, database: Database) {
  const ctx = await bootstrap(config, { database });
  const app = await buildApp(ctx, { webDistDir: "/nonexistent" });
  app.addHook("onClose", () => ctx.close());
  await app.ready();
  await ctx.startWork(config.ROLE);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  return { app, port: typeof address === "object" && address ? address.port : 0 };
}

/** In the server child (see forkServer): serves, tells the parent its port, and stops when told. */
export async function serveParent(config: Config, database: Database) {
  const { app, port } = await listen(config, database);
  process.send?.({ port });
  process.on("message", async (m) => {
    if (m === "stop") {
      await app.close();
      await database.close();
      process.exit(0);
    }
  });
}

/**
 * Runs `script` again in a child process with BENCH_ROLE=server (plus `env`) and waits for the port it
 * reports; returns the child and the server's base URL.
 */
export async function forkServer(script: string, env: Record<string, string>) {
  const child = fork(fileURLToPath(script), [], {
    env: { ...process.env, BENCH_ROLE: "server", ...env },
    // BENCH_SERVER_NODE_FLAGS adds Node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
    execArgv: ["--import", "tsx", ...(process.env.BENCH_SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean)],
    stdio: "inherit",
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Stops a server child started by forkServer, if it still runs. */
export async function stopServer(child: ChildProcess) {
  if (child.exitCode === null) {
    child.send("stop");
    await new Promise((r) => child.once("exit", r));
  }
}

// ─── measuring ──────────────────────────────────────────────────────────────

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** non-2xx answers, errors and timeouts together */
  errors: number;
}

/**
 * Runs autocannon with `opts` (url, connections, headers, requests…) for 2 s to warm up (JIT, connection pool,
 * PostgreSQL caches), then for `duration` s, and returns the figures of the second run.
 */
export async function measure(opts: Record<string, unknown>, duration: number): Promise<Measured> {
  const autocannon = require("autocannon") as Autocannon;
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

/** CPU seconds (user + system) each of the processes `pids` has used so far (Linux /proc; gone: absent). */
export function cpuSeconds(pids: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // USER_HZ
    } catch {
      // gone, or not Linux
    }
  }
  return out;
}

/**
 * CPU seconds the processes used between the snapshot `before` and now; a process started since counts
 * from 0, one gone since counts nothing (its last seconds are lost: a slight undercount).
 */
export function cpuSince(before: Map<number, number>, pids: Iterable<number>): number {
  let total = 0;
  for (const [pid, now] of cpuSeconds(pids)) total += now - (before.get(pid) ?? 0);
  return total;
}

/** The PostgreSQL backends connected to the database of `url` (their process ids). */
export async function backendPids(url: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return r.rows.map((x) => x.pid);
  } finally {
    await c.end();
  }
}

// ─── docs ───────────────────────────────────────────────────────────────────

/** Replaces the `heading` section of docs/benchmarks.md with `section` (appends it when absent). */
export function writeDocs(heading: string, section: string) {
  const file = path.join(repoRoot, "docs", "benchmarks.md");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  // The heading is literal text ("## Live notifications (SSE)" has regex characters).
  const literal = heading.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const start = text.search(new RegExp(`^${literal}\\s*$`, "m"));
  if (start === -1) {
    text = `${text.replace(/\s*$/, "")}\n\n${section}`;
  } else {
    const rest = text.slice(start + 1);
    const next = rest.search(/^## /m);
    const end = next === -1 ? text.length : start + 1 + next;
    text = `${text.slice(0, start)}${section}${next === -1 ? "" : "\n"}${text.slice(end)}`;
  }
  fs.writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
  return file;
}
