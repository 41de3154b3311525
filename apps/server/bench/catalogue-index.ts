// `npm run bench:catalogue-index`: the catalogue search index alone (no HTTP, no queueing). Seeds
// 100,000 NFTs as `npm run bench:catalogue` does, loads them into the index, and times every query of
// the same mixed workload (catalogue-workload.ts, same pseudo-random sequence) one at a time: per-query
// p50/p99/max and the slowest queries, each timed again to tell its own work from a pause that fell on it.
//
// BENCH_INDEX_BASELINE=<file> also loads another version of search-index.ts (e.g. `git show
// main:apps/server/src/modules/catalogue/search-index.ts > /tmp/before.ts`) with the same rows, runs
// each query on both in turn, and checks that they return the same rows.
//
// Database: BENCH_INDEX_DB_URL (an already seeded database, reused as it is), else a fresh database
// `diginoor_bench_index` on the PostgreSQL server (kept with BENCH_KEEP=1), else PGlite in memory.
// BENCH_QUERIES (default 2000): how many mixed queries are timed, after as many again as a warm-up.
import os from "node:os";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import type { NftSort } from "@diginoor/api/catalogue";
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import * as repo from "../src/modules/catalogue/repo.ts";
import { CatalogueSearchIndex } from "../src/modules/catalogue/search-index.ts";
import { mixedWorkloadOf, seedMany } from "./catalogue-workload.ts";
import { freshPostgres } from "./support.ts";

const TOTAL_NFTS = Number(process.env.BENCH_NFTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2000);
const LIMIT = 24;

type Index = Pick<CatalogueSearchIndex, "replaceAll" | "warm" | "list">;
type Query = { path: string; filter: repo.NftFilter; sort: NftSort };

/** The list query a mixed-workload URL asks for (as the route parses it; limit 24, no cursor). */
function parse(path: string): Query {
  const p = new URLSearchParams(path.slice(path.indexOf("?") + 1));
  const num = (k: string) => (p.has(k) ? Number(p.get(k)) : undefined);
  const str = <T extends string>(k: string) => (p.get(k) ?? undefined) as T | undefined;
  const q = p.get("q")?.trim();
  return {
    path: path.replace("/api/v1/nfts?", ""),
    sort: (p.get("sort") ?? "newest") as NftSort,
    filter: {
      tier: str("tier"),
      saleType: str("saleType"),
      film: str("film"),
      celebrity: str("celebrity"),
      minPriceCents: num("minPriceCents"),
      maxPriceCents: num("maxPriceCents"),
      q: q ? q : undefined,
    },
  };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function main() {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  let url = process.env.BENCH_INDEX_DB_URL;
  let drop: (() => Promise<void>) | undefined;
  let engine = url ? `PostgreSQL server (${url}, reused)` : "";
  let seed = !url;
  if (!url) {
    const fresh = await freshPostgres("diginoor_bench_index");
    url = fresh?.url;
    drop = fresh?.drop;
    engine = fresh?.engine ?? "PGlite (in memory)";
  }
  const database = await openDatabase({ url });
  try {
    if (seed) {
      await migrate(database);
      const t0 = Date.now();
      const n = await seedMany(database, TOTAL_NFTS);
      console.log(`Seeded ${n} NFTs in ${((Date.now() - t0) / 1000).toFixed(1)} s (${engine})`);
      seed = false;
    }
    const baselineFile = process.env.BENCH_INDEX_BASELINE;
    const rows = await repo.allIndexRows(database);
    const mixed = await mixedWorkloadOf(database);

    // Each version is loaded COPIES times: every query runs once on each copy, as its first run there
    // (a new search word's candidates included), and the least of those times is the query's own work,
    // without the pauses (garbage collection, other processes on the machine) that fell on one run.
    const COPIES = Number(process.env.BENCH_COPIES ?? 3);
    type Version = { name: string; copies: Index[]; wall: number[]; own: number[] };
    const versions: Version[] = [];
    const baseline = baselineFile;
    const make = async (name: string, ctor: new () => Index) => {
      const copies = Array.from({ length: COPIES }, () => new ctor());
      const t0 = performance.now();
      for (const c of copies) {
        c.replaceAll(rows);
        c.warm();
      }
      console.log(
        `${name}: ${rows.length} rows loaded and warmed in ${Math.round((performance.now() - t0) / COPIES)} ms`,
      );
      versions.push({ name, copies, wall: [], own: [] });
    };
    if (baseline) {
      const mod = (await import(pathToFileURL(baseline).href)) as { CatalogueSearchIndex: new () => Index };
      await make("before", mod.CatalogueSearchIndex);
    }
    await make(baseline ? "after" : "index", CatalogueSearchIndex);

    // Warm-up (JIT), then the measured queries: the first of them are the ones `npm run
    // bench:catalogue` sends one at a time over HTTP (same generator, same sequence).
    const measured = Array.from({ length: QUERIES }, () => parse(mixed.path()));
    const warmup = Array.from({ length: QUERIES }, () => parse(mixed.path()));
    for (const q of warmup)
      for (const v of versions) for (const c of v.copies) c.list(q.filter, q.sort, LIMIT);
    gc();

    let mismatches = 0;
    const ids = (r: { id: string }[]) => r.map((x) => x.id).join(",");
    for (const q of measured) {
      const answers: string[] = [];
      for (const v of versions) {
        let own = Number.POSITIVE_INFINITY;
        v.copies.forEach((c, k) => {
          const t0 = performance.now();
          const rows = c.list(q.filter, q.sort, LIMIT);
          const ms = performance.now() - t0;
          if (k === 0) {
            v.wall.push(ms);
            answers.push(ids(rows));
          }
          own = Math.min(own, ms);
        });
        v.own.push(own);
      }
      if (answers.length === 2 && answers[0] !== answers[1]) {
        mismatches++;
        if (mismatches <= 5) console.log(`DIFFERENT ANSWERS: ${q.path}`);
      }
    }

    console.log(
      `\n${QUERIES} mixed queries, one at a time, ${LIMIT + 1} rows asked for; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    const figures = (t: number[]) => {
      const sorted = [...t].sort((a, b) => a - b);
      const mean = t.reduce((a, b) => a + b, 0) / t.length;
      return `p50 ${quantile(sorted, 0.5).toFixed(3)} ms, p90 ${quantile(sorted, 0.9).toFixed(3)} ms, p99 ${quantile(sorted, 0.99).toFixed(3)} ms, max ${quantile(sorted, 1).toFixed(3)} ms, mean ${mean.toFixed(3)} ms`;
    };
    for (const v of versions) {
      console.log(`${v.name}, as timed on one copy: ${figures(v.wall)}`);
      console.log(`${v.name}, own work (least of ${COPIES} copies): ${figures(v.own)}`);
      const slowest = v.own
        .map((ms, k) => ({ ms, q: measured[k] as Query }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, Number(process.env.BENCH_SLOWEST ?? 8));
      for (const s of slowest) console.log(`  ${s.ms.toFixed(2)} ms ${s.q.path}`);
    }
    if (versions.length === 2) console.log(`Answers compared: ${mismatches} of ${QUERIES} different`);
  } finally {
    await database.close();
    if (drop && process.env.BENCH_KEEP !== "1") await drop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
