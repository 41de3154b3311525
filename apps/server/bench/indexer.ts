// `npm run bench:indexer`: the chain indexer on a real anvil with our real contracts, beside Ponder 0.16.
//  1. Catch-up: 20,000 events of the marketplace's own life (mints, listings, price changes, sales,
//     auctions, bids, settlements) are mined in blocks of up to 200 transactions (automine off,
//     transactions sent in JSON-RPC batches); then a fresh indexer applies them all (events per second =
//     events / wall time of the catch-up), then again after forgetting them (a re-index).
//  2. Ponder 0.16 (apps/server/bench/ponder, installed on demand into its own node_modules) indexes the
//     same blocks into a fresh schema (cold), then into another schema of the same database (its RPC
//     cache warm). BENCH_PONDER=0 leaves it out.
//  3. Lag at the head: a block of 10 mints (20 events) every second for 20 s while the indexer runs at
//     its defaults (1 confirmation on anvil, INDEXER_POLL_MS default); the lag in blocks (head minus
//     checkpoint) is sampled every 100 ms.
// Both engines: PGlite (in memory) and the PostgreSQL server (DATABASE_URL, else the local server at
// postgresql://postgres@127.0.0.1:5432 if reachable, fresh databases `diginoor_bench_indexer` and
// `diginoor_bench_ponder`). Writes the figures to the "## Indexer" section of docs/benchmarks.md
// (not with BENCH_NO_DOCS=1). BENCH_MINTS scales the workload down for a quick try.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { startAnvil } from "@diginoor/contracts/anvil";
import { deployAll } from "@diginoor/contracts/deploy";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { toOrderId } from "@diginoor/contracts/voucher";
import {
  type AbiEvent,
  type Address,
  encodeFunctionData,
  type Hex,
  numberToHex,
  toEventSelector,
} from "viem";
import { loadConfig } from "../src/config.ts";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { resetChain } from "../src/modules/indexer/repo.ts";
import { createIndexer } from "../src/modules/indexer/service.ts";
import { ensurePonder, freePort, runPonder } from "./ponder-runner.ts";
import { freshPostgres, writeDocs } from "./support.ts";

// The workload: 3,000 mints (Transfer + CollectibleMinted); 2,000 of them listed, repriced and bought
// (Listed, ListingPriceUpdated, Sale + Transfer); 1,000 auctioned (AuctionCreated + Transfer into
// escrow), bid on twice (BidPlaced) and settled (AuctionSettled + Transfer): 20,000 events, plus the
// seller's one ApprovalForAll.
const MINTS = Number(process.env.BENCH_MINTS ?? 3_000);
const LISTED = Math.round((MINTS * 2) / 3);
const AUCTIONED = MINTS - LISTED;
const EVENTS = MINTS * 2 + LISTED * 4 + AUCTIONED * 6;
const TXS_PER_BLOCK = 200;
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 20);
const LAG_MINTS_PER_BLOCK = 10;
const defaults = loadConfig({ NODE_ENV: "test" });
const PRICE = 10n ** 15n;
/** Ponder's finality depth for a chain id it does not know (ponder/src/utils/finality.ts). */
const PONDER_FINALITY_BLOCKS = 30;

let rpcId = 0;
async function rpc<T = unknown>(url: string, calls: { method: string; params: unknown[] }[]): Promise<T[]> {
  const body = calls.map((c) => ({ jsonrpc: "2.0", id: ++rpcId, ...c }));
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const out = (await res.json()) as { id: number; result?: T; error?: { message: string } }[];
  for (const r of out) if (r.error) throw new Error(`${r.error.message}`);
  return out.sort((a, b) => a.id - b.id).map((r) => r.result as T);
}

interface TxRequest {
  from: Address;
  to: Address;
  gas: Hex;
  data: Hex;
  value?: Hex;
}
const call = (from: Address, to: Address, gas: number, data: Hex, value?: bigint): TxRequest => ({
  from,
  to,
  gas: numberToHex(gas),
  data,
  ...(value === undefined ? {} : { value: numberToHex(value) }),
});
let nextOrder = 1n;
const mintTx = (collectible: Address, to: Address) =>
  call(
    ANVIL_ADDRESSES[0] as Address,
    collectible,
    300_000,
    encodeFunctionData({
      abi: diginoorCollectibleAbi,
      functionName: "mintForOrder",
      args: [to, 1n, 1, ANVIL_ADDRESSES[9] as Address, toOrderId(nextOrder++)],
    }),
  );

const nonces = new Map<string, bigint>();

/**
 * Sends the transactions (anvil's unlocked dev accounts sign them) TXS_PER_BLOCK at a time, mining a
 * block after each, then mines until none is pending (a block holds what its gas limit allows).
 */
async function mineAll(url: string, txs: TxRequest[]) {
  for (let i = 0; i < txs.length; i += TXS_PER_BLOCK) {
    const chunk = txs.slice(i, i + TXS_PER_BLOCK);
    for (const tx of chunk) {
      if (!nonces.has(tx.from)) {
        const [n] = await rpc<Hex>(url, [
          { method: "eth_getTransactionCount", params: [tx.from, "pending"] },
        ]);
        nonces.set(tx.from, BigInt(n as Hex));
      }
    }
    const sends = chunk.map((tx) => {
      const nonce = nonces.get(tx.from) as bigint;
      nonces.set(tx.from, nonce + 1n);
      return { method: "eth_sendTransaction", params: [{ ...tx, nonce: numberToHex(nonce) }] };
    });
    await rpc<Hex>(url, sends);
    await rpc(url, [{ method: "evm_mine", params: [] }]);
  }
  for (;;) {
    const [status] = await rpc<{ pending: Hex }>(url, [{ method: "txpool_status", params: [] }]);
    if (BigInt(status?.pending ?? "0x0") === 0n) break;
    await rpc(url, [{ method: "evm_mine", params: [] }]);
  }
}

/** Mints, then sells and auctions, the workload above; returns the head block. */
async function generate(url: string, collectible: Address, marketplace: Address): Promise<bigint> {
  const [seller, buyer, bidderA, bidderB, settler] = [1, 2, 3, 4, 5].map(
    (i) => ANVIL_ADDRESSES[i] as Address,
  );
  const first = nextOrder;
  await mineAll(
    url,
    Array.from({ length: MINTS }, () => mintTx(collectible, seller as Address)),
  );
  const ids = Array.from({ length: MINTS }, (_, i) => first + BigInt(i));
  const listed = ids.slice(0, LISTED);
  const auctioned = ids.slice(LISTED);
  const m = (from: Address, gas: number, functionName: string, args: unknown[], value?: bigint) =>
    call(
      from,
      marketplace,
      gas,
      encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName, args } as never),
      value,
    );
  await mineAll(url, [
    call(
      seller as Address,
      collectible,
      100_000,
      encodeFunctionData({
        abi: diginoorCollectibleAbi,
        functionName: "setApprovalForAll",
        args: [marketplace, true],
      }),
    ),
  ]);
  await mineAll(
    url,
    listed.map((id) => m(seller as Address, 200_000, "list", [id, PRICE])),
  );
  await mineAll(
    url,
    listed.map((id) => m(seller as Address, 100_000, "updatePrice", [id, PRICE * 2n])),
  );
  await mineAll(
    url,
    listed.map((id) => m(buyer as Address, 300_000, "buy", [id, PRICE * 2n], PRICE * 2n)),
  );
  await mineAll(
    url,
    auctioned.map((id) => m(seller as Address, 300_000, "createAuction", [id, PRICE, 1])),
  );
  await mineAll(
    url,
    auctioned.map((id) => m(bidderA as Address, 200_000, "bid", [id], PRICE)),
  );
  await mineAll(
    url,
    auctioned.map((id) => m(bidderB as Address, 200_000, "bid", [id], PRICE * 2n)),
  );
  await rpc(url, [{ method: "evm_increaseTime", params: [2 * 86_400] }]);
  await mineAll(
    url,
    auctioned.map((id) => m(settler as Address, 300_000, "settle", [id])),
  );
  const [head] = await rpc<Hex>(url, [{ method: "eth_blockNumber", params: [] }]);
  return BigInt(head as Hex);
}

interface Chain {
  url: string;
  collectible: Address;
  marketplace: Address;
  startBlock: bigint;
}

function indexerFor(database: Database, chain: Chain) {
  return createIndexer({
    database,
    chainId: 31337,
    rpcUrl: chain.url,
    collectible: chain.collectible,
    marketplace: chain.marketplace,
    startBlock: chain.startBlock,
    confirmations: 1,
    batchBlocks: defaults.INDEXER_BATCH_BLOCKS,
    pollMs: defaults.INDEXER_POLL_MS,
    reorgWindow: defaults.INDEXER_REORG_WINDOW,
    log: (level: string, msg: string, extra?: Record<string, unknown>) => {
      if (level !== "info" || process.env.BENCH_VERBOSE === "1")
        console.log(`indexer ${level}: ${msg} ${extra ? JSON.stringify(extra) : ""}`);
    },
  });
}

/** A catch-up from the deployment by a fresh indexer; `again` first forgets what was indexed (a re-index). */
async function catchUp(label: string, database: Database, chain: Chain, again = false) {
  if (again) await resetChain((t, p) => database.query(t, p), 31337);
  const t0 = performance.now();
  const r = await indexerFor(database, chain).catchUp();
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `${label}: ${r.applied} events in ${seconds.toFixed(2)} s = ${Math.round(r.applied / seconds)} events/s`,
  );
  return { events: r.applied, seconds };
}

interface Lag {
  samples: number;
  max: number;
  p95: number;
  mean: number;
  blocks: number;
}

/** Lag at the head while new events arrive (the indexer at its defaults, resuming from its checkpoint). */
async function lagAtHead(engine: string, database: Database, chain: Chain): Promise<Lag> {
  const indexer = indexerFor(database, chain);
  await indexer.catchUp();
  indexer.start();
  const samples: number[] = [];
  let blocks = 0;
  const checkpoint = async () =>
    BigInt(
      (await database.query<{ b: string }>("SELECT block_number::text AS b FROM indexer_checkpoints"))[0]
        ?.b ?? "0",
    );
  const sampler = setInterval(async () => {
    const [head] = await rpc<Hex>(chain.url, [{ method: "eth_blockNumber", params: [] }]);
    samples.push(Number(BigInt(head as Hex) - (await checkpoint())));
  }, 100);
  const end = Date.now() + LAG_SECONDS * 1000;
  while (Date.now() < end) {
    const txs = Array.from({ length: LAG_MINTS_PER_BLOCK }, () =>
      mintTx(chain.collectible, ANVIL_ADDRESSES[4] as Address),
    );
    await mineAll(chain.url, txs);
    blocks++;
    await new Promise((res) => setTimeout(res, 1000));
  }
  clearInterval(sampler);
  await new Promise((res) => setTimeout(res, 200));
  await indexer.stop();
  const sorted = [...samples].sort((a, b) => a - b);
  const lag = {
    samples: samples.length,
    max: sorted.at(-1) ?? 0,
    p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
    blocks,
  };
  console.log(
    `${engine}: lag over ${blocks} blocks: max ${lag.max}, p95 ${lag.p95}, mean ${lag.mean.toFixed(2)}`,
  );
  return lag;
}

/** How many logs of each event our two contracts emitted from `from` to `to`. */
async function countEvents(chain: Chain, from: bigint, to: bigint): Promise<Map<string, number>> {
  const names = new Map<string, string>();
  for (const item of [...diginoorCollectibleAbi, ...diginoorMarketplaceAbi] as readonly AbiEvent[]) {
    if (item.type === "event") names.set(toEventSelector(item), item.name);
  }
  const [logs] = await rpc<{ topics: Hex[] }[]>(chain.url, [
    {
      method: "eth_getLogs",
      params: [
        {
          address: [chain.collectible, chain.marketplace],
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to),
        },
      ],
    },
  ]);
  const counts = new Map<string, number>();
  for (const l of logs ?? []) {
    const name = names.get(l.topics[0] as Hex) ?? "other";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

interface Row {
  indexer: string;
  engine: string;
  run: string;
  events: number;
  seconds: number;
  /** Ponder: from its start to /ready answering 200 (build, migrations, backfill, indexes). */
  total?: number;
}

async function main() {
  const anvil = await startAnvil({ chainId: 31337 });
  const rows: Row[] = [];
  const lags: { engine: string; lag: Lag }[] = [];
  const load: string[] = [];
  const uptime = () => {
    const l = os.loadavg().map((x) => x.toFixed(2));
    load.push(l[0] as string);
    return `load average ${l.join(", ")}`;
  };
  try {
    const deployment = await deployAll({
      rpcUrl: anvil.rpcUrl,
      metadataBaseUri: "http://localhost:3000/api/v1/metadata/",
    });
    const url = anvil.rpcUrl;
    await rpc(url, [{ method: "evm_setAutomine", params: [false] }]);
    const chain: Chain = {
      url,
      collectible: deployment.collectible,
      marketplace: deployment.marketplace,
      startBlock: deployment.blockNumber,
    };
    const g0 = performance.now();
    const head = await generate(url, deployment.collectible, deployment.marketplace);
    // Ponder indexes the last 30 blocks of a chain it does not know as unfinalized (live, not backfilled
    // nor cached): empty blocks after the workload make all of it final for both indexers.
    await rpc(url, [{ method: "anvil_mine", params: [numberToHex(PONDER_FINALITY_BLOCKS + 10)] }]);
    const counts = await countEvents(chain, chain.startBlock, head);
    const workload = [...counts].filter(([n]) => WORKLOAD_EVENTS.includes(n));
    const generated = workload.reduce((a, [, c]) => a + c, 0);
    console.log(
      `generated ${generated} events up to block ${head} in ${((performance.now() - g0) / 1000).toFixed(1)} s: ${[...counts].map(([n, c]) => `${n} ${c}`).join(", ")}`,
    );
    if (generated !== EVENTS)
      throw new Error(`expected ${EVENTS} workload events, the chain has ${generated}`);

    // Catch-ups, all before the lag runs so that every one indexes the same blocks.
    const pglite = await openDatabase({});
    await migrate(pglite);
    console.log(uptime());
    for (const [run, again] of [
      ["cold", false],
      ["re-index", true],
    ] as const) {
      const r = await catchUp(`ours, PGlite, ${run}`, pglite, chain, again);
      rows.push({ indexer: "Diginoor", engine: "PGlite", run, ...r });
    }
    const server = process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL, engine: "PostgreSQL server (DATABASE_URL)", drop: async () => {} }
      : await freshPostgres("diginoor_bench_indexer");
    const database = server ? await openDatabase({ url: server.url, poolSize: 5 }) : undefined;
    try {
      if (server && database) {
        await migrate(database);
        await resetChain((t, p) => database.query(t, p), 31337);
        console.log(uptime());
        for (const [run, again] of [
          ["cold", false],
          ["re-index", true],
        ] as const) {
          const r = await catchUp(`ours, PostgreSQL, ${run}`, database, chain, again);
          rows.push({ indexer: "Diginoor", engine: "PostgreSQL", run, ...r });
        }
      }

      if (process.env.BENCH_PONDER !== "0") {
        const version = ensurePonder();
        const ponderEnv = {
          PONDER_RPC_URL: url,
          PONDER_COLLECTIBLE: chain.collectible,
          PONDER_MARKETPLACE: chain.marketplace,
          PONDER_START_BLOCK: String(chain.startBlock),
          PONDER_END_BLOCK: String(head),
        };
        const engines: [string, Record<string, string>, (() => Promise<void>) | undefined][] = [];
        const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-bench-ponder-"));
        engines.push([
          "PGlite",
          { PONDER_PGLITE_DIR: pgliteDir },
          async () => fs.rmSync(pgliteDir, { recursive: true, force: true }),
        ]);
        const ponderPg = server && (await freshPostgres("diginoor_bench_ponder"));
        if (ponderPg) engines.push(["PostgreSQL", { DATABASE_URL: ponderPg.url }, ponderPg.drop]);
        for (const [engine, env, cleanup] of engines) {
          try {
            // The second run indexes into a new schema of the same database: Ponder's RPC cache
            // (its ponder_sync schema) is warm.
            for (const [run, schema] of [
              ["cold", "bench_cold"],
              ["warm RPC cache", "bench_warm"],
            ] as const) {
              console.log(uptime());
              const p = await runPonder(schema, await freePort(), { ...ponderEnv, ...env });
              console.log(
                `Ponder ${version}, ${engine}, ${run}: backfill ${p.backfillS.toFixed(2)} s; /ready ${p.totalS.toFixed(2)} s after its start`,
              );
              rows.push({
                indexer: `Ponder ${version}`,
                engine,
                run,
                events: EVENTS,
                seconds: p.backfillS,
                total: p.totalS,
              });
            }
            if (engine === "PostgreSQL" && ponderPg) await compareWithPonder(ponderPg.url, database);
          } finally {
            await cleanup?.();
          }
        }
      }

      console.log(uptime());
      lags.push({ engine: "PGlite (in memory)", lag: await lagAtHead("PGlite", pglite, chain) });
      if (database && server)
        lags.push({ engine: server.engine, lag: await lagAtHead("PostgreSQL", database, chain) });
    } finally {
      await pglite.close();
      await database?.close();
      await server?.drop();
    }

    const cpus = os.cpus();
    const ours = (engine: string, run: string) =>
      rows.find((r) => r.indexer === "Diginoor" && r.engine === engine && r.run === run);
    const ratio = (r: Row) => {
      const o = ours(r.engine, r.run === "cold" ? "cold" : "re-index");
      if (!o || r.indexer === "Diginoor") return "–";
      return `${(r.seconds / o.seconds).toFixed(1)}×`;
    };
    const section = [
      "## Indexer",
      "",
      `\`npm run bench:indexer\` (apps/server/bench/indexer.ts), ${new Date().toISOString().slice(0, 10)}, ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, Node ${process.version}, anvil with the real contracts. Load average (1 min) at each step: ${load.join(", ")}: the machine is shared with other work, so compare rows of this run with each other, not with other runs. Goal: at least 2,000 events/s catching up; lag at most confirmations + 1 = 2 blocks.`,
      "",
      `Catch-up: ${EVENTS.toLocaleString("en")} events of the marketplace's own life, in blocks of up to ${TXS_PER_BLOCK} transactions: ${MINTS.toLocaleString("en")} mints (Transfer + CollectibleMinted); ${LISTED.toLocaleString("en")} of them listed, repriced and bought (Listed, ListingPriceUpdated, Sale + Transfer); ${AUCTIONED.toLocaleString("en")} auctioned (AuctionCreated + Transfer into escrow), bid on twice (BidPlaced) and settled (AuctionSettled + Transfer). Ours: a fresh indexer (batches of ${defaults.INDEXER_BATCH_BLOCKS} blocks, one transaction per batch with the checkpoint); "re-index" is the same database after forgetting everything indexed (as after a restore or a contract change). Ponder ${rows.find((r) => r.indexer.startsWith("Ponder"))?.indexer.slice(7) ?? "0.16"} (apps/server/bench/ponder: the same contracts and blocks, tables and indexing functions mirroring ours: tokens and owners, listings, auctions, transfers, bids, sales, notifications), \`ponder start\` into a fresh schema; "warm RPC cache" is a second run into a new schema of the same database, where Ponder finds the logs and blocks it fetched the first time (its ponder_sync schema). Ponder's seconds are its own clock of the backfill ("Completed backfill indexing", fetching and indexing, like our catch-up); the time from its start to \`/ready\` (build, migrations, backfill, indexes) is given apart.`,
      "",
      "| Indexer | Database | Run | Events | Seconds | Events/s | Ponder: start to /ready (s) | Ponder ÷ ours (time) |",
      "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map(
        (r) =>
          `| ${r.indexer} | ${r.engine} | ${r.run} | ${r.events} | ${r.seconds.toFixed(2)} | ${Math.round(r.events / r.seconds)} | ${r.total === undefined ? "–" : r.total.toFixed(1)} | ${ratio(r)} |`,
      ),
      "",
      `Ours counts every log of the two contracts it stores (the ${EVENTS.toLocaleString("en")} above and the seller's ApprovalForAll); Ponder's indexing functions handle the ${EVENTS.toLocaleString("en")}. The last column compares Ponder's cold run with our cold run and its warm run with our re-index. Ours on PGlite runs in memory; Ponder's PGlite is a directory in the temporary directory.`,
      "",
      `Lag at the head (after the catch-ups): a block of ${LAG_MINTS_PER_BLOCK} mints (${LAG_MINTS_PER_BLOCK * 2} events) every second for ${LAG_SECONDS} s, indexer at its defaults (1 confirmation, polling every ${defaults.INDEXER_POLL_MS} ms); head minus checkpoint sampled every 100 ms.`,
      "",
      "| Engine | Blocks | Samples | Max lag (blocks) | p95 | Mean |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...lags.map(
        ({ engine, lag }) =>
          `| ${engine} | ${lag.blocks} | ${lag.samples} | ${lag.max} | ${lag.p95} | ${lag.mean.toFixed(2)} |`,
      ),
      "",
    ].join("\n");
    console.log(`\n${section}`);
    if (process.env.BENCH_NO_DOCS === "1") console.log("BENCH_NO_DOCS=1: docs/benchmarks.md left as it is");
    else console.log(`written to ${writeDocs("## Indexer", section)}`);
  } finally {
    await anvil.stop();
  }
}

const WORKLOAD_EVENTS = [
  "Transfer",
  "CollectibleMinted",
  "Listed",
  "ListingPriceUpdated",
  "Sale",
  "AuctionCreated",
  "BidPlaced",
  "AuctionSettled",
];

/** Ponder's tables hold what ours hold: the same number of transfers, sales, bids and tokens. */
async function compareWithPonder(ponderUrl: string, ours: Database | undefined) {
  if (!ours) return;
  const client = new pg.Client({ connectionString: ponderUrl });
  await client.connect();
  try {
    for (const [theirs, mine] of [
      ["token", "indexer_tokens"],
      ["transfer", "indexer_transfers"],
      ["sale", "indexer_sales"],
      ["bid", "indexer_bids"],
      ["auction", "indexer_auctions"],
      ["listing", "indexer_listings"],
      ["notification", "indexer_notifications"],
    ]) {
      const p = Number(
        (await client.query(`SELECT count(*)::int AS n FROM bench_warm.${theirs}`)).rows[0]?.n,
      );
      const o = Number((await ours.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${mine}`))[0]?.n);
      console.log(`  rows: Ponder ${theirs} ${p}, ours ${mine} ${o}${p === o ? "" : "  (DIFFERENT)"}`);
    }
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
