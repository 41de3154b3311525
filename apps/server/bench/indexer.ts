// `npm run bench:indexer`: the chain indexer on a real anvil with our real contracts.
//  1. Catch-up: 20,000 events (5,000 mints of two events each, then 10,000 transfers) are mined in
//     blocks of 200 transactions (automine off, transactions sent in JSON-RPC batches), then a fresh
//     indexer applies them all; events per second = events / wall time of the catch-up.
//  2. Lag at the head: a block of 10 mints (20 events) every second for 20 s while the indexer runs at
//     its defaults (1 confirmation on anvil, INDEXER_POLL_MS default); the lag in blocks (head minus
//     checkpoint) is sampled every 100 ms.
// Both engines: PGlite (in memory) and the PostgreSQL server (DATABASE_URL, else the local server at
// postgresql://postgres@127.0.0.1:5432 if reachable, fresh database `diginoor_bench_indexer`).
// Writes the figures to the "## Indexer" section of docs/benchmarks.md.
import os from "node:os";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { startAnvil } from "@diginoor/contracts/anvil";
import { deployAll } from "@diginoor/contracts/deploy";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { toOrderId } from "@diginoor/contracts/voucher";
import { type Address, encodeFunctionData, type Hex, numberToHex } from "viem";
import { loadConfig } from "../src/config.ts";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createIndexer } from "../src/modules/indexer/service.ts";
import { freshPostgres, writeDocs } from "./support.ts";

const MINTS = 5_000;
const TRANSFERS = 10_000;
const EVENTS = MINTS * 2 + TRANSFERS;
const TXS_PER_BLOCK = 200;
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 20);
const LAG_MINTS_PER_BLOCK = 10;
const defaults = loadConfig({ NODE_ENV: "test" });

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

let nextOrder = 1n;
const mintTx = (collectible: Address, to: Address) => ({
  from: ANVIL_ADDRESSES[0],
  to: collectible,
  gas: numberToHex(300_000),
  data: encodeFunctionData({
    abi: diginoorCollectibleAbi,
    functionName: "mintForOrder",
    args: [to, 1n, 1, ANVIL_ADDRESSES[9] as Address, toOrderId(nextOrder++)],
  }),
});
const transferTx = (collectible: Address, from: Address, to: Address, id: bigint) => ({
  from,
  to: collectible,
  gas: numberToHex(200_000),
  data: encodeFunctionData({
    abi: diginoorCollectibleAbi,
    functionName: "transferFrom",
    args: [from, to, id],
  }),
});

const nonces = new Map<string, bigint>();

/** Sends the transactions (anvil's unlocked dev accounts sign them) in blocks of TXS_PER_BLOCK. */
async function mineAll(url: string, txs: { from?: string }[]) {
  for (let i = 0; i < txs.length; i += TXS_PER_BLOCK) {
    const chunk = txs.slice(i, i + TXS_PER_BLOCK);
    for (const tx of chunk) {
      const from = tx.from as string;
      if (!nonces.has(from)) {
        const [n] = await rpc<Hex>(url, [{ method: "eth_getTransactionCount", params: [from, "pending"] }]);
        nonces.set(from, BigInt(n as Hex));
      }
    }
    const sends = chunk.map((tx) => {
      const from = tx.from as string;
      const nonce = nonces.get(from) as bigint;
      nonces.set(from, nonce + 1n);
      return { method: "eth_sendTransaction", params: [{ ...tx, nonce: numberToHex(nonce) }] };
    });
    await rpc<Hex>(url, sends);
    await rpc(url, [{ method: "evm_mine", params: [] }]);
  }
}

interface EngineResult {
  engine: string;
  events: number;
  seconds: number;
  lag: { samples: number; max: number; p95: number; mean: number; blocks: number };
}

async function benchEngine(
  engine: string,
  database: Database,
  chain: { url: string; collectible: Address; marketplace: Address; startBlock: bigint },
): Promise<EngineResult> {
  const options = {
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
    log: (level: string, msg: string, extra?: Record<string, unknown>) =>
      console.log(`indexer ${level}: ${msg} ${extra ? JSON.stringify(extra) : ""}`),
  };
  const indexer = createIndexer(options);
  const t0 = performance.now();
  const r = await indexer.catchUp();
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `${engine}: ${r.applied} events in ${seconds.toFixed(2)} s = ${Math.round(r.applied / seconds)} events/s`,
  );

  // Lag at the head while new events arrive.
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
  return { engine, events: r.applied, seconds, lag };
}

async function main() {
  const anvil = await startAnvil({ chainId: 31337 });
  try {
    const deployment = await deployAll({
      rpcUrl: anvil.rpcUrl,
      metadataBaseUri: "http://localhost:3000/api/v1/metadata/",
    });
    const url = anvil.rpcUrl;
    await rpc(url, [{ method: "evm_setAutomine", params: [false] }]);
    const [a1, a2, a3] = [ANVIL_ADDRESSES[1], ANVIL_ADDRESSES[2], ANVIL_ADDRESSES[3]] as Address[];
    const g0 = performance.now();
    const first = nextOrder;
    await mineAll(
      url,
      Array.from({ length: MINTS }, () => mintTx(deployment.collectible, a1 as Address)),
    );
    const ids = Array.from({ length: MINTS }, (_, i) => first + BigInt(i));
    await mineAll(
      url,
      ids.map((id) => transferTx(deployment.collectible, a1 as Address, a2 as Address, id)),
    );
    await mineAll(
      url,
      ids.map((id) => transferTx(deployment.collectible, a2 as Address, a3 as Address, id)),
    );
    const [head] = await rpc<Hex>(url, [{ method: "eth_blockNumber", params: [] }]);
    console.log(
      `generated ${EVENTS} events up to block ${BigInt(head as Hex)} in ${((performance.now() - g0) / 1000).toFixed(1)} s`,
    );
    const chain = {
      url,
      collectible: deployment.collectible,
      marketplace: deployment.marketplace,
      startBlock: deployment.blockNumber,
    };

    const results: EngineResult[] = [];
    const pglite = await openDatabase({});
    await migrate(pglite);
    results.push(await benchEngine("PGlite (in memory)", pglite, chain));
    await pglite.close();

    const server = process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL, engine: "PostgreSQL server (DATABASE_URL)", drop: async () => {} }
      : await freshPostgres("diginoor_bench_indexer");
    if (server) {
      const database = await openDatabase({ url: server.url, poolSize: 5 });
      try {
        await migrate(database);
        await database.query("DELETE FROM indexer_checkpoints WHERE chain_id = 31337");
        results.push(await benchEngine(server.engine, database, chain));
      } finally {
        await database.close();
        await server.drop();
      }
    }

    const cpus = os.cpus();
    const section = [
      "## Indexer",
      "",
      `\`npm run bench:indexer\` (apps/server/bench/indexer.ts), ${new Date().toISOString().slice(0, 10)}, ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)} at the end (the machine is shared), anvil with the real contracts. Goal: at least 2,000 events/s catching up; lag at most confirmations + 1 = 2 blocks.`,
      "",
      `Catch-up: ${EVENTS.toLocaleString("en")} events (${MINTS.toLocaleString("en")} mints of 2 events, ${TRANSFERS.toLocaleString("en")} transfers) in blocks of ${TXS_PER_BLOCK} transactions, applied by a fresh indexer (batches of ${defaults.INDEXER_BATCH_BLOCKS} blocks, one transaction per batch with the checkpoint).`,
      "",
      "| Engine | Events | Seconds | Events/s |",
      "| --- | ---: | ---: | ---: |",
      ...results.map(
        (r) =>
          `| ${r.engine} | ${r.events} | ${r.seconds.toFixed(2)} | ${Math.round(r.events / r.seconds)} |`,
      ),
      "",
      `Lag at the head: a block of ${LAG_MINTS_PER_BLOCK} mints (${LAG_MINTS_PER_BLOCK * 2} events) every second for ${LAG_SECONDS} s, indexer at its defaults (1 confirmation, polling every ${defaults.INDEXER_POLL_MS} ms); head minus checkpoint sampled every 100 ms.`,
      "",
      "| Engine | Blocks | Samples | Max lag (blocks) | p95 | Mean |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...results.map(
        (r) =>
          `| ${r.engine} | ${r.lag.blocks} | ${r.lag.samples} | ${r.lag.max} | ${r.lag.p95} | ${r.lag.mean.toFixed(2)} |`,
      ),
      "",
    ].join("\n");
    console.log(`\n${section}`);
    console.log(`written to ${writeDocs("## Indexer", section)}`);
  } finally {
    await anvil.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
