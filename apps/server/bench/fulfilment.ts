// `npm run bench:fulfilment`: card orders from the payment webhook to a token minted and confirmed on a
// real anvil, through the whole server (HTTP routes, pg-boss jobs at their production polling interval,
// the indexer at its default poll), on PGlite and on the PostgreSQL server.
//  1. Webhook handling: 200 signed `payment.succeeded` events delivered at once (16 in flight) through
//     the HTTP stack, then the same 200 again (duplicates); baseline: GET /healthz at the same concurrency
//     in the same run.
//  2. Webhook → minted and confirmed: per order, from the `paid` transition (written when the webhook is
//     accepted) to `fulfilled` (written when the indexer has applied the mint): median and p95 over
//     200 orders, (a) paid in one burst, (b) paid at a steady 5 orders per second.
// Writes the figures to the "## Card fulfilment" section of docs/benchmarks.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Order } from "@diginoor/api/orders";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { deliver, linkFreshWallet, pool, sandboxEvent, seedStudioFilmAndStar } from "../test/card-orders.ts";
import { newSignedInUser } from "../test/factories.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { openDatabase, type Database } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { openShop, payOrder, placeOrder, shopEnv } from "../test/card-shop.ts";
import { startChainFixture } from "../test/chain-fixture.ts";
import { killAllServers, type ServerProcess, startServerProcess } from "../test/server-process.ts";
import { backendPids, cpuSeconds, cpuSince, freshPostgres, writeDocs } from "./support.ts";

const ORDERS = 200;
const IN_FLIGHT = 16;
const STEADY_PER_SECOND = 5;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function placeOrders(t: TestApp, nftId: string, n: number): Promise<Order[]> {
  // One open order per fan and NFT (orders service): a fan per order.
  const fans = await Promise.all(
    Array.from({ length: n }, async () => {
      const { cookie, user } = await newSignedInUser(t.ctx);
      await linkFreshWallet(t.ctx.database, user.id, t.ctx.chain!.chainId);
      return cookie;
    }),
  );
  return pool(
    Array.from({ length: n }, (_, i) => fans[i % fans.length] as string),
    8,
    async (cookie) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/orders",
        headers: { cookie },
        payload: { nftId, provider: "sandbox" },
      });
      if (res.statusCode !== 201) throw new Error(`order: ${res.statusCode} ${res.body}`);
      return res.json() as Order;
    },
  );
}

async function waitFulfilled(t: TestApp | Database, ids: string[]): Promise<number[]> {
  const database = "ctx" in t ? t.ctx.database : t;
  const deadline = Date.now() + 600_000;
  for (;;) {
    const rows = await database.query<{ ms: number | null }>(
      `SELECT (EXTRACT(EPOCH FROM f.at - p.at) * 1000)::float8 AS ms
         FROM order_transitions p LEFT JOIN order_transitions f ON f.order_id = p.order_id AND f.to_state = 'fulfilled'
        WHERE p.to_state = 'paid' AND p.order_id = ANY($1::uuid[])`,
      [ids],
    );
    if (rows.length === ids.length && rows.every((r) => r.ms !== null)) return rows.map((r) => Number(r.ms));
    if (Date.now() > deadline) throw new Error("orders were not fulfilled within 10 minutes");
    await sleep(200);
  }
}

async function run(engine: string) {
  const t = await createTestApp(
    { PUBLIC_URL: "http://localhost:3000" },
    { chain: true, jobPollingSeconds: 2 },
  );
  try {
    const q = (s: string, p?: unknown[]) => t.ctx.database.query(s, p);
    await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
    await q(`INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
        thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
      VALUES ('burstNft', 'Burst', 'common', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 1000, 1000, 'fixed', 999, NULL),
             ('steadyNft', 'Steady', 'common', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 1000, 1000, 'fixed', 999, NULL)`);
    const secret = sandboxSecret(t.ctx.config);
    const nowSec = () => Math.floor(Date.now() / 1000);
    const send = (o: Order) => {
      const d = deliver(o.orderId, sandboxEvent(o, "payment.succeeded", nowSec()), secret, nowSec());
      return t.app.inject({
        method: "POST",
        url: "/api/v1/webhooks/sandbox",
        payload: d.body,
        headers: { "content-type": "application/json", "x-sandbox-signature": d.signature },
      });
    };
    const rate = async (items: Order[], fn: (o: Order) => Promise<{ statusCode: number }>) => {
      const t0 = performance.now();
      const codes = await pool(items, IN_FLIGHT, async (o) => (await fn(o)).statusCode);
      if (codes.some((c) => c !== 200))
        throw new Error(`unexpected answers: ${codes.filter((c) => c !== 200)}`);
      return (items.length / (performance.now() - t0)) * 1000;
    };

    // Baseline and webhook throughput (the burst's first delivery is both the throughput and scenario a).
    const burst = await placeOrders(t, "burstNft", ORDERS);
    const baseline = await rate(burst, () => t.app.inject({ method: "GET", url: "/healthz" }));
    const firstDelivery = await rate(burst, send);
    const duplicates = await rate(burst, send);
    const burstMs = await waitFulfilled(
      t,
      burst.map((o) => o.orderId),
    );

    // Steady arrivals.
    const steady = await placeOrders(t, "steadyNft", ORDERS);
    const started = Date.now();
    await Promise.all(
      steady.map(async (o, i) => {
        await sleep(started + (i * 1000) / STEADY_PER_SECOND - Date.now());
        const res = await send(o);
        if (res.statusCode !== 200) throw new Error(`webhook: ${res.statusCode}`);
      }),
    );
    const steadyMs = await waitFulfilled(
      t,
      steady.map((o) => o.orderId),
    );
    const r = {
      engine,
      baseline,
      firstDelivery,
      duplicates,
      burst: { p50: pct(burstMs, 50), p95: pct(burstMs, 95) },
      steady: { p50: pct(steadyMs, 50), p95: pct(steadyMs, 95) },
    };
    console.log(JSON.stringify(r));
    return r;
  } finally {
    await t.close();
  }
}

const results = process.env.BENCH_ONLY === "processes" ? [] : [await run("PGlite (in memory)")];
const pgServer = await freshPostgres("diginoor_bench_fulfilment");
let processesRows: ProcessesRow[] = [];
if (pgServer) {
  // The test harness makes each app's database on the server named by DATABASE_URL.
  process.env.DATABASE_URL = pgServer.url;
  try {
    if (process.env.BENCH_ONLY !== "processes") results.push(await run(pgServer.engine));
  } finally {
    delete process.env.DATABASE_URL;
    await pgServer.drop();
  }
  const processesDb = await freshPostgres("diginoor_bench_fulfilment_processes");
  if (processesDb && process.env.BENCH_PROCESSES !== "0") {
    try {
      processesRows = await acrossProcesses(processesDb.url);
    } finally {
      await processesDb.drop();
    }
  }
}

// ─── one and two API processes ──────────────────────────────────────────────

interface ProcessesRow {
  processes: number;
  baseline: number;
  webhooks: number;
  p50: number;
  p95: number;
  /** Cores used while the webhooks were delivered: API processes, the worker, PostgreSQL, this process. */
  cores: { api: number; worker: number; pg: number; gen: number };
  load: number;
}

/**
 * Real server processes on one PostgreSQL database: one worker (jobs, minter, indexer) and one, then two,
 * API processes (WORKERS=off); ORDERS orders placed, then paid by webhooks spread over the API processes
 * (round robin, IN_FLIGHT at once), each with a /healthz baseline through the same processes just before.
 */
async function acrossProcesses(url: string): Promise<ProcessesRow[]> {
  const chain = await startChainFixture();
  const database = await openDatabase({ url, poolSize: 4 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-bench-processes-"));
  const rows: ProcessesRow[] = [];
  try {
    await migrate(database);
    // One open order per fan and NFT: a fan per order (each round starts once the last one is fulfilled).
    const fans = await openShop(database, chain, ORDERS, 3 * ORDERS);
    const env = (name: string, workers: "on" | "off") =>
      shopEnv(chain, {
        DATABASE_URL: url,
        DATA_DIR: path.join(dataDir, name),
        WORKERS: workers,
        LOG_LEVEL: "error",
      });
    const [worker, first] = await Promise.all([
      startServerProcess(env("worker", "on"), { waitReady: true }),
      startServerProcess(env("api-a", "off"), { waitReady: true }),
    ]);
    const apis: ServerProcess[] = [first];
    for (const processes of [1, 2]) {
      if (apis.length < processes)
        apis.push(await startServerProcess(env("api-b", "off"), { waitReady: true }));
      const on = (i: number) => (apis[i % apis.length] as ServerProcess).base;
      const orders = await pool(
        Array.from({ length: ORDERS }, (_, i) => i),
        8,
        async (i) => {
          const res = await placeOrder(on(i), fans[i % fans.length] as (typeof fans)[number]);
          if (res.status !== 201) throw new Error(`order: ${res.status} ${await res.text()}`);
          return (await res.json()) as Order;
        },
      );
      const rate = async (fn: (o: Order, i: number) => Promise<Response>) => {
        const t0 = performance.now();
        const codes = await pool(orders, IN_FLIGHT, async (o, i) => (await fn(o, i)).status);
        if (codes.some((c) => c !== 200))
          throw new Error(`unexpected answers: ${codes.filter((c) => c !== 200)}`);
        return (orders.length / (performance.now() - t0)) * 1000;
      };
      const baseline = await rate((_, i) => fetch(`${on(i)}/healthz`));
      const pgPids = await backendPids(url);
      const pids = { api: apis.map((a) => a.pid), worker: [worker.pid] };
      const before = {
        api: cpuSeconds(pids.api),
        worker: cpuSeconds(pids.worker),
        pg: cpuSeconds(pgPids),
        gen: process.cpuUsage(),
      };
      const t0 = performance.now();
      const webhooks = await rate((o, i) => payOrder(on(i), o));
      const wall = (performance.now() - t0) / 1000;
      const gen = process.cpuUsage(before.gen);
      const allPg = [...new Set([...pgPids, ...(await backendPids(url))])];
      const cores = {
        api: cpuSince(before.api, pids.api) / wall,
        worker: cpuSince(before.worker, pids.worker) / wall,
        pg: cpuSince(before.pg, allPg) / wall,
        gen: (gen.user + gen.system) / 1e6 / wall,
      };
      const ms = await waitFulfilled(
        database,
        orders.map((o) => o.orderId),
      );
      const row: ProcessesRow = {
        processes,
        baseline,
        webhooks,
        p50: pct(ms, 50),
        p95: pct(ms, 95),
        cores,
        load: os.loadavg()[0] ?? 0,
      };
      console.log(JSON.stringify(row));
      rows.push(row);
    }
  } finally {
    killAllServers();
    await database.close();
    await chain.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const n = (x: number) => Math.round(x).toLocaleString("en-US");
const section = `## Card fulfilment

\`npm run bench:fulfilment\` (apps/server/bench/fulfilment.ts), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores. Card orders paid through the sandbox provider's signed webhooks into the whole server in one process (HTTP routes, pg-boss jobs at the production polling interval of 2 s with 8 fulfilments at once, the indexer at its default 1 s poll and 1 confirmation) and a real anvil. Latency is per order, from the \`paid\` transition (written when the webhook is accepted) to \`fulfilled\` (written when the indexer has applied the mint), over ${ORDERS} orders.

| Engine | Webhooks accepted /s | Duplicates /s | Baseline GET /healthz /s | Burst of ${ORDERS}: median | p95 | Steady ${STEADY_PER_SECOND}/s: median | p95 |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${results.map((r) => `| ${r.engine} | ${n(r.firstDelivery)} | ${n(r.duplicates)} | ${n(r.baseline)} | ${s(r.burst.p50)} | ${s(r.burst.p95)} | ${s(r.steady.p50)} | ${s(r.steady.p95)} |`).join("\n")}

Goal (issue 11): median from webhook to minted and confirmed at most 5 s. Webhooks go through \`app.inject\` (the whole Fastify stack without sockets) with ${IN_FLIGHT} in flight; each accepted one is a transaction that records the event, moves the order and enqueues its fulfilment; a duplicate is one refused insert. The burst is 200 payments in about a second: the minter sends one transaction at a time per process, so the last orders of a burst wait for the ones before them.
${
  processesRows.length
    ? `
### One and two API processes

Real server processes (\`src/main.ts\`, NODE_ENV=development as the fault tests run them, LOG_LEVEL=error) on one PostgreSQL database: one worker (\`WORKERS=on\`: jobs polled every 2 s, the minter, the indexer polling every 100 ms) and one, then two, API processes (\`WORKERS=off\`). ${ORDERS} orders are placed through the API processes, then paid by webhooks sent over HTTP from this process, ${IN_FLIGHT} in flight, alternating between the API processes; baseline: GET /healthz the same way just before. "Cores used" is the CPU time each part used while the webhooks were delivered, per second of wall time (read from /proc; PostgreSQL: the backends of the bench database).

| API processes | Webhooks accepted /s | Baseline GET /healthz /s | Webhook → fulfilled: median | p95 | Cores used: API processes | Worker | PostgreSQL | Load generator | Load average (1 min) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${processesRows.map((r) => `| ${r.processes} | ${n(r.webhooks)} | ${n(r.baseline)} | ${s(r.p50)} | ${s(r.p95)} | ${r.cores.api.toFixed(2)} | ${r.cores.worker.toFixed(2)} | ${r.cores.pg.toFixed(2)} | ${r.cores.gen.toFixed(2)} | ${r.load.toFixed(2)} |`).join("\n")}

What the second process adds, and would add on more cores: "## API processes: what a second one adds", below.
`
    : ""
}`;
if (process.env.BENCH_ONLY)
  console.log(`BENCH_ONLY=${process.env.BENCH_ONLY}: docs/benchmarks.md left as it is\n${section}`);
else console.log(`wrote ${writeDocs("## Card fulfilment", section)}`);
process.exit(0);
