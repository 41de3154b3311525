import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { z } from "zod";
import { defineJob, type JobRef, type Jobs } from "../../platform/jobs/jobs.ts";
import type { Tx } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime, Minter } from "../chain/service.ts";
import type { OrdersLog } from "./lifecycle.ts";

/**
 * Catalogue items' edition counts on the collectible (issue 34 point 6, decision 184): editions 1..count of an
 * item may be minted, each once, on every mint path; the voucher signer cannot change a count. The minter key
 * registers an item's count when it is published (the `orders.register-editions` job, enqueued in the console's
 * transaction) and, as a fallback, before the first voucher or mint of an item it finds unregistered; it lowers
 * the count when the studio lowers the edition size. Raising a registered count is the admin's (the multisig's):
 * the server only logs that the chain's count is below the catalogue's.
 */
export interface EditionRegistryDeps {
  chain?: Pick<ChainRuntime, "publicClient" | "deployment">;
  minter?: Pick<Minter, "send">;
  catalogue: Pick<CatalogueService, "purchaseTerms">;
  jobs?: Pick<Jobs, "enqueue">;
  log?: OrdersLog;
}

export const registerEditionsJob: JobRef<{ nftId: string }> = {
  name: "orders.register-editions",
  payload: z.object({ nftId: z.string().min(1).max(64) }),
};

/** What the chain holds of an item: its count, whether it is registered. */
export interface OnChainEditions {
  count: number;
  registered: boolean;
}

export function createEditionRegistry(deps: EditionRegistryDeps) {
  const log = deps.log ?? (() => {});

  async function onChain(catalogueNumber: bigint): Promise<OnChainEditions> {
    const chain = deps.chain;
    if (!chain) return { count: 0, registered: false };
    const [count, registered] = await chain.publicClient.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "editions",
      args: [catalogueNumber],
    });
    return { count, registered };
  }

  /**
   * Makes the chain's edition count of `nftId` its catalogue edition size where the minter key may: registers
   * an unregistered item, lowers a larger count (refused on chain below a minted edition: logged). A count
   * below the edition size stays (only the admin raises it): logged. Answers what the chain holds after.
   */
  async function ensure(nftId: string): Promise<OnChainEditions> {
    const chain = deps.chain;
    if (!chain) return { count: 0, registered: false };
    const nft = await deps.catalogue.purchaseTerms(nftId);
    const size = nft.editionSize;
    const now = await onChain(nft.catalogueNumber);
    if (now.registered && now.count === size) return now;
    if (now.registered && now.count < size) {
      log("warn", "the chain's edition count is below the catalogue's: only the admin (multisig) raises it", {
        nftId,
        onChain: now.count,
        editionSize: size,
      });
      return now;
    }
    if (!deps.minter) throw new Error(`editions of ${nftId}: no minter key is configured`);
    try {
      await deps.minter.send({
        chain: null,
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "setEditionCount",
        args: [nft.catalogueNumber, size],
      });
    } catch (err) {
      // A concurrent registration of the same count is harmless; anything else is read back below.
      log("warn", "setting the edition count on chain failed", {
        nftId,
        editionSize: size,
        err: String(err),
      });
    }
    const after = await onChain(nft.catalogueNumber);
    if (after.registered) log("info", "edition count on chain", { nftId, editionCount: after.count });
    return after;
  }

  return {
    ensure,
    onChain,
    /** Whether edition `edition` of catalogue item `catalogueNumber` is minted on chain. */
    async isMinted(catalogueNumber: bigint, edition: number): Promise<boolean> {
      const chain = deps.chain;
      if (!chain) return false;
      return chain.publicClient.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isEditionMinted",
        args: [catalogueNumber, edition],
      });
    },
    /** Enqueues the registration of `nftId`'s edition count in `tx` (the console's create or edit). */
    async queue(tx: Tx, nftId: string): Promise<void> {
      if (!deps.chain || !deps.jobs) return;
      await deps.jobs.enqueue(registerEditionsJob, { nftId }, { tx, singletonKey: nftId });
    },
  };
}

export type EditionRegistry = ReturnType<typeof createEditionRegistry>;

/** The durable registration of an item's edition count (retried until the chain answers). */
export function registerEditionsJobOf(editions: Pick<EditionRegistry, "ensure">) {
  return defineJob({
    name: registerEditionsJob.name,
    payload: registerEditionsJob.payload,
    retry: { limit: 10, delaySeconds: 10, backoff: true },
    expireInSeconds: 120,
    handler: async ({ nftId }) => {
      await editions.ensure(nftId);
    },
  });
}
