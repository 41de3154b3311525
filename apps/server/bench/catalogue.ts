// `npm run bench:catalogue`: seeds 100,000 NFTs into a fresh database, starts the real server in a
// child process and measures GET /api/v1/nfts (a filter, a text search, a deep page) beside a
// trivial route of the same server, with autocannon at 50 connections. Writes the figures to the
// "## Catalogue" section of docs/benchmarks.md.
//
// Database: DATABASE_URL if set, else the PostgreSQL server at postgresql://postgres@127.0.0.1:5432
// if reachable (a fresh database `diginoor_bench`, dropped at the end), else in-memory PGlite.
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { type Database, openDatabase } from "../src/db/client.ts";
import { createSearchIndexSync } from "../src/modules/catalogue/index-sync.ts";
import { createInProcessPubSub } from "../src/platform/pubsub/pubsub.ts";
import { migrate } from "../src/db/migrate.ts";
import {
  benchConfig,
  forkServer,
  freshPostgres,
  listen,
  backendPids,
  cpuSeconds,
  cpuSince,
  type Measured,
  measure,
  repoRoot,
  serveParent,
  stopServer,
  writeDocs,
} from "./support.ts";
import { mixedWorkloadOf, seedMany } from "./catalogue-workload.ts";

const TOTAL_NFTS = Number(process.env.BENCH_NFTS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const BENCH_DB = "diginoor_bench";
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 400);

// ─── server child ───────────────────────────────────────────────────────────

async function runServer() {
  const url = process.env.BENCH_DATABASE_URL || undefined;
  // Same pool size as `npm start` unless BENCH_POOL says otherwise.
  const database = await openDatabase({
    url,
    poolSize: process.env.BENCH_POOL ? Number(process.env.BENCH_POOL) : undefined,
  });
  const config = benchConfig({
    DATA_DIR: process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), "diginoor-bench"),
    CATALOGUE_LIST_CACHE_MS: process.env.BENCH_LIST_CACHE_MS ?? "1000",
  });
  await serveParent(config, database);
}

// ─── data ───────────────────────────────────────────────────────────────────

async function chooseDatabase(): Promise<{ url?: string; engine: string; drop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, engine: "PostgreSQL server (DATABASE_URL)" };
  }
  return (await freshPostgres(BENCH_DB)) ?? { engine: "PGlite (in memory; no PostgreSQL server reachable)" };
}

const MIXED = "<mixed>";
const MIXED_NAME = "mixed: random filters, bounds, words, sorts";

// ─── search index ───────────────────────────────────────────────────────────

/** Loads the catalogue search index here (as each server process does at start): time and heap it takes. */
async function measureIndex(database: Database) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const pubsub = createInProcessPubSub();
  const sync = createSearchIndexSync({ database, pubsub, pollMs: 3_600_000 });
  const t0 = performance.now();
  await sync.start();
  const loadMs = performance.now() - t0;
  gc();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  const structuresMb = sync.index.structureBytes() / 1e6;
  await sync.stop();
  await pubsub.close();
  return { loadMs, heapMb, structuresMb, rows: sync.index.size };
}

// ─── measuring ──────────────────────────────────────────────────────────────

type Row = Measured & { name: string };
type ScalingRow = Measured & {
  processes: number;
  name: string;
  load: number;
  /** CPU used during the run (warm-up included) per second of it: 1 = one core busy. */
  cores: { api: number; pg: number; gen: number };
};

async function getJson(url: string): Promise<{ items: unknown[]; nextCursor: string | null }> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { items: unknown[]; nextCursor: string | null };
}

async function main() {
  const loadAtStart = os.loadavg()[0] ?? 0;
  const chosen = await chooseDatabase();
  console.log(`Database: ${chosen.engine}`);
  let stopChildren = async () => {};
  try {
    const database = await openDatabase({ url: chosen.url });
    await migrate(database);
    const started = Date.now();
    const count = await seedMany(database, TOTAL_NFTS);
    console.log(`Seeded ${count} NFTs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (!chosen.url) {
      // PGlite lives in this process; serve from here (autocannon then shares the event loop, noted in the docs).
      console.log("PGlite cannot be shared with a child process; the server runs in this process.");
    }

    const children: ChildProcess[] = [];
    stopChildren = async () => {
      for (const c of children) await stopServer(c);
    };
    /** Starts the real server in its own process; `listCacheMs` 0 turns the list micro-cache off. */
    const startServer = async (listCacheMs: number, pids?: number[]): Promise<string> => {
      if (!chosen.url) {
        const config = benchConfig({
          DATA_DIR: path.join(os.tmpdir(), "diginoor-bench"),
          CATALOGUE_LIST_CACHE_MS: String(listCacheMs),
        });
        const { port } = await listen(config, database);
        return `http://127.0.0.1:${port}`;
      }
      const { child, base } = await forkServer(import.meta.url, {
        BENCH_DATABASE_URL: chosen.url,
        BENCH_LIST_CACHE_MS: String(listCacheMs),
      });
      children.push(child);
      if (child.pid) pids?.push(child.pid);
      return base;
    };
    const indexCost = await measureIndex(database);
    const indexLine = `Search index (decision 023): ${indexCost.rows.toLocaleString("en-US")} NFTs loaded in ${Math.round(indexCost.loadMs)} ms; heap growth ${indexCost.heapMb.toFixed(0)} MB, and ${indexCost.structuresMb.toFixed(0)} MB of typed arrays, postings and UTF-8 columns (cards, sort titles, search texts), most of them outside the heap.`;
    console.log(indexLine);
    const mixed = await mixedWorkloadOf(database);
    if (chosen.url) await database.close();
    const apiPids: number[] = [];
    const base = await startServer(1000, apiPids);

    // Deep page: follow the cursor 200 pages into the newest-first list.
    const walkStart = Date.now();
    let cursor: string | null = null;
    let deepPath = "/api/v1/nfts";
    for (let page = 0; page < 200; page++) {
      const body = await getJson(`${base}/api/v1/nfts?limit=24${cursor ? `&cursor=${cursor}` : ""}`);
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
      deepPath = `/api/v1/nfts?limit=24&cursor=${cursor}`;
    }
    const walkMs = Date.now() - walkStart;
    console.log(`Walked 200 pages (4,800 NFTs deep) in ${walkMs} ms`);

    const searchWord = process.env.BENCH_Q ?? "anklet";
    const search = await getJson(`${base}/api/v1/nfts?q=${searchWord}`);
    if (search.items.length === 0) throw new Error(`search for ${searchWord} found nothing`);

    // The mixed workload, one request at a time: every answer must be a 200, and the slowest show
    // the worst combinations without queueing.
    const sequential: { ms: number; path: string }[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const p = mixed.path();
      const t0 = performance.now();
      await getJson(`${base}${p}`);
      sequential.push({ ms: performance.now() - t0, path: p });
    }
    sequential.sort((a, b) => a.ms - b.ms);
    const seqAt = (q: number) =>
      (sequential[Math.min(sequential.length - 1, Math.floor(q * sequential.length))]?.ms ?? 0).toFixed(1);
    const slowest = sequential.slice(-3).reverse();
    console.log(
      `Mixed, sequential: p50 ${seqAt(0.5)} ms, p99 ${seqAt(0.99)} ms, max ${seqAt(1)} ms; slowest:`,
    );
    for (const s of slowest) console.log(`  ${s.ms.toFixed(1)} ms ${s.path}`);

    const allRoutes = [
      ["filter: tier=rare, sort=price_asc", "/api/v1/nfts?tier=rare&sort=price_asc"],
      [`text search: q=${searchWord}`, `/api/v1/nfts?q=${searchWord}`],
      ["deep page: 201st page by cursor", deepPath],
      [MIXED_NAME, MIXED],
    ] as const;
    // BENCH_ONLY=mixed measures the mixed workload alone (quicker while tuning).
    const routes = allRoutes.filter(([, p]) => process.env.BENCH_ONLY !== "mixed" || p === MIXED);
    const run = async (b: string, name: string, p: string) => {
      process.stdout.write(`${name} … `);
      // The mixed workload sends a different random query on every request.
      const opts =
        p === MIXED ? { url: b, requests: [{ setupRequest: mixed.setupRequest }] } : { url: b + p };
      const r: Row = { name, ...(await measure({ ...opts, connections: CONNECTIONS }, DURATION)) };
      console.log(
        `${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.errors ? `, ${r.errors} errors` : ""}`,
      );
      return r;
    };
    // Other work on a shared machine moves every figure, so each catalogue run is paired with a
    // baseline run of the same server measured just before it, and compared with that one.
    const pairs: { base: Row; row: Row; judged: boolean }[] = [];
    for (const [name, p] of routes) {
      const b = await run(base, "  baseline GET /healthz", "/healthz");
      pairs.push({ base: b, row: await run(base, name, p), judged: true });
    }
    // The same queries with the list micro-cache off: every request goes to PostgreSQL.
    const uncachedBase = await startServer(0);
    for (const [name, p] of routes) {
      const b = await run(uncachedBase, "  baseline GET /healthz", "/healthz");
      pairs.push({ base: b, row: await run(uncachedBase, `${name} (no cache)`, p), judged: false });
    }

    // One and then two API processes (both as deployed) on the same database: /healthz and the mixed
    // workload, spread over the processes by autocannon itself (connections alternate between the URLs,
    // as a layer-4 balancer would, with no proxy of its own to pay for), and where the CPU went.
    const scaling: ScalingRow[] = [];
    if (chosen.url && process.env.BENCH_PROCESSES !== "0") {
      const uncached = children.at(-1);
      if (uncached) await stopServer(uncached);
      const second = await startServer(1000, apiPids);
      // Alternated twice: other work on a shared machine comes and goes, and shows as the difference
      // between the two runs of the same setup.
      for (const bases of [[base], [base, second], [base], [base, second]]) {
        const servers = apiPids.slice(0, bases.length);
        for (const [name, p] of [
          ["GET /healthz", "/healthz"],
          [MIXED_NAME, MIXED],
        ] as const) {
          const opts =
            p === MIXED
              ? { url: bases, requests: [{ setupRequest: mixed.setupRequest }] }
              : { url: bases.map((b) => b + p) };
          const pg0 = await backendPids(chosen.url);
          const before = { api: cpuSeconds(servers), pg: cpuSeconds(pg0), gen: process.cpuUsage() };
          const t0 = performance.now();
          const r = await measure({ ...opts, connections: CONNECTIONS }, DURATION);
          const wall = (performance.now() - t0) / 1000;
          const pg1 = [...new Set([...pg0, ...(await backendPids(chosen.url))])];
          const gen = process.cpuUsage(before.gen);
          const row: ScalingRow = {
            processes: bases.length,
            name,
            ...r,
            load: os.loadavg()[0] ?? 0,
            cores: {
              api: cpuSince(before.api, servers) / wall,
              pg: cpuSince(before.pg, pg1) / wall,
              gen: (gen.user + gen.system) / 1e6 / wall,
            },
          };
          console.log(
            `${bases.length} API process(es), ${name}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms; cores used: API ${row.cores.api.toFixed(2)}, PostgreSQL ${row.cores.pg.toFixed(2)}, load generator ${row.cores.gen.toFixed(2)}; load average ${row.load.toFixed(2)}`,
          );
          scaling.push(row);
        }
      }
    }
    const scalingTable = scaling.length
      ? [
          "| API processes | Route | Requests/s | p50 (ms) | p99 (ms) | Errors | Cores used: API processes | PostgreSQL | Load generator | Load average (1 min) |",
          "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
          ...scaling.map(
            (r) =>
              `| ${r.processes} | ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.cores.api.toFixed(2)} | ${r.cores.pg.toFixed(2)} | ${r.cores.gen.toFixed(2)} | ${r.load.toFixed(2)} |`,
          ),
        ].join("\n")
      : "";
    if (scalingTable) console.log(`\n${scalingTable}\n`);

    const line = ({ base: b, row: r, judged }: (typeof pairs)[number]) => {
      const pct = (r.rps / b.rps) * 100;
      const isMixed = r.name.startsWith(MIXED_NAME);
      const met = isMixed
        ? r.p99 <= 50 && pct >= 10 && r.errors === 0
        : judged && r.p99 < 25 && pct >= 40 && r.errors === 0;
      const goal = !judged && !isMixed ? "–" : met ? "yes" : "**no**";
      return `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${Math.round(b.rps)} (p99 ${b.p99} ms) | ${pct.toFixed(0)} | ${r.errors} | ${goal} |`;
    };
    const table = [
      "| Route | Requests/s | p50 (ms) | p99 (ms) | Baseline /healthz req/s, run just before | % of baseline | Errors | Goal met |",
      "|---|---:|---:|---:|---:|---:|---:|---|",
      ...pairs.map(line),
    ].join("\n");
    console.log(`\n${table}\n`);

    const cpus = os.cpus();
    const section = `## Catalogue

Measured by \`npm run bench:catalogue\` (apps/server/bench/catalogue.ts) on ${new Date().toISOString().slice(0, 10)}.

- Data: ${count.toLocaleString("en-US")} NFTs (the seed catalogue multiplied), database: ${chosen.engine}.
- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), Node ${process.version}; the load generator, the server and the database share these cores. Load average when the run
  started: ${loadAtStart.toFixed(2)} (other work on the machine lowers every figure; hence the paired baselines).
- Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per route after a 2 s warm-up; server in ${chosen.url ? "its own process" : "the benchmark's process"}, LOG_LEVEL=silent, NODE_ENV=production.
- ${indexLine} Lists are answered by it (\`CATALOGUE_SEARCH_INDEX=on\`, the default).
- Deep page: the URL of the 201st page (4,800 NFTs deep, newest first) found by walking the cursor; the 200-page walk took ${walkMs} ms.
- Mixed workload: every request a fresh random combination (search word in 60% of requests, whole or
  its first letters; tier 30%, sale type 30%, film 20%, star 15%, each price bound 25%; one of the four
  sorts), from a fixed pseudo-random sequence over the words of the catalogue. Goal (issue 8, item 13):
  p99 at most 50 ms and at least 10% of the baseline's requests/s, for the deployed server and with the
  cache off. The same workload one request at a time (${SEQUENTIAL} requests): p50 ${seqAt(0.5)} ms,
  p99 ${seqAt(0.99)} ms, max ${seqAt(1)} ms; slowest: ${slowest.map((x) => `\`${x.path.replace("/api/v1/nfts?", "")}\` ${x.ms.toFixed(0)} ms`).join(", ")}.
  Index: docs/decisions/023-catalogue-search-index.md (SQL plans when it is off: decision 022).
- Goal: p99 under 25 ms for each catalogue query and at least 40% of the baseline's requests/s, judged on the
  server as deployed (\`CATALOGUE_LIST_CACHE_MS=1000\`, the search index on). The "(no cache)" rows run the same
  URLs against a second server with \`CATALOGUE_LIST_CACHE_MS=0\`.

${table}

Reading the figures: both servers answer lists from the in-memory search index
(docs/decisions/023-catalogue-search-index.md). The deployed one also keeps each page for a second in
the list micro-cache, which serves the repeated URLs of the first three rows; under the mixed workload
nearly every request is new, so the mixed rows of both servers measure the index itself. The load generator, the
server and PostgreSQL share the same cores, and the p99 is mostly queueing behind 50 connections (the
index answers a page in well under a millisecond, and a page is its rows' cards joined as UTF-8 JSON
kept in the index, so nothing is serialised per request; the index keeps its rows as columns, mostly
outside the JavaScript heap, so its garbage collections have little to mark; what remains of a
request is mostly HTTP and the socket write). \`npm run bench:catalogue-index\` times the same
workload against the index alone. With \`CATALOGUE_SEARCH_INDEX=off\` lists are the
SQL plans of decision 022 and the micro-cache of decision 021.
${
  scalingTable
    ? `
### One and two API processes

The same run, then one and two API processes (one, two, one, two: the difference between two runs of the same setup is the noise of the shared machine) as deployed (\`CATALOGUE_LIST_CACHE_MS=1000\`, each with
its own search index) on the same database; autocannon spreads its ${CONNECTIONS} connections over them (it alternates
between the URLs, as a layer-4 balancer would, with no proxy process to pay for). "Cores used" is the
CPU time each part used during the run (the 2 s warm-up included) divided by its wall time, read from
/proc: the API processes, the PostgreSQL backends of the bench database, and the load generator (this
process). The machine has ${cpus.length} cores and other work on it (load average column).

${scalingTable}

What the second process adds, and would add on more cores: "## API processes: what a second one adds", below.
`
    : ""
}`;
    if (process.env.BENCH_NO_DOCS === "1") {
      console.log("BENCH_NO_DOCS=1: docs/benchmarks.md left as it is");
    } else {
      const file = writeDocs("## Catalogue", section);
      console.log(`Wrote ${path.relative(repoRoot, file)}`);
    }
  } finally {
    await stopChildren();
    // BENCH_KEEP=1 leaves the database in place for EXPLAIN ANALYZE sessions.
    if (chosen.drop && process.env.BENCH_KEEP !== "1") await chosen.drop();
  }
  process.exit(0);
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
