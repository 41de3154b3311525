import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { toOrderId } from "@diginoor/contracts/voucher";
import { type OrderState, orderMessages as m } from "@diginoor/api/orders";
import { getAddress, type Hash } from "viem";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobRef, Jobs } from "../../platform/jobs/jobs.ts";
import type { Tx } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime, Minter } from "../chain/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { EditionRegistry } from "./editions.ts";
import type { HostedCheckout } from "./hosted-checkout.ts";
import { fulfilOrder, type OrderLifecycle, type OrdersLog } from "./lifecycle.ts";
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
  /** Where a prize goes: the winner's receiving wallet (none yet: the prize waits). */
  wallets?: Pick<WalletsService, "receivingWallet">;
  /** Edition counts on chain (decision 184): registered before a mint, and an edition taken there is never minted again. */
  editions?: Pick<EditionRegistry, "ensure" | "isMinted">;
  /** Refunds a paid card order whose edition cannot be minted (taken on chain by another token, or out of range). */
  refunds?: Pick<HostedCheckout, "requestRefund">;
  log?: OrdersLog;
}

/** The edition of an order cannot be minted on chain: taken by another token, or beyond the item's on-chain count. */
export class EditionUnavailable extends Error {}

/** Mints one prize (an edition won in a lottery); enqueued in the transaction that grants it, and when its winner links a wallet. */
export const mintPrizeJob: JobRef<{ prizeId: string }> = {
  name: "orders.mint-prize",
  payload: z.object({ prizeId: z.uuid() }),
};

/** What a prize's winner and the console see of its delivery. */
export type PrizeMintState = repo.PrizeMintRow["state"];

/** Mints paid card and rupee orders to their buyers with the minter key (decision 141). */
export function createCardFulfilment(deps: CardFulfilmentDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});

  function requireMinting() {
    const chain = deps.chain;
    if (!chain)
      throw new AppError(
        "unavailable",
        "Crypto payments are unavailable: this server runs without a blockchain",
      );
    const minter = deps.minter;
    if (!minter) throw new Error("orders.fulfil: no minter key is configured");
    return { chain, minter };
  }

  /**
   * Mints on-chain order id `number` (its token id) to `to` with the minter key, unless it is on chain
   * already; `record` keeps the transaction's hash before its receipt is awaited. Answers the hash
   * when it sent one. The contract mints an order id at most once, so a retry after a crash, or a
   * second run at once, never mints twice (the loser's mint reverts: its job is retried and finds it).
   */
  async function mintOnce(
    m: { number: string; to: string; nftId: string; edition: number; payout: string | null },
    record: (hash: Hash) => Promise<void>,
  ): Promise<Hash | undefined> {
    const { chain, minter } = requireMinting();
    const pc = chain.publicClient;
    const onChainId = toOrderId(BigInt(m.number));
    const minted = await pc.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "isOrderMinted",
      args: [onChainId],
    });
    if (minted) return undefined;
    const nft = await deps.catalogue.purchaseTerms(m.nftId);
    if (deps.editions) {
      // The contract would revert (EditionAlreadyMinted / EditionOutOfRange); say why instead of retrying.
      const onChain = await deps.editions.ensure(m.nftId);
      if (m.edition < 1 || m.edition > onChain.count)
        throw new EditionUnavailable(
          `edition ${m.edition} of ${m.nftId} is outside its ${onChain.count} editions on chain`,
        );
      if (await deps.editions.isMinted(nft.catalogueNumber, m.edition))
        throw new EditionUnavailable(
          `edition ${m.edition} of ${m.nftId} is minted on chain by another token`,
        );
    }
    const hash = await minter.write({
      chain: null,
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "mintForOrder",
      args: [
        getAddress(m.to),
        nft.catalogueNumber,
        m.edition,
        getAddress(m.payout ?? nft.payoutAddress ?? ""),
        onChainId,
      ],
    });
    await record(hash);
    const receipt = await pc.waitForTransactionReceipt({ hash });
    // A revert here is most likely OrderAlreadyMinted (a concurrent attempt won): the retry sees the mint.
    if (receipt.status !== "success") throw new Error(`mint ${hash} of order id ${m.number} reverted`);
    return hash;
  }

  /** Enqueues the mint of each prize not minted yet (one winner's, or all); a queued one is not queued twice. */
  async function resumePrizes(userId: string | null): Promise<number> {
    if (!deps.jobs) return 0;
    let queued = 0;
    for (const p of await repo.unmintedPrizes(q, userId, 200)) {
      if (p.state === "awaiting_wallet" && !(await deps.wallets?.receivingWallet(p.user_id))) continue;
      if (await deps.jobs.enqueue(mintPrizeJob, { prizeId: p.id }, { singletonKey: p.id })) queued++;
    }
    return queued;
  }

  return {
    /**
     * Records an NFT prize in `tx` (the lottery's draw): the lowest edition no live order or other
     * prize holds (the lottery took its count from the NFT's available editions when it was created)
     * and a token number from the card orders' sequence, and enqueues its mint. Once per source: a
     * second call answers the same prize.
     */
    async grantPrize(tx: Tx, p: { source: string; userId: string; nftId: string }) {
      const tq = queryOf(tx);
      const existing = await repo.findPrizeMint(tq, { source: p.source });
      if (existing) return existing;
      const nft = await deps.catalogue.purchaseTerms(p.nftId, tx); // locks the NFT's row
      const edition = await repo.freeEdition(tq, nft.id, nft.editionSize);
      if (edition === undefined) throw new Error(`prize ${p.source}: no edition of ${nft.id} is free`);
      const row = await repo.insertPrizeMint(tq, { ...p, edition, now: clock.date() });
      await deps.jobs?.enqueue(mintPrizeJob, { prizeId: row.id }, { tx, singletonKey: row.id });
      log("info", "prize granted", { source: p.source, nftId: nft.id, edition, tokenId: row.token_number });
      return row;
    },

    /** A prize's delivery, by its source. */
    prizeOf: (source: string) => repo.findPrizeMint(q, { source }),

    resumePrizes,

    /**
     * Mints a prize to its winner's receiving wallet: awaiting_wallet → minting (the address fixed
     * then) → minted once the mint's receipt is in. The on-chain order id is the prize's token number,
     * which the contract mints at most once, and the mint is skipped when already on chain: a crash or
     * a second job never mints twice. Without a wallet it waits (its winner was asked to link one).
     */
    async mintPrize(prizeId: string): Promise<PrizeMintState | undefined> {
      let p = await repo.findPrizeMint(q, { id: prizeId });
      if (!p) return undefined;
      if (p.state === "awaiting_wallet") {
        const wallet = await deps.wallets?.receivingWallet(p.user_id);
        if (!wallet) return p.state;
        await repo.movePrizeMint(
          q,
          p.id,
          "awaiting_wallet",
          { state: "minting", address: getAddress(wallet.address) },
          clock.date(),
        );
        p = (await repo.findPrizeMint(q, { id: prizeId })) ?? p;
      }
      if (p.state !== "minting" || !p.address) return p.state;
      const hash = await mintOnce(
        { number: p.token_number, to: p.address, nftId: p.nft_id, edition: p.edition, payout: null },
        (h) => repo.setPrizeTxHash(q, p.id, h, clock.date()),
      );
      if (hash)
        log("info", "prize minted", {
          prizeId: p.id,
          source: p.source,
          tokenId: p.token_number,
          txHash: hash,
        });
      await repo.movePrizeMint(q, p.id, "minting", { state: "minted" }, clock.date());
      return "minted";
    },

    /**
     * Mints a paid card order to its buyer's wallet: paid → minting → (mint) → fulfilled once the
     * indexer applied the mint. The contract mints an order id at most once and the mint is skipped
     * when already on chain, so a retry after a crash never mints twice.
     */
    async fulfilCardOrder(orderId: string): Promise<OrderState | undefined> {
      let o = await repo.findOrder(q, orderId);
      if (o?.kind === "resale") {
        if (!deps.resale) throw new Error("orders.fulfil: resale orders are not handled here");
        return deps.resale.fulfilResale(orderId);
      }
      // A ticket order mints nothing (its tickets are numbered when it is paid).
      if (!o || o.nft_id === null || o.edition === null) return o?.state;
      const { nft_id: nftId, edition } = o;
      if (o.state === "paid") {
        await deps.lifecycle.move(o, ["paid"], "minting", "fulfilment started");
        o = (await repo.findOrder(q, orderId)) ?? o;
      }
      if (o.state !== "minting") return o.state;
      const order = o;
      let hash: Hash | undefined;
      try {
        hash = await mintOnce(
          {
            number: order.number,
            to: order.buyer_address ?? "",
            nftId,
            edition,
            payout: order.payout_address,
          },
          (h) => repo.setTxHash(q, order.id, h, clock.date()),
        );
      } catch (err) {
        if (!(err instanceof EditionUnavailable) || !deps.refunds) throw err;
        // Never a second token of one edition (decision 184): the fan is refunded.
        await deps.refunds.requestRefund(order.id, "edition_unavailable", {
          cause: `${err.message}: refunding the payment`,
        });
        log("error", "a paid card order's edition is not mintable: refunding", {
          orderId: order.id,
          why: err.message,
        });
        return (await repo.findOrder(q, orderId))?.state;
      }
      if (hash) log("info", "card order minted", { orderId: o.id, tokenId: o.number, txHash: hash });
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
      if (!o) throw new AppError("not_found", m.notFound);
      if (o.provider === "wallet" || !(o.state === "paid" || o.state === "minting")) {
        throw AppError.conflict("Only a paid card order still waiting for its token can be retried");
      }
      if (!deps.jobs) throw new AppError("unavailable", "Background jobs are not running");
      const jobId = await deps.jobs.enqueue(fulfilOrder, { orderId: o.id }, { tx, singletonKey: o.id });
      return { orderId: o.id, state: o.state, queued: jobId !== null };
    },
  };
}

export type CardFulfilment = ReturnType<typeof createCardFulfilment>;
