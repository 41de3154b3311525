import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import type { Order } from "@diginoor/api/orders";
import { orderMessages as m } from "@diginoor/api/orders";
import { getAddress } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime, MarketView, Minter } from "../chain/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { OrderLifecycle } from "./lifecycle.ts";
import * as repo from "./repo.ts";
import type { EditionRegistry } from "./editions.ts";
import { signVoucher } from "./voucher.ts";

export interface WalletCheckoutDeps {
  database: Database;
  clock: Clock;
  quotes: Pick<QuotesService, "validQuote">;
  wallets: Pick<WalletsService, "receivingWallet">;
  /** The chain the voucher is redeemed on, with the signer key; absent: 503. */
  chain?: Pick<ChainRuntime, "chainId" | "deployment" | "signer" | "publicClient">;
  /** Sets a catalogue item's primary terms (payee, floor) on the collectible when they do not fit. */
  minter?: Pick<Minter, "send">;
  catalogue: Pick<CatalogueService, "purchaseTerms">;
  /** Edition counts on chain (decision 184): an item's count is registered before its first voucher. */
  editions?: Pick<EditionRegistry, "ensure">;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: object) => void;
  market: Pick<MarketView, "terms" | "now">;
  lifecycle: Pick<
    OrderLifecycle,
    "reserveEdition" | "openOrderOr" | "move" | "ownOrder" | "getOrder" | "fullView"
  >;
}

/**
 * Paying from the buyer's own wallet: an order reserves an edition at the user's quoted price and
 * carries a voucher the server signed once for the buyer's linked wallet; the buyer's transaction
 * pays and mints, and the lifecycle fulfils the order when the indexer has applied that mint.
 */
export function createWalletCheckout(deps: WalletCheckoutDeps) {
  const { database, clock } = deps;

  function requireChain() {
    if (!deps.chain)
      throw new AppError(
        "unavailable",
        "Crypto payments are unavailable: this server runs without a blockchain",
      );
    return deps.chain;
  }

  /**
   * Makes sure the catalogue item's primary terms on the collectible (payee and floor price, which the
   * voucher signer cannot set) let a voucher at `priceWei` pay its production house: when the payee differs
   * or the floor is above the price (the native token rose), the minter key sets the payee and a floor of
   * 90% of the price. The floor is never raised here, so vouchers in flight stay redeemable
   * (docs/decisions/109).
   */
  async function ensurePrimaryTerms(
    chain: NonNullable<WalletCheckoutDeps["chain"]>,
    nftId: string,
    priceWei: bigint,
  ) {
    const nft = await deps.catalogue.purchaseTerms(nftId);
    if (!nft.payoutAddress) return; // reserveEdition refuses it with its own message
    const payee = getAddress(nft.payoutAddress);
    const [current, floor] = await chain.publicClient.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "primaryTerms",
      args: [nft.catalogueNumber],
    });
    if (current === payee && floor <= priceWei) return;
    if (!deps.minter) {
      throw new AppError("unavailable", "Crypto payments are unavailable: no minter key is configured");
    }
    const floorWei = (priceWei * 9n) / 10n;
    await deps.minter.send({
      chain: null,
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "setPrimaryTerms",
      args: [nft.catalogueNumber, payee, floorWei],
    });
    deps.log?.("info", "primary terms set", { nftId, payee, floorWei: floorWei.toString() });
  }

  return {
    /**
     * Starts a wallet purchase: the price comes from the user's unexpired quote (never from the
     * client), an edition is reserved until the quote expires, and the signed voucher is returned.
     */
    async createOrder(userId: string, body: { nftId: string; quoteId?: string }): Promise<Order> {
      const chain = requireChain();
      if (!body.quoteId) throw AppError.badRequest(m.quoteRequired);
      const quote = await deps.quotes.validQuote(userId, body.quoteId);
      if (quote.nftId !== body.nftId) throw AppError.badRequest(m.quoteOtherNft);
      const wallet = await deps.wallets.receivingWallet(userId);
      if (!wallet) throw AppError.conflict(m.walletRequired, { reason: "wallet_required" });
      const signer = chain.signer;
      if (!signer)
        throw new AppError("unavailable", "Crypto payments are unavailable: no voucher signer is configured");
      const { primaryFeeBps } = await deps.market.terms();
      await ensurePrimaryTerms(chain, body.nftId, BigInt(quote.priceWei));
      await deps.editions?.ensure(body.nftId);
      const reservedUntil = new Date(quote.expiresAt);
      const skewMs = (await deps.market.now()) - clock.now();
      const voucherExpiry = BigInt(Math.floor((reservedUntil.getTime() + skewMs) / 1000));
      const domain = { chainId: chain.chainId, marketplace: chain.deployment.marketplace };
      const buyerAddress = getAddress(wallet.address);
      const row = await deps.lifecycle.openOrderOr(userId, body.nftId, () =>
        withTransaction(database, async (tx) => {
          const { nft, edition } = await deps.lifecycle.reserveEdition(tx, body.nftId, {
            userId,
            address: buyerAddress,
          });
          const now = clock.date();
          const o = await repo.insertOrder(queryOf(tx), {
            userId,
            nftId: nft.id,
            provider: "wallet",
            state: "awaiting_payment",
            edition,
            usdCents: quote.usdCents,
            quoteId: quote.quoteId,
            chainId: chain.chainId,
            priceWei: quote.priceWei,
            platformFeeBps: primaryFeeBps,
            payoutAddress: nft.payoutAddress,
            voucherExpiry,
            buyerAddress,
            reservedUntil,
            now,
          });
          // Signed once, here, and kept: reading the order later returns this signature.
          const signature = await signVoucher(domain, signer, o, nft.catalogueNumber);
          await repo.setVoucherSignature(queryOf(tx), o.id, signature);
          await repo.recordCreation(
            queryOf(tx),
            o.id,
            "awaiting_payment",
            `edition ${edition} reserved at quote ${quote.quoteId}`,
            now,
          );
          return { ...o, voucher_signature: signature };
        }),
      );
      return deps.lifecycle.fullView(row);
    },

    /** The buyer's wallet sent the purchase: remember the hash so the confirmation page can follow it. */
    async reportTransaction(userId: string, orderId: string, txHash: string): Promise<Order> {
      const o = await deps.lifecycle.ownOrder(userId, orderId);
      if (o.provider !== "wallet") throw AppError.conflict(m.notAwaitingPayment);
      if (o.state === "awaiting_payment") {
        const moved = await deps.lifecycle.move(
          o,
          ["awaiting_payment"],
          "minting",
          "purchase transaction sent",
          {
            txHash,
          },
        );
        if (!moved) throw AppError.conflict(m.notAwaitingPayment);
      } else if (o.tx_hash?.toLowerCase() !== txHash.toLowerCase()) {
        throw AppError.conflict(m.notAwaitingPayment);
      }
      return deps.lifecycle.getOrder(userId, orderId);
    },
  };
}

export type WalletCheckout = ReturnType<typeof createWalletCheckout>;
