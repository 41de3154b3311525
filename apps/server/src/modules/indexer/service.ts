import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import type pg from "pg";
import {
  type AbiEvent,
  type Address,
  type Block,
  createPublicClient,
  getAddress,
  type Hex,
  type Log,
  type PublicClient,
  toEventSelector,
} from "viem";
import type { Database } from "../../db/client.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import { applyEvents, type IndexedLog, keysOf } from "./apply.ts";
import { compileDecoder, type EventDecoder } from "./decode.ts";
import * as repo from "./repo.ts";
import { rpcTransport } from "../../lib/rpc-transport.ts";

/** Pub/sub channel of the indexer: one message per applied batch or rollback. */
export const CHAIN_EVENTS_CHANNEL = "chain.events";

export interface ChainEventsMessage {
  chainId: number;
  kind: "batch" | "rollback";
  /** Batch: the blocks applied; rollback: fromBlock is the common ancestor kept. */
  fromBlock: string;
  toBlock: string;
  events: number;
  /** Tokens the batch touched (at most 50; `more` when there were others). */
  tokenIds: string[];
  more: boolean;
  /** Ids of the notification rows the batch recorded (at most 100). */
  notificationIds: number[];
}

export interface IndexerOptions {
  database: Database;
  chainId: number;
  /** The RPC endpoint, or several (falling back from one to the next). */
  rpcUrl: string | readonly string[];
  collectible: Address;
  marketplace: Address;
  /** Block of the contracts' deployment: indexing starts there. */
  startBlock: bigint;
  /** Apply a block after this many confirmations (1 = once mined), or once `finalized`. */
  confirmations: number | "finalized";
  batchBlocks: number;
  pollMs: number;
  reorgWindow: number;
  pubsub?: PubSub;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

export interface PollResult {
  /** Nothing left to apply up to the confirmed head. */
  caughtUp: boolean;
  applied: number;
  rolledBackTo?: bigint;
  checkpoint: bigint;
}

export interface Indexer {
  /** Runs in the background: waits for the chain's lock, then polls until stopped. */
  start(): void;
  stop(): Promise<void>;
  /** One step: reorg check, then at most one batch. */
  pollOnce(): Promise<PollResult>;
  /** Polls until caught up with the confirmed head (tests and tools). */
  catchUp(): Promise<PollResult>;
  /** Whether this process holds the chain's indexer lock. */
  readonly active: boolean;
}

class ReorgInFlight extends Error {}
export class CheckpointMoved extends Error {
  constructor() {
    super("indexer: the checkpoint moved under this batch (another indexer?); batch not applied");
  }
}

interface EventSpec {
  contract: IndexedLog["contract"];
  decode: EventDecoder;
  name: string;
}

function eventSpecs(collectible: Address, marketplace: Address): Map<string, EventSpec> {
  const specs = new Map<string, EventSpec>();
  const add = (address: Address, contract: IndexedLog["contract"], abi: readonly unknown[]) => {
    for (const item of abi as AbiEvent[]) {
      if (item.type !== "event") continue;
      specs.set(`${address.toLowerCase()} ${toEventSelector(item)}`, {
        contract,
        decode: compileDecoder(item),
        name: item.name,
      });
    }
  };
  add(collectible, "collectible", diginoorCollectibleAbi);
  add(marketplace, "marketplace", diginoorMarketplaceAbi);
  // A recovery proposal of a passkey account, from any address and whoever sent it (decision 185): the
  // notifications module tells the owner of a linked wallet; an address no fan linked is ignored there.
  specs.set(`* ${toEventSelector(RECOVERY_PROPOSED)}`, {
    contract: "account",
    decode: compileDecoder(RECOVERY_PROPOSED),
    name: RECOVERY_PROPOSED.name,
  });
  return specs;
}

/** `RecoveryProposed(address indexed guardian, bytes32 qx, bytes32 qy, uint40 executableAt)` of our passkey account. */
const RECOVERY_PROPOSED = diginoorPasskeyAccountAbi.find(
  (x): x is Extract<(typeof diginoorPasskeyAccountAbi)[number], { type: "event" }> =>
    x.type === "event" && x.name === "RecoveryProposed",
) as AbiEvent;

/** In-process holders of an indexer lock (PGlite: one process; a session lock there is re-entrant). */
const localLocks = new WeakMap<Database, Set<number>>();
const LOCK_CLASS = 7_272_060;

export function createIndexer(opts: IndexerOptions): Indexer {
  const { database, chainId } = opts;
  const q: repo.Query = (text, params) => database.query(text, params);
  const log = opts.log ?? ((level, msg, extra) => console[level](`indexer: ${msg}`, extra ?? ""));
  const client = createPublicClient({
    // getLogs answers of a catch-up are large (20,000 logs are about 15 MB); ranges are halved beyond this.
    transport: rpcTransport(typeof opts.rpcUrl === "string" ? [opts.rpcUrl] : opts.rpcUrl, {
      batch: { batchSize: 500, wait: 0 },
      retryCount: 2,
      maxResponseBodySize: 64 * 1024 * 1024,
      timeout: 60_000,
    }),
    cacheTime: 0,
  }) as PublicClient;
  const specs = eventSpecs(opts.collectible, opts.marketplace);
  const collectible = getAddress(opts.collectible);
  const marketplace = getAddress(opts.marketplace);
  let batchBlocks = BigInt(opts.batchBlocks);

  let stopped = true;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let release: (() => Promise<void>) | undefined;
  let lockLost = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  async function getBlock(number: bigint): Promise<Block | null> {
    try {
      return await client.getBlock({ blockNumber: number });
    } catch (err) {
      if ((err as Error).name === "BlockNotFoundError") return null;
      throw err;
    }
  }

  /** The checkpoint, created at the block before the deployment (or reset when the contracts changed). */
  async function checkpoint(): Promise<repo.Checkpoint> {
    const cp = await repo.getCheckpoint(q, chainId);
    if (cp && cp.collectible === collectible && cp.marketplace === marketplace) return cp;
    const start = opts.startBlock > 0n ? opts.startBlock - 1n : 0n;
    const block = await getBlock(start);
    if (!block?.hash) throw new Error(`indexer: block ${start} not found on chain ${chainId}`);
    const fresh = { collectible, marketplace, blockNumber: start, blockHash: block.hash };
    return withTransaction(database, async (tx) => {
      const locked = await repo.getCheckpoint(tx.query, chainId, true);
      if (locked && locked.collectible === collectible && locked.marketplace === marketplace) return locked;
      if (locked) log("warn", "contracts changed: indexing again from their deployment", { chainId });
      await repo.resetChain(tx.query, chainId);
      await repo.putCheckpoint(tx.query, chainId, fresh);
      await repo.insertHistory(tx.query, chainId, "blocks", [blockRow(block)]);
      return fresh;
    });
  }

  const blockRow = (b: Block) => ({
    block_number: (b.number as bigint).toString(),
    block_hash: b.hash as string,
    block_time: new Date(Number(b.timestamp) * 1000).toISOString(),
  });

  /** Runs `fn` in a transaction that first checks the checkpoint is still `cp` (and locks it). */
  function guarded<T>(cp: repo.Checkpoint, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return withTransaction(database, async (tx) => {
      const now = await repo.getCheckpoint(tx.query, chainId, true);
      if (!now || now.blockNumber !== cp.blockNumber || now.blockHash !== cp.blockHash)
        throw new CheckpointMoved();
      return fn(tx);
    });
  }

  async function confirmedHead(latest: bigint): Promise<bigint> {
    if (opts.confirmations === "finalized") {
      const b = await client.getBlock({ blockTag: "finalized" });
      return b.number as bigint;
    }
    return latest - BigInt(opts.confirmations - 1);
  }

  /** Walks back over the stored hashes to the newest block the chain still has, and rolls back to it. */
  async function rollback(cp: repo.Checkpoint): Promise<bigint> {
    let ancestor: { number: bigint; hash: string } | undefined;
    for (const b of await repo.recentBlocks(q, chainId, cp.blockNumber)) {
      const onChain = await getBlock(b.number);
      if (onChain?.hash === b.hash) {
        ancestor = b;
        break;
      }
    }
    let rolledBackTo = -1n;
    await guarded(cp, async (tx) => {
      if (!ancestor) {
        log("warn", "reorganisation deeper than the kept window: indexing again from the deployment", {
          chainId,
        });
        await repo.resetChain(tx.query, chainId);
        return;
      }
      const at = await repo.rollbackTo(tx.query, chainId, ancestor.number);
      // The ancestor, or the block before the batch that contained it: on the common chain either way.
      const hash = at === ancestor.number ? ancestor.hash : (await getBlock(at))?.hash;
      if (!hash) throw new ReorgInFlight(`block ${at} vanished`);
      await repo.putCheckpoint(tx.query, chainId, {
        collectible,
        marketplace,
        blockNumber: at,
        blockHash: hash,
      });
      log("warn", "reorganisation: rolled back", {
        chainId,
        ancestor: ancestor.number.toString(),
        to: at.toString(),
      });
      rolledBackTo = at;
      await publish(tx, {
        chainId,
        kind: "rollback",
        fromBlock: at.toString(),
        toBlock: cp.blockNumber.toString(),
        events: 0,
        tokenIds: [],
        more: false,
        notificationIds: [],
      });
    });
    return rolledBackTo;
  }

  async function publish(tx: Tx, message: ChainEventsMessage) {
    if (!opts.pubsub) return;
    try {
      await opts.pubsub.publish(CHAIN_EVENTS_CHANNEL, message, { tx });
    } catch (err) {
      log("warn", "could not publish chain.events", { err: String(err) });
    }
  }

  function decode(raw: Log[], times: Map<bigint, Date>): IndexedLog[] {
    const out: IndexedLog[] = [];
    for (const l of raw) {
      const spec = specs.get(`${l.address.toLowerCase()} ${l.topics[0]}`) ?? specs.get(`* ${l.topics[0]}`);
      if (!spec || l.blockNumber === null || l.logIndex === null || l.transactionHash === null) continue;
      out.push({
        blockNumber: l.blockNumber,
        blockHash: l.blockHash as Hex,
        blockTime: times.get(l.blockNumber) as Date,
        txHash: l.transactionHash,
        txIndex: l.transactionIndex ?? 0,
        logIndex: l.logIndex,
        contract: spec.contract,
        address: getAddress(l.address),
        name: spec.name,
        args: spec.decode(l.topics, l.data),
      });
    }
    out.sort((a, b) =>
      a.blockNumber !== b.blockNumber
        ? a.blockNumber < b.blockNumber
          ? -1
          : 1
        : a.txIndex !== b.txIndex
          ? a.txIndex - b.txIndex
          : a.logIndex - b.logIndex,
    );
    return out;
  }

  async function getLogs(from: bigint, to: bigint): Promise<Log[]> {
    try {
      const [ours, recoveries] = await Promise.all([
        client.getLogs({ address: [collectible, marketplace], fromBlock: from, toBlock: to }),
        client.getLogs({ event: RECOVERY_PROPOSED, fromBlock: from, toBlock: to, strict: false }),
      ]);
      return recoveries.length ? [...ours, ...(recoveries as Log[])] : ours;
    } catch (err) {
      // Nodes cap the range or the number of results: retry with half the range.
      if (to > from) {
        batchBlocks = (to - from + 1n) / 2n || 1n;
        throw new ReorgInFlight(
          `getLogs ${from}-${to} failed (${(err as Error).message.split("\n")[0]}); next batches are ${batchBlocks} blocks`,
        );
      }
      throw err;
    }
  }

  async function pollOnce(): Promise<PollResult> {
    if (lockLost) throw new Error("indexer: lost its lock");
    const cp = await checkpoint();
    const latest = await client.getBlockNumber();
    const current = await getBlock(cp.blockNumber);
    if (current?.hash !== cp.blockHash) {
      const to = await rollback(cp);
      return { caughtUp: false, applied: 0, rolledBackTo: to, checkpoint: to };
    }
    const target = await confirmedHead(latest);
    if (target <= cp.blockNumber) return { caughtUp: true, applied: 0, checkpoint: cp.blockNumber };
    const from = cp.blockNumber + 1n;
    const to = target < from + batchBlocks - 1n ? target : from + batchBlocks - 1n;

    const t0 = performance.now();
    const before = await getBlock(to);
    const raw = await getLogs(from, to);
    const tLogs = performance.now();
    const [after, first] = await Promise.all([getBlock(to), from === to ? null : getBlock(from)]);
    // The range must be one chain, linked to the checkpoint: otherwise a reorganisation is under way,
    // and the next poll finds it.
    if (!before || !after || before.hash !== after.hash || (first ?? after).parentHash !== cp.blockHash) {
      return { caughtUp: false, applied: 0, checkpoint: cp.blockNumber };
    }
    const times = new Map<bigint, Date>([[to, new Date(Number(after.timestamp) * 1000)]]);
    const missing = new Set<bigint>();
    for (const l of raw) {
      if (l.blockNumber === null || times.has(l.blockNumber)) continue;
      const ts = (l as { blockTimestamp?: bigint }).blockTimestamp;
      if (ts !== undefined && ts !== null) times.set(l.blockNumber, new Date(Number(BigInt(ts)) * 1000));
      else missing.add(l.blockNumber);
    }
    await Promise.all(
      [...missing].map(async (n) => {
        const b = await getBlock(n);
        if (!b) throw new ReorgInFlight(`block ${n} vanished`);
        times.set(n, new Date(Number(b.timestamp) * 1000));
      }),
    );
    const tTimes = performance.now();
    const logs = decode(raw, times);
    const tDecode = performance.now();
    const blocks = new Map<bigint, { block_number: string; block_hash: string; block_time: string }>();
    blocks.set(to, blockRow(after));
    for (const l of logs) {
      if (!blocks.has(l.blockNumber)) {
        blocks.set(l.blockNumber, {
          block_number: l.blockNumber.toString(),
          block_hash: l.blockHash,
          block_time: l.blockTime.toISOString(),
        });
      }
    }
    const journalFrom = latest - BigInt(opts.reorgWindow);
    const applied = await guarded(cp, async (tx) => {
      const fresh = await repo.insertEvents(tx.query, chainId, logs, { from, to });
      const tEvents = performance.now();
      const rows = await repo.loadRows(tx.query, chainId, keysOf(fresh));
      const tLoad = performance.now();
      const result = applyEvents(fresh, rows, to > journalFrom);
      const tApply = performance.now();
      await repo.writeRows(tx.query, chainId, rows, result.changed);
      const tWrite = performance.now();
      await repo.insertHistory(tx.query, chainId, "transfers", result.transfers);
      await repo.insertHistory(tx.query, chainId, "bids", result.bids);
      await repo.insertHistory(tx.query, chainId, "sales", result.sales);
      const notes = await repo.insertHistory<{ id: number }>(
        tx.query,
        chainId,
        "notifications",
        result.notifications,
        "RETURNING id",
      );
      await repo.insertUndo(tx.query, chainId, result.undo, { from, to });
      await repo.insertHistory(
        tx.query,
        chainId,
        "blocks",
        [...blocks.values()].filter(
          (b) => BigInt(b.block_number) > journalFrom || b.block_number === to.toString(),
        ),
      );
      await repo.putCheckpoint(tx.query, chainId, {
        collectible,
        marketplace,
        blockNumber: to,
        blockHash: after.hash as string,
      });
      if (to - BigInt(opts.reorgWindow) > 0n)
        await repo.pruneBelow(tx.query, chainId, to - BigInt(opts.reorgWindow));
      if (fresh.length) {
        const tokens = [...result.changed.tokens, ...result.changed.listings, ...result.changed.auctions];
        const unique = [...new Set(tokens)];
        await publish(tx, {
          chainId,
          kind: "batch",
          fromBlock: from.toString(),
          toBlock: to.toString(),
          events: fresh.length,
          tokenIds: unique.slice(0, 50),
          more: unique.length > 50,
          notificationIds: notes.slice(0, 100).map((n) => Number(n.id)),
        });
      }
      if (fresh.length) {
        const ms = (a: number, b: number) => Math.round(b - a);
        log("info", "batch applied", {
          from: from.toString(),
          to: to.toString(),
          events: fresh.length,
          ms: {
            logs: ms(t0, tLogs),
            headers: ms(tLogs, tTimes),
            decode: ms(tTimes, tDecode),
            storeEvents: ms(tDecode, tEvents),
            load: ms(tEvents, tLoad),
            apply: ms(tLoad, tApply),
            write: ms(tApply, tWrite),
            history: ms(tWrite, performance.now()),
          },
        });
      }
      return fresh.length;
    });
    return { caughtUp: to >= target, applied, checkpoint: to };
  }

  async function catchUp(): Promise<PollResult> {
    let total = 0;
    for (;;) {
      let r: PollResult;
      try {
        r = await pollOnce();
      } catch (err) {
        // A halved getLogs range or a block that vanished: try again.
        if (err instanceof ReorgInFlight) {
          log("warn", err.message);
          continue;
        }
        throw err;
      }
      total += r.applied;
      if (r.caughtUp) return { ...r, applied: total };
    }
  }

  /** One active indexer per chain: a session advisory lock on PostgreSQL, a process-local one on PGlite. */
  async function acquire(): Promise<(() => Promise<void>) | undefined> {
    const raw = database.raw;
    if (raw.kind === "pglite") {
      const held = localLocks.get(database) ?? new Set<number>();
      localLocks.set(database, held);
      if (held.has(chainId)) return undefined;
      held.add(chainId);
      return async () => {
        held.delete(chainId);
      };
    }
    const conn: pg.PoolClient = await raw.pool.connect();
    let ok = false;
    try {
      const r = await conn.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [
        LOCK_CLASS,
        chainId,
      ]);
      ok = r.rows[0]?.ok === true;
    } finally {
      if (!ok) conn.release();
    }
    if (!ok) return undefined;
    const onError = () => {
      lockLost = true;
    };
    conn.on("error", onError);
    return async () => {
      conn.off("error", onError);
      try {
        await conn.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_CLASS, chainId]);
        conn.release();
      } catch (err) {
        conn.release(err as Error);
      }
    };
  }

  async function run() {
    let failures = 0;
    while (!stopped) {
      if (!release || lockLost) {
        if (release) {
          await release().catch(() => {});
          release = undefined;
          lockLost = false;
        }
        release = await acquire().catch((err) => {
          log("error", "could not take the indexer lock", { err: String(err) });
          return undefined;
        });
        if (!release) {
          await sleep(Math.max(opts.pollMs, 2000));
          continue;
        }
      }
      try {
        const r = await pollOnce();
        failures = 0;
        if (r.caughtUp) await sleep(opts.pollMs);
      } catch (err) {
        failures++;
        if (!(err instanceof ReorgInFlight) && !(err instanceof CheckpointMoved)) {
          log("error", "poll failed", { err: err instanceof Error ? err.message : String(err), failures });
        }
        await sleep(Math.min(opts.pollMs * 2 ** Math.min(failures, 5), 30_000));
      }
    }
    if (release) await release().catch(() => {});
    release = undefined;
  }

  return {
    get active() {
      return !!release && !lockLost;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      loop = undefined;
    },
    pollOnce,
    catchUp,
  };
}

export { createTokenReads } from "./reads.ts";
export type TokenReads = ReturnType<typeof import("./reads.ts").createTokenReads>;

/** Anvil's chain id: a local chain, where a block is applied as soon as it is mined. */
const LOCAL_CHAIN = 31337;

/** Blocks the indexer waits for before applying one (INDEXER_CONFIRMATIONS, else 1 on anvil, else finality). */
export function confirmationDepth(
  configured: number | "finalized" | undefined,
  chainId: number,
): number | "finalized" {
  return configured ?? (chainId === LOCAL_CHAIN ? 1 : "finalized");
}

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { exportChainActivity } from "./personal-data.ts";

/** Every indexed sale with its catalogue NFT number, for the studio earnings (decision 174). */
export { salesWithNft, type EarningSaleRow } from "./repo.ts";
