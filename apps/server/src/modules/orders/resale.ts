import { type Order, type OrderState, orderMessages as m } from "@diginoor/api/orders";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { type Address, getAddress, type Hash } from "viem";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { ChainRuntime, Minter } from "../chain/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { HostedCheckout } from "./hosted-checkout.ts";
import { type OrderLifecycle, type OrdersLog, violatedIndex } from "./lifecycle.ts";
import * as repo from "./repo.ts";

export interface ResaleCheckoutDeps {
  database: Database;
  clock: Clock;
  chain?: Pick<ChainRuntime, "chainId" | "publicClient" | "deployment">;
  /** The resale buyer key's nonce-ordered sends (chain module); absent: listings cannot be bought by card. */
  buyer?: Pick<Minter, "account" | "write">;
  tokens: Pick<TokenReads, "getToken">;
  /** A resale is never sold to the seller's own account: any wallet ever linked to the buyer (issue 34 point 7). */
  wallets: Pick<WalletsService, "everLinked">;
  quotes: Pick<QuotesService, "nativeToUsdCents">;
  lifecycle: Pick<OrderLifecycle, "checkHolds" | "openOrderOr" | "move">;
  hostedCheckout: Pick<
    HostedCheckout,
    "checkoutFor" | "insertHostedOrder" | "openCheckout" | "requestRefund"
  >;
  log?: OrdersLog;
}

/**
 * Card and rupee purchases of resale listings (issue 27 point 4, decision 165): the order is priced at
 * the listing's price in dollars (rupees) at the stored rate and paid at a hosted checkout like a
 * primary one; once paid, our buyer key buys the listing on chain (the seller, the royalty and the fee
 * are paid by the marketplace as in any sale) and sends the token to the fan's wallet, exactly once.
 * A listing that died or changed before it could be bought refunds the order.
 */
export function createResaleCheckout(deps: ResaleCheckoutDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});

  function chainOf() {
    const chain = deps.chain;
    if (!chain) throw new AppError("unavailable", "This server runs without a blockchain");
    return chain;
  }

  /** The live listing of `tokenId` on chain now (price 0: none). */
  async function listingOf(tokenId: bigint) {
    const chain = chainOf();
    const l = await chain.publicClient.readContract({
      address: chain.deployment.marketplace,
      abi: diginoorMarketplaceAbi,
      functionName: "getListing",
      args: [tokenId],
    });
    return { seller: l.seller, price: BigInt(l.price) };
  }

  async function ownerOf(tokenId: bigint): Promise<Address> {
    const chain = chainOf();
    return getAddress(
      await chain.publicClient.readContract({
        address: chain.deployment.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [tokenId],
      }),
    );
  }

  /** Whether our buyer key ever sent token `tokenId` to `to` (a Transfer event since our deployment). */
  async function sentByBuyer(tokenId: bigint, to: Address): Promise<boolean> {
    const chain = chainOf();
    const logs = await chain.publicClient.getContractEvents({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      eventName: "Transfer",
      args: { from: deps.buyer!.account.address, to, tokenId },
      fromBlock: BigInt(chain.deployment.blockNumber),
    });
    return logs.length > 0;
  }

  /** Sends one call from the buyer key, records its hash on the order, and waits for its receipt. */
  async function send(
    o: repo.OrderRow,
    request: Parameters<Minter["write"]>[0],
    what: string,
  ): Promise<Hash> {
    const buyer = deps.buyer;
    if (!buyer) throw new Error("orders.fulfil: no resale buyer key is configured");
    const hash = await buyer.write(request);
    await repo.setTxHash(q, o.id, hash, clock.date());
    const receipt = await chainOf().publicClient.waitForTransactionReceipt({ hash });
    // A reverted buy is most likely a listing taken in the same block: the retry looks at it again.
    if (receipt.status !== "success") throw new Error(`${what} ${hash} of order ${o.id} reverted`);
    return hash;
  }

  return {
    /**
     * `POST /api/v1/orders` with `listing`: the listing must stand on chain as the buyer saw it
     * (409 listing_gone / listing_changed otherwise); the order records its seller and price (wei) and
     * what the provider charges for it, and holds nothing: the listing stays for sale to anyone.
     */
    async createOrder(
      userId: string,
      body: {
        nftId: string;
        provider: string;
        phone?: string;
        listing: { tokenId: string; priceWei: string };
      },
    ): Promise<Order> {
      const { provider, chain, buyerAddress, customer } = await deps.hostedCheckout.checkoutFor(
        userId,
        body,
        "buyer",
      );
      const token = await deps.tokens.getToken(body.listing.tokenId);
      if (token.nftId !== body.nftId) throw AppError.badRequest(m.listingOtherNft);
      const tokenId = BigInt(token.tokenId);
      const listing = await listingOf(tokenId);
      if (listing.price === 0n) throw AppError.conflict(m.listingGone, { reason: "listing_gone" });
      if (listing.price.toString() !== body.listing.priceWei)
        throw AppError.conflict(m.listingChanged, {
          reason: "listing_changed",
          priceWei: listing.price.toString(),
        });
      const seller = getAddress(listing.seller);
      if (seller === buyerAddress || (await deps.wallets.everLinked(userId, seller)))
        throw AppError.conflict(m.ownListing, { reason: "own_listing" });
      // A token the console suspended or voided is never bought by our buyer key.
      if (token.hidden) throw AppError.conflict(m.tokenHidden, { reason: "token_hidden" });
      const usdCents = await deps.quotes.nativeToUsdCents(listing.price);
      const row = await deps.lifecycle.openOrderOr(userId, body.nftId, () =>
        withTransaction(database, async (tx) => {
          await deps.lifecycle.checkHolds(tx, { userId, address: buyerAddress }, body.nftId);
          const o = await deps.hostedCheckout.insertHostedOrder(tx, provider.name, {
            userId,
            nftId: body.nftId,
            edition: token.edition,
            usdCents,
            chainId: chain.chainId,
            priceWei: listing.price.toString(),
            payoutAddress: null,
            buyerAddress,
            resale: { tokenId: token.tokenId, seller },
          });
          const paid =
            o.pay_currency === "inr"
              ? `${o.pay_amount_minor} paise at ${o.inr_micros_per_usd} micro-rupees per dollar`
              : `${o.pay_amount_minor} cents`;
          await repo.recordCreation(
            queryOf(tx),
            o.id,
            o.state,
            `listing of token ${token.tokenId} by ${seller} at ${listing.price} wei, charged ${paid} by ${provider.name}`,
            o.created_at,
          );
          return o;
        }),
      );
      return deps.hostedCheckout.openCheckout(row, customer);
    },

    /**
     * The fulfilment of a paid resale order (the `orders.fulfil` job): paid → minting (one order of a
     * token at a time: `orders_one_buying_per_token_idx`), then from what the chain shows, so a retry
     * after a crash anywhere resumes where it stopped and never buys or sends twice:
     * - the fan's wallet owns the token: done;
     * - the buyer key owns it: this order bought it (no other order of the token is buying), send it on;
     * - otherwise the listing must still be the quoted one (seller and price): buy it, then send it;
     *   if it is gone or changed, the order is refunded (`listing_changed`).
     */
    async fulfilResale(orderId: string): Promise<OrderState | undefined> {
      const chain = chainOf();
      const buyer = deps.buyer;
      if (!buyer) throw new Error("orders.fulfil: no resale buyer key is configured");
      let o = await repo.findOrder(q, orderId);
      if (!o?.resale_token_id || !o.listing_seller || !o.price_wei || !o.buyer_address) return o?.state;
      const tokenId = BigInt(o.resale_token_id);
      const fan = getAddress(o.buyer_address);
      const price = BigInt(o.price_wei);
      const seller = getAddress(o.listing_seller);
      if (o.state === "paid") {
        try {
          await deps.lifecycle.move(o, ["paid"], "minting", "buying the listing with the buyer key");
        } catch (err) {
          if (violatedIndex(err) !== "orders_one_buying_per_token_idx") throw err;
          throw new Error(`another order is buying token ${o.resale_token_id}; order ${o.id} waits`);
        }
        o = (await repo.findOrder(q, orderId)) ?? o;
      }
      if (o.state !== "minting") return o.state;
      let owner = await ownerOf(tokenId);
      // The fan's wallet holding it counts only if our buyer key sent it there (else they got it
      // elsewhere). Read from the chain, not from the order's recorded hash: a second run of the job (a
      // retry beside a slow first run) may look after the first run's transfer was mined and before its
      // hash was recorded, and would have refunded a fan who had the token (found under load).
      const delivered = owner === fan && (!!o.tx_hash || (await sentByBuyer(tokenId, fan)));
      if (!delivered && owner !== buyer.account.address) {
        // Checked again before our buyer key pays (issue 34 point 7): the seller's wallet may have been linked to
        // the buyer's account since the order was made, or the console may have hidden the token.
        const refusal = (await deps.wallets.everLinked(o.user_id, seller))
          ? ({
              reason: "own_listing",
              why: `the seller ${seller} is a wallet linked to the buyer's account`,
            } as const)
          : (await deps.tokens.getToken(o.resale_token_id ?? "")).hidden
            ? ({ reason: "token_hidden", why: `token ${tokenId} is hidden from our marketplace` } as const)
            : undefined;
        if (refusal) {
          await deps.hostedCheckout.requestRefund(o.id, refusal.reason, {
            cause: `${refusal.why}: refunding the payment`,
          });
          log("warn", "a paid resale is not bought: refunding", { orderId: o.id, why: refusal.why });
          return "refund_pending";
        }
        const l = await listingOf(tokenId);
        if (l.price !== price || getAddress(l.seller) !== seller) {
          const why =
            l.price === 0n
              ? `the listing of token ${tokenId} is no longer for sale (its owner is ${owner})`
              : getAddress(l.seller) !== seller
                ? `token ${tokenId} is now listed by ${l.seller}, not ${seller}`
                : `the listing's price changed from ${price} to ${l.price} wei`;
          await deps.hostedCheckout.requestRefund(o.id, "listing_changed", {
            cause: `${why}: refunding the payment`,
          });
          log("info", "a paid resale's listing changed: refunding", { orderId: o.id, why });
          return "refund_pending";
        }
        await send(
          o,
          {
            chain: null,
            address: chain.deployment.marketplace,
            abi: diginoorMarketplaceAbi,
            functionName: "buy",
            args: [tokenId, price],
            value: price,
          } as unknown as Parameters<Minter["write"]>[0],
          "buy",
        );
        owner = buyer.account.address;
      }
      if (owner === buyer.account.address) {
        await send(
          o,
          {
            chain: null,
            address: chain.deployment.collectible,
            abi: diginoorCollectibleAbi,
            functionName: "safeTransferFrom",
            args: [buyer.account.address, fan, tokenId],
          },
          "transfer",
        );
      }
      const done = (await repo.findOrder(q, orderId)) ?? o;
      await deps.lifecycle.move(
        done,
        ["minting"],
        "fulfilled",
        `token ${tokenId} bought from ${seller} and sent to ${fan}`,
        done.tx_hash ? { txHash: done.tx_hash } : {},
      );
      log("info", "resale order fulfilled", { orderId: o.id, tokenId: o.resale_token_id });
      return (await repo.findOrder(q, orderId))?.state;
    },
  };
}

export type ResaleCheckout = ReturnType<typeof createResaleCheckout>;
