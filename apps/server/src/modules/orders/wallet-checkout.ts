import type { Order } from "@diginoor/api/orders";
import { orderMessages as m } from "@diginoor/api/orders";
import { getAddress } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { ChainRuntime, MarketView } from "../chain/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { OrderLifecycle } from "./lifecycle.ts";
import * as repo from "./repo.ts";
import { signVoucher } from "./voucher.ts";

export interface WalletCheckoutDeps {
  database: Database;
  clock: Clock;
  quotes: Pick<QuotesService, "validQuote">;
  wallets: Pick<WalletsService, "receivingWallet">;
  /** The chain the voucher is redeemed on, with the signer key; absent: 503. */
  chain?: Pick<ChainRuntime, "chainId" | "deployment" | "signer">;
  market: Pick<MarketView, "terms" | "now">;
  lifecycle: Pick<OrderLifecycle, "reserveEdition" | "move" | "ownOrder" | "getOrder" | "fullView">;
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
        503,
        "unavailable",
        "Crypto payments are unavailable: this server runs without a blockchain",
      );
    return deps.chain;
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
        throw new AppError(
          503,
          "unavailable",
          "Crypto payments are unavailable: no voucher signer is configured",
        );
      const { primaryFeeBps } = await deps.market.terms();
      const reservedUntil = new Date(quote.expiresAt);
      const skewMs = (await deps.market.now()) - clock.now();
      const voucherExpiry = BigInt(Math.floor((reservedUntil.getTime() + skewMs) / 1000));
      const domain = { chainId: chain.chainId, marketplace: chain.deployment.marketplace };
      const row = await withTransaction(database, async (tx) => {
        const { nft, edition } = await deps.lifecycle.reserveEdition(tx, body.nftId);
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
          buyerAddress: getAddress(wallet.address),
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
      });
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
