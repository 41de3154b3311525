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
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from "../src/modules/accounts/password.ts";
import {
  benchConfig,
  forkServer,
  freshPostgres,
  type Measured,
  measure,
  repoRoot,
  serveParent,
  stopServer,
  writeDocs,
} from "./support.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ACCOUNTS = 200;
const PASSWORD = "bench-password-123";
const BENCH_DB = "diginoor_bench_auth";

async function runServer() {
  const url = process.env.BENCH_DATABASE_URL || undefined;
  const database = await openDatabase({ url, dataDir: process.env.BENCH_PGLITE_DIR, poolSize: 10 });
  const config = benchConfig({
    DATA_DIR: path.join(os.tmpdir(), "diginoor-bench-auth"),
    // The bench plays many clients from one machine: it names each one in X-Forwarded-For.
    TRUST_PROXY: "true",
  });
  await serveParent(config, database);
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
  const fresh = await freshPostgres(BENCH_DB);
  if (fresh) return fresh;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-bench-auth-pglite-"));
  return {
    pgliteDir: dir,
    engine: "PGlite (no PostgreSQL server reachable)",
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
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

async function main() {
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

  let child: ChildProcess | undefined;
  try {
    const server = await forkServer(import.meta.url, {
      BENCH_DATABASE_URL: chosen.url ?? "",
      BENCH_PGLITE_DIR: chosen.pgliteDir ?? "",
    });
    child = server.child;
    const base = server.base;

    let counter = 0;
    const login = await measure(
      {
        url: `${base}/api/v1/auth/login`,
        connections: 16,
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
      },
      DURATION,
    );
    console.log(`sign-in: ${login.rps.toFixed(1)} req/s, p50 ${login.p50} ms, non-2xx ${login.non2xx}`);

    const res = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.1" },
      body: JSON.stringify({ email: "bench1@example.com", password: PASSWORD }),
    });
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
    if (!cookie.startsWith("diginoor_session=")) throw new Error(`no session cookie: ${res.status}`);

    const get = (p: string, headers: Record<string, string> = {}) =>
      measure({ url: base + p, connections: 50, headers }, DURATION);
    const health = await get("/healthz");
    const meRun = await get("/api/v1/me", { cookie });
    const anon = await get("/api/v1/me");
    console.log(`/healthz ${health.rps.toFixed(0)} req/s; /me ${meRun.rps.toFixed(0)} req/s`);

    const perCheckUs = (1 / meRun.rps - 1 / health.rps) * 1e6;
    const date = new Date().toISOString().slice(0, 10);
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const fmt = (r: Measured) => `${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors}`;
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
| GET /api/v1/me without a cookie (401, no query) | ${anon.rps.toFixed(0)} | ${anon.p50} | ${anon.p99} | (all 401 by design) |

A session check is one indexed read (sessions ⋈ users by the SHA-256 of the cookie; last_seen_at is
written at most once a minute), about ${perCheckUs.toFixed(0)} µs of server time per request over the baseline.
`;
    const file = writeDocs("## Accounts", section);
    console.log(`Wrote ${path.relative(repoRoot, file)}`);
  } finally {
    if (child) await stopServer(child);
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
