import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { ModuleWork } from "../../platform/work.ts";
import type { ChainRuntime } from "../chain/service.ts";
import { confirmationDepth, createIndexer } from "./service.ts";

/**
 * The chain indexer as a worker process's loop (with a chain and INDEXER=on); it stops before the
 * process does. Several worker processes may run it: one holds the chain's lock and indexes, the
 * others wait to take over (docs/decisions/110-indexer.md).
 */
export function indexerWork(deps: {
  config: Pick<
    Config,
    "INDEXER" | "INDEXER_CONFIRMATIONS" | "INDEXER_BATCH_BLOCKS" | "INDEXER_POLL_MS" | "INDEXER_REORG_WINDOW"
  >;
  chain: ChainRuntime | undefined;
  database: Database;
  pubsub: PubSub;
  log: (level: "info" | "warn" | "error", obj: object, msg: string) => void;
}): ModuleWork {
  const { chain, config } = deps;
  if (!chain || !config.INDEXER) return { module: "indexer" };
  // Built when a worker starts it: an API process never opens the indexer's RPC client.
  const build = () =>
    createIndexer({
      database: deps.database,
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrls,
      collectible: chain.deployment.collectible,
      marketplace: chain.deployment.marketplace,
      startBlock: chain.deployment.blockNumber,
      confirmations: confirmationDepth(config.INDEXER_CONFIRMATIONS, chain.chainId),
      batchBlocks: config.INDEXER_BATCH_BLOCKS,
      pollMs: config.INDEXER_POLL_MS,
      reorgWindow: config.INDEXER_REORG_WINDOW,
      pubsub: deps.pubsub,
      log: (level, msg, extra) => deps.log(level, { ...extra, chainId: chain.chainId }, `indexer: ${msg}`),
    });
  let indexer: ReturnType<typeof build> | undefined;
  return {
    module: "indexer",
    loops: [
      {
        start: () => {
          indexer ??= build();
          indexer.start();
        },
        stop: async () => {
          await indexer?.stop();
        },
      },
    ],
  };
}
