import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import type { EditionRegistry } from "./editions.ts";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { toOrderId } from "@diginoor/contracts/voucher";
import { nativeSymbolOf } from "@diginoor/api/wallets";
import type { NftAuction } from "@diginoor/api/orders";
import { getAddress, type Hash } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime, MarketView, Minter } from "../chain/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { OrdersLog } from "./lifecycle.ts";
import * as repo from "./repo.ts";

export interface PrimaryAuctionsDeps {
  /** Edition counts on chain (decision 184), registered before an edition is minted for its auction. */
  editions?: Pick<EditionRegistry, "ensure">;
  database: Database;
  clock: Clock;
  catalogue: Pick<CatalogueService, "purchaseTerms" | "auctionNftsWithEditions" | "takeEdition">;
  quotes: Pick<QuotesService, "usdCentsToNative">;
  tokens: Pick<TokenReads, "auction">;
  chain?: Pick<ChainRuntime, "chainId" | "deployment" | "publicClient">;
  /** The minter key's nonce-ordered sends; without it no auction is opened. */
  minter?: Minter;
  market: Pick<MarketView, "terms" | "now">;
  log?: OrdersLog;
}

/**
 * Primary auctions of catalogue auction NFTs: each edition in turn is minted to the minter key and
 * put up for auction on the marketplace; the indexer's tables say how it is going.
 */
export function createPrimaryAuctions(deps: PrimaryAuctionsDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});

  /** Mints the edition to the minter and puts it up for auction; each step is skipped if already done. */
  async function finishOpening(
    chain: NonNullable<PrimaryAuctionsDeps["chain"]>,
    minter: Minter,
    a: repo.PrimaryAuctionRow,
  ): Promise<boolean> {
    const pc = chain.publicClient;
    const { collectible, marketplace } = chain.deployment;
    const tokenId = BigInt(a.token_id);
    try {
      const nft = await deps.catalogue.purchaseTerms(a.nft_id);
      const minted = await pc.readContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isOrderMinted",
        args: [toOrderId(tokenId)],
      });
      if (!minted) {
        // The item's edition count must be on chain first (decision 184).
        await deps.editions?.ensure(a.nft_id);
        await minter.send({
          chain: null,
          address: collectible,
          abi: diginoorCollectibleAbi,
          functionName: "mintForOrder",
          args: [
            minter.account.address,
            nft.catalogueNumber,
            a.edition,
            getAddress(nft.payoutAddress ?? ""),
            toOrderId(tokenId),
          ],
        });
      }
      const auction = await pc.readContract({
        address: marketplace,
        abi: diginoorMarketplaceAbi,
        functionName: "getAuction",
        args: [tokenId],
      });
      let hash: Hash | undefined;
      if (auction.seller === "0x0000000000000000000000000000000000000000") {
        const approved = await pc.readContract({
          address: collectible,
          abi: diginoorCollectibleAbi,
          functionName: "isApprovedForAll",
          args: [minter.account.address, marketplace],
        });
        if (!approved) {
          await minter.send({
            chain: null,
            address: collectible,
            abi: diginoorCollectibleAbi,
            functionName: "setApprovalForAll",
            args: [marketplace, true],
          });
        }
        hash = await minter.send({
          chain: null,
          address: marketplace,
          abi: diginoorMarketplaceAbi,
          functionName: "createAuction",
          args: [tokenId, BigInt(a.reserve_wei), a.duration_days],
        });
      }
      await repo.updatePrimaryAuction(q, a.chain_id, a.nft_id, a.edition, {
        state: "open",
        txHash: hash ?? null,
      });
      log("info", "primary auction opened", { nftId: a.nft_id, edition: a.edition, tokenId: a.token_id });
      return true;
    } catch (err) {
      // Left as `opening`: the next run resumes from the step that failed.
      log("error", "could not open a primary auction", {
        nftId: a.nft_id,
        edition: a.edition,
        err: String(err),
      });
      return false;
    }
  }

  return {
    /** Opens the next edition's auction of every auction NFT that has none running; resumes half-opened ones. */
    async openPrimaryAuctions(): Promise<{ opened: number; failed: number }> {
      const { chain, minter } = deps;
      const counts = { opened: 0, failed: 0 };
      if (!chain || !minter) return counts;
      for (const a of await repo.openingPrimaryAuctions(q, chain.chainId)) {
        (await finishOpening(chain, minter, a)) ? counts.opened++ : counts.failed++;
      }
      for (const nft of await deps.catalogue.auctionNftsWithEditions()) {
        if (!nft.payoutAddress) continue;
        const latest = await repo.latestPrimaryAuction(q, chain.chainId, nft.id);
        if (latest) {
          if (latest.state !== "open") continue; // opening (handled above) or failed (needs a look)
          const onChain = await deps.tokens.auction(latest.token_id);
          if (!onChain?.settled) continue; // still running, or not indexed yet
        }
        const { wei } = await deps.quotes.usdCentsToNative(nft.priceUsdCents);
        const row = await withTransaction(database, async (tx) => {
          const fresh = await deps.catalogue.purchaseTerms(nft.id, tx);
          if (fresh.editionsAvailable <= 0) return undefined;
          const inserted = await repo.insertPrimaryAuction(queryOf(tx), {
            nftId: nft.id,
            edition: (latest?.edition ?? 0) + 1,
            chainId: chain.chainId,
            reserveWei: wei.toString(),
            durationDays: nft.auctionDurationDays ?? 7,
            now: clock.date(),
          });
          if (inserted) await deps.catalogue.takeEdition(tx, nft.id);
          return inserted;
        });
        if (row) (await finishOpening(chain, minter, row)) ? counts.opened++ : counts.failed++;
      }
      return counts;
    },

    /** The live (or last) primary auction of an auction NFT, from the indexer's tables. */
    async nftAuction(nftId: string): Promise<NftAuction> {
      const chain = deps.chain;
      if (!chain) throw AppError.notFound("Auction");
      const nft = await deps.catalogue.purchaseTerms(nftId);
      if (nft.saleType !== "auction") throw AppError.notFound("Auction");
      const row = await repo.latestPrimaryAuction(q, chain.chainId, nft.id);
      if (!row) throw AppError.notFound("Auction");
      const nowSec = Math.floor((await deps.market.now()) / 1000);
      // The true end and state around a marketplace pause (the indexer applies Paused/Unpaused).
      const onChain = row.state === "open" ? await deps.tokens.auction(row.token_id, nowSec) : undefined;
      const high = onChain?.highestBidWei ?? null;
      const reserve = onChain?.reserveWei ?? BigInt(row.reserve_wei);
      // The auction's own increment, fixed when it was created (the contract applies that one, whatever the
      // admin has set since); the marketplace's current one only for a row indexed before it was kept.
      const minIncrementBps =
        high === null ? 0 : (onChain?.minIncrementBps ?? (await deps.market.terms()).minIncrementBps);
      const increment = ((high ?? 0n) * BigInt(minIncrementBps)) / 10_000n;
      const status = !onChain
        ? "opening"
        : onChain.settled
          ? "settled"
          : onChain.paused
            ? "paused"
            : onChain.endsAt !== null && nowSec >= onChain.endsAt
              ? "ended"
              : "open";
      return {
        nftId: nft.id,
        edition: row.edition,
        tokenId: row.token_id,
        chainId: chain.chainId,
        marketplace: chain.deployment.marketplace,
        symbol: nativeSymbolOf(chain.chainId),
        seller: onChain?.seller ?? deps.minter?.account.address ?? "",
        reserveWei: reserve.toString(),
        highestBidWei: high === null ? null : high.toString(),
        highestBidder: onChain?.highestBidder ?? null,
        minimumBidWei: (high === null ? reserve : high + (increment === 0n ? 1n : increment)).toString(),
        endsAt: onChain?.endsAt ? new Date(onChain.endsAt * 1000).toISOString() : null,
        durationDays: row.duration_days,
        status,
      };
    },
  };
}

export type PrimaryAuctions = ReturnType<typeof createPrimaryAuctions>;
