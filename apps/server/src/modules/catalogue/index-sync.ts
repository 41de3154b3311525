// Keeps this process's catalogue search index (search-index.ts) in step with the database, which
// several server processes share (docs/decisions/023-catalogue-search-index.md).
//
// Triggers log every changed NFT id with its transaction id in `catalogue_changes` and NOTIFY
// `catalogue.changes` (migration 0021). A catch-up first reads the oldest transaction still running
// (`pg_snapshot_xmin`), then every change of transactions from the watermark on that has committed
// by now, reloads those NFTs' rows, and moves the watermark to that oldest running transaction: a
// transaction that began earlier and commits later keeps the watermark below it, so its changes are
// read once it commits (changes read twice are harmless: the current row is reloaded). Catch-ups run
// on each notification, every two seconds as a fallback (and on PGlite, whose pub/sub is in-process),
// and before every read when `catchUpOnRead` is set (tests: a write is visible to the next read).
import type { NftSort } from "@diginoor/api/catalogue";
import type { Database } from "../../db/client.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { NftCursor } from "./cursor.ts";
import * as repo from "./repo.ts";
import { CatalogueSearchIndex, type IndexHit } from "./search-index.ts";

/** The channel the change-log triggers notify (migration 0021). */
export const CATALOGUE_CHANGES_CHANNEL = "catalogue.changes";

export interface SearchIndexSyncOptions {
  database: Database;
  pubsub: PubSub;
  /** Catch up before every read, so a committed write is seen by the next read (tests). */
  catchUpOnRead?: boolean;
  /** Fallback poll interval (default 2 s). */
  pollMs?: number;
  /**
   * How long logged changes are kept (default 10 minutes). A process that has not caught up for half
   * of it reloads everything instead, since changes it has not read may have been pruned.
   */
  retentionMs?: number;
  /** Wall-clock milliseconds (tests of the retention rules). */
  now?: () => number;
  onError?: (err: unknown) => void;
  /** See CatalogueSearchIndex (tests). */
  directCandidates?: number;
}

export type SearchIndexSync = ReturnType<typeof createSearchIndexSync>;

export function createSearchIndexSync(opts: SearchIndexSyncOptions) {
  const { database, pubsub } = opts;
  const pollMs = opts.pollMs ?? 2000;
  const retentionMs = opts.retentionMs ?? 10 * 60_000;
  const now = opts.now ?? Date.now;
  const onError = opts.onError ?? console.error;
  const index = new CatalogueSearchIndex(opts.directCandidates);
  /** Every transaction below this xid has been read (xid8 as text); undefined until the first load. */
  let watermark: string | undefined;
  let lastSync = 0;
  /** (time, watermark) of past catch-ups: changes below a watermark older than the retention go. */
  const samples: { at: number; xid: string }[] = [];
  let lastPrune = 0;
  let current: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;
  let stopped = false;

  async function step(): Promise<void> {
    const at = now();
    const xmin = await repo.oldestRunningXid(database);
    if (watermark === undefined || at - lastSync > retentionMs / 2) {
      index.replaceAll(await repo.allIndexRows(database));
      index.warm();
    } else {
      const { rows, deleted } = await repo.changedIndexRows(database, watermark);
      if (rows.length > 0 || deleted.length > 0) index.apply(rows, deleted);
    }
    watermark = xmin;
    lastSync = at;
    samples.push({ at, xid: xmin });
    if (at - lastPrune >= Math.min(60_000, retentionMs / 4)) {
      lastPrune = at;
      await prune(at);
    }
  }

  async function prune(at: number): Promise<void> {
    let cut: string | undefined;
    while (samples.length > 0 && (samples[0] as { at: number }).at <= at - retentionMs) {
      cut = (samples.shift() as { xid: string }).xid;
    }
    if (cut !== undefined) await repo.pruneCatalogueChanges(database, cut);
  }

  /** Catches up; a call made while one runs waits for a fresh one after it (it may miss the newest commit). */
  function catchUp(): Promise<void> {
    if (!current) {
      current = step().finally(() => {
        current = undefined;
      });
      return current;
    }
    queued ??= current
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return catchUp();
      });
    return queued;
  }

  const background = () => {
    if (!stopped) catchUp().catch(onError);
  };

  return {
    index,
    /** Whether the index holds the catalogue (loaded at least once). */
    ready: () => watermark !== undefined,
    catchUp,
    /** Loads the index, then follows the change log (notifications and the fallback poll). */
    async start(): Promise<void> {
      // Subscribed first, so no change committed during the load goes unheard.
      unsubscribe = await pubsub.subscribe(CATALOGUE_CHANGES_CHANNEL, background);
      await catchUp();
      timer = setInterval(background, pollMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      await unsubscribe?.();
      await current?.catch(() => {});
    },
    /** One page from the index, after catching up when reads must see every committed write. */
    async list(filter: repo.NftFilter, sort: NftSort, limit: number, after?: NftCursor): Promise<IndexHit[]> {
      if (opts.catchUpOnRead) await catchUp();
      return index.list(filter, sort, limit, after);
    },
  };
}
