// `npm run bench:auth`: the cost of accounts on the real server.
//  1. argon2id hash and verify time at the chosen cost (m=19456 KiB, t=2, p=1), in this process.
//  2. Sign-in throughput: POST /api/v1/auth/login with correct passwords for 200 accounts, through
//     autocannon at 16 connections. The server runs in production mode in a child process; each
//     request carries its own X-Forwarded-For (trusted via TRUST_PROXY here) so the per-address limit
//     does not cap the figure — the limits are not relaxed, the load is spread like real traffic.
//  3. Session check cost: authenticated GET /api/v1/me versus GET /healthz on the same server.
// Writes the figures to the "## Accounts" section of docs/benchmarks.md.
//
// Database: DATABASE_URL if set, else the PostgreSQL server at postgresql://postgres@127.0.0.1:5432
// if reachable (fresh database `diginoor_bench_auth`, dropped at the end), else PGlite in a
// temporary directory (the server child opens it after this process has closed it).
import { fork } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import type { AppContext } from "../src/context.ts";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from "../src/modules/auth/password.ts";

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ACCOUNTS = 200;
const PASSWORD = "bench-password-123";
const DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test";
const BENCH_DB = "diginoor_bench_auth";

async function runServer() {
  const url = process.env.BENCH_DATABASE_URL || undefined;
  const database = await openDatabase({ url, dataDir: process.env.BENCH_PGLITE_DIR, poolSize: 10 });
  const config = loadConfig({
    NODE_ENV: "production",
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
    LOG_LEVEL: "silent",
    DATA_DIR: path.join(os.tmpdir(), "diginoor-bench-auth"),
    PORT: "0",
    HOST: "127.0.0.1",
    CHAIN_DISABLED: "1",
    SEED_ON_START: "0",
    // The bench plays many clients from one machine: it names each one in X-Forwarded-For.
    TRUST_PROXY: "true",
  });
  const ctx: AppContext = { config, database, db: database.db };
  const app = await buildApp(ctx, { webDistDir: "/nonexistent" });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
  process.on("message", async (m) => {
    if (m === "stop") {
      await app.close();
      await database.close();
      process.exit(0);
    }
  });
}

async function chooseDatabase(): Promise<{
  url?: string;
  pgliteDir?: string;
  engine: string;
  drop: () => Promise<void>;
}> {
  if (process.env.DATABASE_URL) {
    return {
      url: process.env.DATABASE_URL,
      engine: "PostgreSQL server (DATABASE_URL)",
      drop: async () => {},
    };
  }
  const admin = new pg.Client({ connectionString: DEFAULT_SERVER, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-bench-auth-pglite-"));
    return {
      pgliteDir: dir,
      engine: "PGlite (no PostgreSQL server reachable)",
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]
    ?.server_version;
  await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${BENCH_DB}`);
  await admin.end();
  const url = new URL(DEFAULT_SERVER);
  url.pathname = `/${BENCH_DB}`;
  return {
    url: url.toString(),
    engine: `PostgreSQL ${version ?? ""} server (fresh database ${BENCH_DB})`,
    drop: async () => {
      const a = new pg.Client({ connectionString: DEFAULT_SERVER });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
      await a.end();
    },
  };
}

async function timeHashes(n = 20) {
  await hashPassword("warm-up-password");
  let t0 = performance.now();
  let hash = "";
  for (let i = 0; i < n; i++) hash = await hashPassword(`password-number-${i}`);
  const hashMs = (performance.now() - t0) / n;
  t0 = performance.now();
  for (let i = 0; i < n; i++) await verifyPassword(hash, `password-number-${n - 1}`);
  const verifyMs = (performance.now() - t0) / n;
  // Throughput with 4 verifications in flight (libuv's default pool size).
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = 0; i < n / 2; i++) await verifyPassword(hash, "wrong-password");
    }),
  );
  const verifyPerSecond = (2 * n) / ((performance.now() - t0) / 1000);
  return { hashMs, verifyMs, verifyPerSecond };
}

function writeDocs(section: string) {
  const file = path.join(repoRoot, "docs", "benchmarks.md");
  let text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = text.search(/^## Accounts\s*$/m);
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

async function main() {
  const autocannon = require("autocannon") as Autocannon;
  const chosen = await chooseDatabase();
  console.log(`Database: ${chosen.engine}`);
  const load = os.loadavg()[0] ?? 0;
  const { hashMs, verifyMs, verifyPerSecond } = await timeHashes();
  console.log(`argon2id hash ${hashMs.toFixed(1)} ms, verify ${verifyMs.toFixed(1)} ms`);

  // Accounts: verified, same password (one hash is enough; each row stores its own copy).
  const setup = await openDatabase({ url: chosen.url, dataDir: chosen.pgliteDir });
  await migrate(setup);
  const hash = await hashPassword(PASSWORD);
  await setup.query(
    `INSERT INTO users (name, email, password_hash, email_verified_at)
     SELECT 'Bench ' || g, 'bench' || g || '@example.com', $1, now() FROM generate_series(1, ${ACCOUNTS}) g`,
    [hash],
  );
  await setup.close();

  const child = fork(fileURLToPath(import.meta.url), [], {
    env: {
      ...process.env,
      BENCH_ROLE: "server",
      BENCH_DATABASE_URL: chosen.url ?? "",
      BENCH_PGLITE_DIR: chosen.pgliteDir ?? "",
    },
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once("message", (m) => resolve((m as { port: number }).port));
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;

    let counter = 0;
    const loginRun = (duration: number) =>
      autocannon({
        url: `${base}/api/v1/auth/login`,
        connections: 16,
        duration,
        requests: [
          {
            method: "POST",
            setupRequest: (req: Record<string, unknown>) => {
              counter++;
              return {
                ...req,
                headers: {
                  "content-type": "application/json",
                  "x-forwarded-for": `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`,
                },
                body: JSON.stringify({
                  email: `bench${(counter % ACCOUNTS) + 1}@example.com`,
                  password: PASSWORD,
                }),
              };
            },
          },
        ],
      });
    await loginRun(2);
    const login = await loginRun(DURATION);
    console.log(
      `sign-in: ${login.requests.average.toFixed(1)} req/s, p50 ${login.latency.p50} ms, non-2xx ${login.non2xx}`,
    );

    const res = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.1" },
      body: JSON.stringify({ email: "bench1@example.com", password: PASSWORD }),
    });
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
    if (!cookie.startsWith("diginoor_session=")) throw new Error(`no session cookie: ${res.status}`);

    const get = async (p: string, headers: Record<string, string> = {}) => {
      await autocannon({ url: base + p, connections: 50, duration: 2, headers });
      return autocannon({ url: base + p, connections: 50, duration: DURATION, headers });
    };
    const health = await get("/healthz");
    const meRun = await get("/api/v1/me", { cookie });
    const anon = await get("/api/v1/me");
    console.log(
      `/healthz ${health.requests.average.toFixed(0)} req/s; /me ${meRun.requests.average.toFixed(0)} req/s`,
    );

    const perCheckUs = (1 / meRun.requests.average - 1 / health.requests.average) * 1e6;
    const date = new Date().toISOString().slice(0, 10);
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const fmt = (r: AutocannonResult) =>
      `${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors + r.timeouts}`;
    const section = `## Accounts

Measured ${date} with \`npm run bench:auth\` on ${os.cpus().length} × ${cpu}, Node ${process.version}.
Database: ${chosen.engine}. Server in production mode in its own process; autocannon in the parent.

**Password hashing** (argon2id, m=${ARGON2_OPTIONS.memoryCost} KiB, t=${ARGON2_OPTIONS.timeCost}, p=${ARGON2_OPTIONS.parallelism}, the OWASP minimum):
hash ${hashMs.toFixed(1)} ms, verify ${verifyMs.toFixed(1)} ms per password (mean of 20, one at a time);
${verifyPerSecond.toFixed(0)} verifications/s with four in flight (the most this machine does at this cost).
Load average when the run started: ${load.toFixed(2)} (other work on the machine lowers every figure).

**Sign-in throughput** — \`POST /api/v1/auth/login\` with the right password, ${ACCOUNTS} accounts,
16 connections, ${DURATION} s, each request from its own address (X-Forwarded-For) so the per-address
limit does not cap it; each sign-in does two rate-limit upserts, one user read, one argon2id verify,
one session insert:

| route | req/s | p50 ms | p99 ms | non-2xx/errors |
|---|---|---|---|---|
| POST /api/v1/auth/login | ${fmt(login)} |

Sign-in is bound by argon2id (run on libuv's worker pool, off the event loop): its ceiling is the
${verifyPerSecond.toFixed(0)} verifications/s above, shared here with PostgreSQL and autocannon on the same cores.
Other requests stay responsive meanwhile because hashing never blocks the event loop.

**Cost of a session check** — 50 connections, ${DURATION} s each:

| route | req/s | p50 ms | p99 ms | non-2xx/errors |
|---|---|---|---|---|
| GET /healthz (baseline, no database) | ${fmt(health)} |
| GET /api/v1/me with a session cookie | ${fmt(meRun)} |
| GET /api/v1/me without a cookie (401, no query) | ${anon.requests.average.toFixed(0)} | ${anon.latency.p50} | ${anon.latency.p99} | (all 401 by design) |

A session check is one indexed read (sessions ⋈ users by the SHA-256 of the cookie; last_seen_at is
written at most once a minute), about ${perCheckUs.toFixed(0)} µs of server time per request over the baseline.
`;
    const file = writeDocs(section);
    console.log(`Wrote ${path.relative(repoRoot, file)}`);
  } finally {
    if (child.exitCode === null) {
      child.send("stop");
      await new Promise((r) => child.once("exit", r));
    }
    await chosen.drop();
  }
}

if (process.env.BENCH_ROLE === "server") {
  runServer().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
