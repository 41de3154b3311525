import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { toOrderId } from "@diginoor/contracts/voucher";
import { type OrderState, orderMessages as m } from "@diginoor/api/orders";
import { getAddress } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Jobs } from "../../platform/jobs/jobs.ts";
import type { Tx } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime, Minter } from "../chain/service.ts";
import { fulfilOrder, type OrderLifecycle, type OrdersLog } from "./lifecycle.ts";
import { chainUnavailable } from "./checkout-open.ts";
import * as repo from "./repo.ts";
import type { ResaleCheckout } from "./resale.ts";

export interface CardFulfilmentDeps {
  database: Database;
  clock: Clock;
  catalogue: Pick<CatalogueService, "purchaseTerms">;
  chain?: Pick<ChainRuntime, "publicClient" | "deployment">;
  /** The minter key's nonce-ordered sends (chain module); absent: nothing can be minted. */
  minter?: Pick<Minter, "write">;
  lifecycle: Pick<OrderLifecycle, "move" | "reconcileOrders">;
  /** Paid resale orders are bought and delivered by the resale unit instead of minted. */
  resale?: Pick<ResaleCheckout, "fulfilResale">;
  jobs?: Pick<Jobs, "enqueue">;
  log?: OrdersLog;
}

/** Mints paid card and rupee orders to their buyers with the minter key (decision 141). */
export function createCardFulfilment(deps: CardFulfilmentDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});

  return {
    /**
     * Mints a paid card order to its buyer's wallet: paid → minting → (mint) → fulfilled once the
     * indexer applied the mint. The contract mints an order id at most once and the mint is skipped
     * when already on chain, so a retry after a crash never mints twice.
     */
    async fulfilCardOrder(orderId: string): Promise<OrderState | undefined> {
      const chain = deps.chain;
      if (!chain) throw chainUnavailable();
      const minter = deps.minter;
      if (!minter) throw new Error("orders.fulfil: no minter key is configured");
      let o = await repo.findOrder(q, orderId);
      if (!o) return undefined;
      if (o.kind === "resale") {
        if (!deps.resale) throw new Error("orders.fulfil: resale orders are not handled here");
        return deps.resale.fulfilResale(orderId);
      }
      if (o.state === "paid") {
        await deps.lifecycle.move(o, ["paid"], "minting", "fulfilment started");
        o = (await repo.findOrder(q, orderId)) ?? o;
      }
      if (o.state !== "minting") return o.state;
      const pc = chain.publicClient;
      const onChainId = toOrderId(BigInt(o.number));
      const minted = await pc.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isOrderMinted",
        args: [onChainId],
      });
      if (!minted) {
        const nft = await deps.catalogue.purchaseTerms(o.nft_id);
        const hash = await minter.write({
          chain: null,
          address: chain.deployment.collectible,
          abi: diginoorCollectibleAbi,
          functionName: "mintForOrder",
          args: [
            getAddress(o.buyer_address ?? ""),
            nft.catalogueNumber,
            o.edition,
            getAddress(o.payout_address ?? nft.payoutAddress ?? ""),
            onChainId,
          ],
        });
        await repo.setTxHash(q, o.id, hash, clock.date());
        const receipt = await pc.waitForTransactionReceipt({ hash });
        // A revert here is most likely OrderAlreadyMinted (a concurrent attempt won): the retry sees the mint.
        if (receipt.status !== "success") throw new Error(`mint ${hash} of order ${o.id} reverted`);
        log("info", "card order minted", { orderId: o.id, tokenId: o.number, txHash: hash });
      }
      o = (await repo.findOrder(q, orderId)) ?? o;
      await deps.lifecycle.reconcileOrders([o]);
      return (await repo.findOrder(q, orderId))?.state;
    },

    /**
     * The studio console's retry of a card order's fulfilment (after its job failed): puts the mint back
     * in the queue in `tx`. Only a paid card order still waiting for its token can be retried; the
     * contract and the job's `isOrderMinted` check make a retry of a minted order harmless anyway.
     */
    async retryFulfilment(orderId: string, tx: Tx) {
      const o = await repo.findOrder(queryOf(tx), orderId, true);
      if (!o) throw new AppError(404, "not_found", m.notFound);
      if (o.provider === "wallet" || !(o.state === "paid" || o.state === "minting")) {
        throw AppError.conflict("Only a paid card order still waiting for its token can be retried");
      }
      if (!deps.jobs) throw new AppError(503, "unavailable", "Background jobs are not running");
      const jobId = await deps.jobs.enqueue(fulfilOrder, { orderId: o.id }, { tx, singletonKey: o.id });
      return { orderId: o.id, state: o.state, queued: jobId !== null };
    },
  };
}

export type CardFulfilment = ReturnType<typeof createCardFulfilment>;
