import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { confirmationDepth, createIndexer, type Indexer } from "./service.ts";

/**
 * Runs the chain indexer in worker processes (WORKERS=on, INDEXER=on) once the app is ready; it
 * stops before the app closes. Several worker processes may run it: one holds the chain's lock and
 * indexes, the others wait to take over (docs/decisions/110-indexer.md).
 */
export function registerIndexerWorker(app: FastifyInstance, ctx: AppContext): Indexer | undefined {
  const chain = ctx.chain;
  const { config } = ctx;
  if (!chain || !config.WORKERS || !config.INDEXER) return undefined;
  const indexer = createIndexer({
    database: ctx.database,
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrls,
    collectible: chain.deployment.collectible,
    marketplace: chain.deployment.marketplace,
    startBlock: chain.deployment.blockNumber,
    confirmations: confirmationDepth(config.INDEXER_CONFIRMATIONS, chain.chainId),
    batchBlocks: config.INDEXER_BATCH_BLOCKS,
    pollMs: config.INDEXER_POLL_MS,
    reorgWindow: config.INDEXER_REORG_WINDOW,
    pubsub: ctx.pubsub,
    log: (level, msg, extra) => app.log[level]({ ...extra, chainId: chain.chainId }, `indexer: ${msg}`),
  });
  app.addHook("onReady", async () => {
    indexer.start();
  });
  app.addHook("preClose", async () => {
    await indexer.stop();
  });
  return indexer;
}
