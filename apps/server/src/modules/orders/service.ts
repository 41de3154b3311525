import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { signPurchaseVoucher, toOrderId, voucherOrderId } from "@diginoor/contracts/voucher";
import { nativeSymbolOf } from "@diginoor/api/wallets";
import {
  type AdminOrderList,
  type CreateOrderRequest,
  type NftAuction,
  type Order,
  type OrderList,
  type OrderState,
  orderMessages as m,
} from "@diginoor/api/orders";
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import { type Address, createWalletClient, getAddress, type Hash, http } from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobRef, Jobs } from "../../platform/jobs/jobs.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime } from "../chain/service.ts";
import { publishToUser } from "../events/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { PaymentProviders } from "./providers/index.ts";
import { cashfreeCheckoutPage, indianMobile } from "./providers/cashfree.ts";
import { sandboxProvider } from "./providers/sandbox.ts";
import type { HostedProviderName, PaymentEvent } from "./providers/types.ts";
import * as repo from "./repo.ts";
import {
  newEventId,
  newSessionId,
  SANDBOX_RESERVATION_MS,
  type SandboxEvent,
  signSandboxPayload,
} from "./sandbox.ts";

export { sandboxSecret } from "./sandbox.ts";

/** Mints a paid card order (decision 141); enqueued in the transaction that marks it paid. */
export const fulfilOrder: JobRef<{ orderId: string }> = {
  name: "orders.fulfil",
  payload: z.object({ orderId: z.uuid() }),
};
/** Emails the confirmation of a fulfilled order; enqueued in the transaction that fulfils it. */
export const orderMail: JobRef<{ orderId: string }> = {
  name: "orders.mail",
  payload: z.object({ orderId: z.uuid() }),
};
/** Providers that take the payment on a hosted page and then need our minter key. */
const CARD_PROVIDERS = ["sandbox", "stripe", "cashfree"] as const;
/** A hosted checkout still unpaid this long after it opened is asked about at its provider. */
const RECONCILE_AFTER_MS = 3 * 60 * 1000;

export interface OrdersServiceDeps {
  database: Database;
  clock: Clock;
  pubsub: PubSub;
  catalogue: Pick<
    CatalogueService,
    "purchaseTerms" | "auctionNftsWithEditions" | "takeEdition" | "returnEdition"
  >;
  quotes: Pick<QuotesService, "validQuote" | "usdCentsToNative" | "usdCentsToInr">;
  wallets: Pick<WalletsService, "receivingWallet">;
  tokens: Pick<TokenReads, "mints" | "auction">;
  chain?: ChainRuntime;
  /** Blocks after which the indexer applies a block (or finality). */
  confirmations: number | "finalized";
  /** Enqueues fulfilment and mail in the transaction of the state change that causes them. */
  jobs?: Pick<Jobs, "enqueue">;
  /** Absolute links (checkout pages, return pages, mail) start with this. */
  publicUrl?: string;
  /** A paid card order without its mint this long (ms) is queued for fulfilment again (default 2 min). */
  fulfilmentRetryMs?: number;
  /** The sandbox card provider, when offered (never in production): its webhook secret. */
  sandbox?: { secret: string };
  /** cashfree.js's mode on our Cashfree checkout page (CASHFREE_ENV). */
  cashfreeMode?: "sandbox" | "production";
  /** Stripe and Cashfree when configured (decision 142); the sandbox's adapter is made from `sandbox`. */
  providers?: PaymentProviders;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: object) => void;
}

/** A wallet order whose voucher has expired is given up this long after, unless the chain shows its mint. */
export const EXPIRY_GRACE_MS = 10 * 60 * 1000;
/** Market terms read from the chain are reused this long. */
const TERMS_TTL_MS = 60_000;

const notFound = () => new AppError(404, "not_found", m.notFound);

/**
 * The on-chain order id of an order: wallet (voucher) orders use the voucher range (2^64 + number), card
 * orders the number itself, so a voucher can never take a card order's id (docs/decisions/109).
 */
const onChainOrderId = (o: Pick<repo.OrderRow, "number" | "provider">) =>
  o.provider === "wallet" ? voucherOrderId(BigInt(o.number)) : toOrderId(BigInt(o.number));
const tokenIdOf = (o: Pick<repo.OrderRow, "number" | "provider">) => BigInt(onChainOrderId(o)).toString();

/**
 * Orders (decision 140): one per purchase attempt, whatever the provider. A wallet order reserves an
 * edition at the quoted price and returns a voucher the server signed for the buyer's linked wallet;
 * the buyer's own transaction pays and mints, and the order is fulfilled when the indexer has applied
 * that mint. Primary auctions of catalogue NFTs are opened on the same contract by the minter key.
 */
export function createOrdersService(deps: OrdersServiceDeps) {
  const { database, clock } = deps;
  const q: repo.Query = (t, p) => database.query(t, p);
  const txq =
    (tx: Tx): repo.Query =>
    (t, p) =>
      tx.query(t, p);
  const log = deps.log ?? (() => {});
  const publicUrl = (deps.publicUrl ?? "").replace(/\/$/, "");
  const fulfilmentRetryMs = deps.fulfilmentRetryMs ?? 2 * 60 * 1000;
  const providers: PaymentProviders = {
    ...deps.providers,
    ...(deps.sandbox ? { sandbox: sandboxProvider({ secret: deps.sandbox.secret, publicUrl }) } : {}),
  };

  function requireChain(): ChainRuntime {
    if (!deps.chain)
      throw new AppError(
        503,
        "unavailable",
        "Crypto payments are unavailable: this server runs without a blockchain",
      );
    return deps.chain;
  }

  /**
   * The chain's clock in ms: the latest block's time, or ours if the chain is behind. They agree on a
   * real chain; a development chain's time can be advanced (auction tests), and deadlines the contract
   * checks (voucher expiry, auction end) are in its time. Read at most every 2 s.
   */
  let chainTime: { at: number; ms: number } | undefined;
  async function chainNow(): Promise<number> {
    const now = clock.now();
    if (!deps.chain) return now;
    if (!chainTime || now - chainTime.at > 2000) {
      const block = await deps.chain.publicClient.getBlock({ blockTag: "latest" });
      chainTime = { at: now, ms: Number(block.timestamp) * 1000 };
    }
    return Math.max(now, chainTime.ms + (now - chainTime.at));
  }

  /**
   * Transactions from the minter key, sent one at a time by this process: each send takes the next
   * nonce from the node's pending count, so concurrent fulfilments never reuse a nonce (waiting for
   * receipts stays concurrent). Two worker processes can still collide; the loser's job is retried.
   */
  let minterWallet: ReturnType<typeof createWalletClient> | undefined;
  let minterQueue: Promise<unknown> = Promise.resolve();
  function minterWrite(
    chain: ChainRuntime,
    request: Omit<Parameters<ReturnType<typeof createWalletClient>["writeContract"]>[0], "account">,
  ): Promise<Hash> {
    const minter = chain.minter;
    if (!minter) return Promise.reject(new Error("no minter key is configured"));
    minterWallet ??= createWalletClient({ account: minter, transport: http(chain.rpcUrl) });
    const wallet = minterWallet;
    const sent = minterQueue.then(() => wallet.writeContract({ ...request, account: minter } as never));
    minterQueue = sent.catch(() => {});
    return sent;
  }

  let terms: { at: number; primaryFeeBps: number; minIncrementBps: number } | undefined;
  async function marketTerms() {
    const chain = requireChain();
    if (terms && clock.now() - terms.at < TERMS_TTL_MS) return terms;
    const address = chain.deployment.marketplace;
    const [primaryFeeBps, minIncrementBps] = await Promise.all([
      chain.publicClient.readContract({
        address,
        abi: diginoorMarketplaceAbi,
        functionName: "primaryFeeBps",
      }),
      chain.publicClient.readContract({
        address,
        abi: diginoorMarketplaceAbi,
        functionName: "minIncrementBps",
      }),
    ]);
    terms = {
      at: clock.now(),
      primaryFeeBps: Number(primaryFeeBps),
      minIncrementBps: Number(minIncrementBps),
    };
    return terms;
  }

  /**
   * Makes sure the catalogue item's primary terms on the collectible (payee and floor price, which the voucher
   * signer cannot set) let a voucher at `priceWei` pay its production house: when the payee differs or the
   * floor is above the price (the native token rose), the minter key sets the payee and a floor of 90% of
   * the price. The floor is never raised here, so vouchers in flight stay redeemable (docs/decisions/109).
   */
  async function ensurePrimaryTerms(chain: ChainRuntime, nftId: string, priceWei: bigint) {
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
    if (!chain.minter) {
      throw new AppError(503, "unavailable", "Crypto payments are unavailable: no minter key is configured");
    }
    const hash = await minterWrite(chain, {
      chain: null,
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "setPrimaryTerms",
      args: [nft.catalogueNumber, payee, (priceWei * 9n) / 10n],
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`setPrimaryTerms ${hash} reverted`);
    log("info", "primary terms set", { nftId, payee, floorWei: ((priceWei * 9n) / 10n).toString() });
  }

  /** The voucher of a wallet order, exactly as signed at creation (ECDSA signatures here are deterministic). */
  async function walletPayment(o: repo.OrderRow, catalogueNumber: bigint) {
    const chain = requireChain();
    if (!chain.signer)
      throw new AppError(
        503,
        "unavailable",
        "Crypto payments are unavailable: no voucher signer is configured",
      );
    const voucher = {
      catalogueNftId: catalogueNumber,
      edition: o.edition,
      priceWei: BigInt(o.price_wei ?? "0"),
      buyer: getAddress(o.buyer_address ?? ""),
      platformFeeBps: o.platform_fee_bps ?? 0,
      orderId: onChainOrderId(o),
      expiry: BigInt(o.voucher_expiry ?? Math.floor(o.reserved_until.getTime() / 1000)),
    };
    const signature = await signPurchaseVoucher({
      chainId: chain.chainId,
      marketplace: chain.deployment.marketplace,
      voucher,
      account: chain.signer,
    });
    return {
      chainId: chain.chainId,
      marketplace: chain.deployment.marketplace,
      valueWei: voucher.priceWei.toString(),
      voucher: {
        ...voucher,
        catalogueNftId: voucher.catalogueNftId.toString(),
        priceWei: voucher.priceWei.toString(),
        expiry: voucher.expiry.toString(),
      },
      signature,
    };
  }

  async function confirmationsOf(txHash: string | null): Promise<number | null> {
    if (!txHash || !deps.chain) return null;
    try {
      const receipt = await deps.chain.publicClient.getTransactionReceipt({ hash: txHash as Hash });
      const head = await deps.chain.publicClient.getBlockNumber();
      return Number(head - receipt.blockNumber + 1n);
    } catch {
      return 0; // not mined yet (or unknown to this node)
    }
  }

  async function toApi(o: repo.OrderRow, opts: { full: boolean }): Promise<Order> {
    const nft = await deps.catalogue.purchaseTerms(o.nft_id);
    const open = o.state === "awaiting_payment" && o.provider === "wallet";
    const payment = opts.full && open ? await walletPayment(o, nft.catalogueNumber) : null;
    const transitions = opts.full ? await repo.transitionsOf(q, o.id) : [];
    const confirming = opts.full && (o.state === "minting" || o.state === "fulfilled");
    return {
      orderId: o.id,
      nftId: o.nft_id,
      nftTitle: nft.title,
      imageUrl: nft.imageUrl,
      edition: o.edition,
      provider: o.provider,
      state: o.state,
      usdCents: Number(o.usd_cents),
      priceWei: o.price_wei,
      symbol: o.chain_id === null ? null : nativeSymbolOf(o.chain_id),
      chainId: o.chain_id,
      tokenId: tokenIdOf(o),
      txHash: o.tx_hash,
      confirmations: confirming ? await confirmationsOf(o.tx_hash) : null,
      requiredConfirmations: typeof deps.confirmations === "number" ? deps.confirmations : null,
      buyerAddress: o.buyer_address,
      reservedUntil: o.reserved_until.toISOString(),
      checkoutUrl:
        o.provider === "sandbox" && o.state === "awaiting_payment" && o.provider_session
          ? `${publicUrl}/sandbox/checkout/${o.provider_session}`
          : o.state === "awaiting_payment"
            ? o.checkout_url
            : null,
      payCurrency: o.pay_currency,
      payAmountMinor: o.pay_amount_minor === null ? null : Number(o.pay_amount_minor),
      inrMicrosPerUsd: o.inr_micros_per_usd,
      payment,
      transitions: transitions.map((t) => ({
        from: t.from_state,
        to: t.to_state,
        cause: t.cause,
        at: t.at.toISOString(),
      })),
      createdAt: o.created_at.toISOString(),
    };
  }

  async function announce(tx: Tx, userId: string, orderId: string, state: OrderState) {
    await publishToUser(deps.pubsub, userId, { type: "order.updated", orderId, state }, { tx }).catch((err) =>
      log("warn", "could not publish an order update", { err: String(err) }),
    );
  }

  /** Moves an order (in its own transaction) and tells its owner's open pages. */
  async function move(
    o: repo.OrderRow,
    from: OrderState[],
    to: OrderState,
    cause: string,
    set: { txHash?: string } = {},
  ) {
    return withTransaction(database, (tx) => moveIn(tx, o, from, to, cause, set));
  }

  /**
   * Moves an order inside `tx`: gives the edition back when it ends unpaid, enqueues the
   * confirmation mail when it is fulfilled (in the same transaction), tells its owner's pages.
   */
  async function moveIn(
    tx: Tx,
    o: Pick<repo.OrderRow, "id" | "nft_id" | "user_id">,
    from: OrderState[],
    to: OrderState,
    cause: string,
    set: { txHash?: string } = {},
  ): Promise<boolean> {
    const previous = await repo.transition(txq(tx), o.id, from, to, cause, clock.date(), set);
    if (previous === undefined) return false;
    if (to === "expired" || to === "failed") await deps.catalogue.returnEdition(tx, o.nft_id);
    if (to === "fulfilled" && deps.jobs) await deps.jobs.enqueue(orderMail, { orderId: o.id }, { tx });
    await announce(tx, o.user_id, o.id, to);
    return true;
  }

  /**
   * Brings open orders up to date with the indexer: fulfilled once their mint is applied (whoever
   * sent it); a wallet order expires once its voucher can no longer be redeemed, a card order once its
   * reservation lapsed unpaid (editions released). A paid card order never expires: one whose
   * fulfilment seems stuck gets its job again. Idempotent; any process.
   */
  async function reconcileOrders(rows?: repo.OrderRow[]): Promise<{ fulfilled: number; expired: number }> {
    const open = rows ?? [
      ...(await repo.openOrders(q, "wallet", 500)),
      ...(await repo.openOrders(q, [...CARD_PROVIDERS], 500)),
    ];
    const counts = { fulfilled: 0, expired: 0 };
    if (open.length === 0) return counts;
    const mints = await deps.tokens.mints(open.map(tokenIdOf));
    for (const o of open) {
      const mint = mints.get(tokenIdOf(o));
      if (mint && getAddress(mint.to) !== getAddress(o.buyer_address ?? mint.to)) {
        // Someone else's mint took this order's token id: never fulfilled, the buyer needs a refund.
        if (
          await move(
            o,
            repo.OPEN_STATES,
            "failed",
            `token ${tokenIdOf(o)} was minted to ${mint.to} in ${mint.txHash}, not to the buyer: needs a refund`,
          )
        ) {
          log("error", "an order's token id was minted to someone else", { orderId: o.id, to: mint.to });
        }
      } else if (mint) {
        if (
          await move(o, repo.OPEN_STATES, "fulfilled", `minted to ${mint.to} in ${mint.txHash}`, {
            txHash: mint.txHash,
          })
        )
          counts.fulfilled++;
      } else if (o.provider === "wallet") {
        if (clock.now() <= o.reserved_until.getTime() + EXPIRY_GRACE_MS) continue;
        if (await move(o, repo.OPEN_STATES, "expired", "the voucher expired unredeemed; edition released"))
          counts.expired++;
      } else if (o.state === "created" || o.state === "awaiting_payment") {
        if (clock.now() <= o.reserved_until.getTime()) continue;
        if (await move(o, ["created", "awaiting_payment"], "expired", "not paid in time; edition released"))
          counts.expired++;
      } else if (deps.jobs && clock.now() - o.updated_at.getTime() > fulfilmentRetryMs) {
        // Paid or minting without a mint for a while: the job may have failed for good; try again.
        await deps.jobs
          .enqueue(fulfilOrder, { orderId: o.id }, { singletonKey: o.id })
          .catch((err) => log("warn", "could not enqueue a fulfilment", { err: String(err) }));
      }
    }
    return counts;
  }

  // ------------------------------------------------------------------ card orders (sandbox)

  function requireSandbox() {
    if (!deps.sandbox) throw AppError.badRequest(m.providerNotConfigured("sandbox"));
    return deps.sandbox;
  }

  /**
   * Applies one verified provider event, once: the event id is recorded in the same transaction as
   * the move it causes and the fulfilment job it enqueues. A paid order never moves back.
   */
  async function applyPaymentEvent(provider: HostedProviderName, event: PaymentEvent) {
    if (event.type === "pending") return { received: true as const, duplicate: false };
    return withTransaction(database, async (tx) => {
      const claimed = await repo.claimPaymentEvent(
        txq(tx),
        provider,
        event.id,
        event.providerType,
        clock.date(),
      );
      if (!claimed) return { received: true as const, duplicate: true };
      const o = z.uuid().safeParse(event.orderId).success
        ? await repo.findOrder(txq(tx), event.orderId, true)
        : undefined;
      let outcome = "applied";
      if (!o || o.provider !== provider || (o.provider_session && o.provider_session !== event.session)) {
        outcome = "ignored: no such checkout session";
      } else if (
        event.amountMinor !== BigInt(o.pay_amount_minor ?? o.usd_cents) ||
        event.currency !== (o.pay_currency ?? "usd")
      ) {
        outcome = "ignored: amount or currency differ from the order";
      } else if (event.type === "paid") {
        if (await moveIn(tx, o, ["created", "awaiting_payment"], "paid", `payment ${event.id} succeeded`)) {
          await deps.jobs?.enqueue(fulfilOrder, { orderId: o.id }, { tx });
        } else if (o.state === "expired" || o.state === "failed") {
          outcome = `ignored: order already ${o.state} (payment needs a refund)`;
          log("warn", "payment for an order that is over", { orderId: o.id, event: event.id });
        } else outcome = `ignored: order already ${o.state}`;
      } else if (
        !(await moveIn(tx, o, ["created", "awaiting_payment"], "failed", `payment ${event.id} declined`))
      ) {
        outcome = `ignored: order already ${o.state}`;
      }
      await repo.setPaymentEventOutcome(txq(tx), provider, event.id, o ? o.id : null, outcome);
      return { received: true as const, duplicate: false };
    });
  }

  /** The sandbox provider's side of a payer's choice: the events it will send (signed by the caller). */
  function sandboxEventFor(o: repo.OrderRow, type: SandboxEvent["type"]): SandboxEvent {
    return {
      id: newEventId(),
      type,
      created: Math.floor(clock.now() / 1000),
      data: {
        session: o.provider_session ?? "",
        orderId: o.id,
        amount: Number(o.usd_cents),
        currency: "usd",
      },
    };
  }

  /**
   * Mints a paid card order to its buyer's wallet with the minter key: paid → minting → (mint) →
   * fulfilled once the indexer applied the mint. The contract mints an order id at most once and the
   * mint is skipped when already on chain, so a retry after a crash never mints twice.
   */
  async function fulfilCardOrder(orderId: string): Promise<OrderState | undefined> {
    const chain = requireChain();
    const minter = chain.minter;
    if (!minter) throw new Error("orders.fulfil: no minter key is configured");
    let o = await repo.findOrder(q, orderId);
    if (!o) return undefined;
    if (o.state === "paid") {
      await move(o, ["paid"], "minting", "fulfilment started");
      o = (await repo.findOrder(q, orderId)) ?? o;
    }
    if (o.state !== "minting") return o.state;
    const pc = chain.publicClient;
    const onChainId = onChainOrderId(o);
    const minted = await pc.readContract({
      address: chain.deployment.collectible,
      abi: diginoorCollectibleAbi,
      functionName: "isOrderMinted",
      args: [onChainId],
    });
    if (!minted) {
      const nft = await deps.catalogue.purchaseTerms(o.nft_id);
      const hash = await minterWrite(chain, {
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
    await reconcileOrders([o]);
    return (await repo.findOrder(q, orderId))?.state;
  }

  async function ownOrder(userId: string, orderId: string): Promise<repo.OrderRow> {
    const o = await repo.findOrder(q, orderId);
    if (!o || o.user_id !== userId) throw notFound();
    return o;
  }

  // ------------------------------------------------------------------ primary auctions

  /** Opens the next edition's auction of every auction NFT that has none running; resumes half-opened ones. */
  async function openPrimaryAuctions(): Promise<{ opened: number; failed: number }> {
    const chain = deps.chain;
    const counts = { opened: 0, failed: 0 };
    if (!chain?.minter) return counts;
    for (const a of await repo.openingPrimaryAuctions(q, chain.chainId)) {
      (await finishOpening(chain, a)) ? counts.opened++ : counts.failed++;
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
        const inserted = await repo.insertPrimaryAuction(txq(tx), {
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
      if (row) (await finishOpening(chain, row)) ? counts.opened++ : counts.failed++;
    }
    return counts;
  }

  /** Mints the edition to the minter and puts it up for auction; each step is skipped if already done. */
  async function finishOpening(chain: ChainRuntime, a: repo.PrimaryAuctionRow): Promise<boolean> {
    const minter = chain.minter;
    if (!minter) return false;
    const pc = chain.publicClient;
    const { collectible, marketplace } = chain.deployment;
    const tokenId = BigInt(a.token_id);
    const send = async (hash: Hash) => {
      const r = await pc.waitForTransactionReceipt({ hash });
      if (r.status !== "success") throw new Error(`transaction ${hash} reverted`);
      return hash;
    };
    try {
      const nft = await deps.catalogue.purchaseTerms(a.nft_id);
      const minted = await pc.readContract({
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isOrderMinted",
        args: [toOrderId(tokenId)],
      });
      if (!minted) {
        await send(
          await minterWrite(chain, {
            chain: null,
            address: collectible,
            abi: diginoorCollectibleAbi,
            functionName: "mintForOrder",
            args: [
              minter.address,
              nft.catalogueNumber,
              a.edition,
              getAddress(nft.payoutAddress ?? ""),
              toOrderId(tokenId),
            ],
          }),
        );
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
          args: [minter.address, marketplace],
        });
        if (!approved) {
          await send(
            await minterWrite(chain, {
              chain: null,
              address: collectible,
              abi: diginoorCollectibleAbi,
              functionName: "setApprovalForAll",
              args: [marketplace, true],
            }),
          );
        }
        hash = await send(
          await minterWrite(chain, {
            chain: null,
            address: marketplace,
            abi: diginoorMarketplaceAbi,
            functionName: "createAuction",
            args: [tokenId, BigInt(a.reserve_wei), a.duration_days],
          }),
        );
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

  /** Takes the lowest free edition of a fixed-price NFT (its row locked by `purchaseTerms`), or 409. */
  async function reserveEdition(tx: Tx, nftId: string) {
    const nft = await deps.catalogue.purchaseTerms(nftId, tx);
    if (nft.saleType !== "fixed") throw AppError.conflict(m.auctionOnly);
    if (!nft.payoutAddress) throw new AppError(503, "unavailable", m.noPayout);
    const edition = await repo.freeEdition(txq(tx), nft.id, nft.editionSize);
    if (edition === undefined || !(await deps.catalogue.takeEdition(tx, nft.id))) {
      throw AppError.conflict(m.soldOut);
    }
    return { nft, edition };
  }

  /** The provider named by a create request, or 400 when this server does not offer it. */
  function hostedProvider(name: string) {
    const p = providers[name as HostedProviderName];
    if (!p) throw AppError.badRequest(m.providerNotConfigured(name));
    return p;
  }

  /** The buyer's email, and the Indian mobile Cashfree needs: given now, or the account's, never invented. */
  async function customerOf(userId: string, provider: HostedProviderName, phone: string | undefined) {
    const [u] = await q<{ email: string; phone: string | null }>(
      "SELECT email, phone FROM users WHERE id = $1",
      [userId],
    );
    if (!u) throw AppError.unauthorized();
    if (provider !== "cashfree") return { id: userId, email: u.email };
    if (phone !== undefined) {
      const mobile = indianMobile(phone);
      if (!mobile) throw AppError.badRequest(m.phoneInvalid, { reason: "phone_invalid" });
      return { id: userId, email: u.email, phone: mobile };
    }
    const mobile = u.phone ? indianMobile(u.phone) : undefined;
    if (!mobile) throw AppError.badRequest(m.phoneRequired, { reason: "phone_required" });
    return { id: userId, email: u.email, phone: mobile };
  }

  /**
   * A hosted-checkout order (sandbox, Stripe, Cashfree): the price is the catalogue's USD price (never
   * the client's), converted to paise at the stored USD→INR rate for Cashfree (the rate is recorded on
   * the order); the token goes to the user's linked receiving wallet; the edition is held while the
   * payer is at the provider. The order is committed (state `created`) before the provider is asked,
   * so its id is the provider's reference and idempotency key; a provider that fails or times out
   * leaves it `failed` with its edition returned, and the caller gets a 502/503.
   */
  async function createHostedOrder(
    userId: string,
    nftId: string,
    providerName: string,
    phone: string | undefined,
  ): Promise<Order> {
    const provider = hostedProvider(providerName);
    const chain = requireChain();
    if (!chain.minter) throw new AppError(503, "unavailable", m.providerNotConfigured("card"));
    const wallet = await deps.wallets.receivingWallet(userId);
    if (!wallet) throw AppError.conflict(m.walletRequired, { reason: "wallet_required" });
    const customer = await customerOf(userId, provider.name, phone);
    const row = await withTransaction(database, async (tx) => {
      const { nft, edition } = await reserveEdition(tx, nftId);
      const now = clock.date();
      const usdCents = BigInt(nft.priceUsdCents);
      const inr = provider.currency === "inr" ? await deps.quotes.usdCentsToInr(usdCents) : null;
      const o = await repo.insertOrder(txq(tx), {
        userId,
        nftId: nft.id,
        provider: provider.name,
        state: provider.name === "sandbox" ? "awaiting_payment" : "created",
        edition,
        usdCents: nft.priceUsdCents,
        quoteId: null,
        chainId: chain.chainId,
        priceWei: null,
        platformFeeBps: null,
        payoutAddress: nft.payoutAddress,
        voucherExpiry: null,
        buyerAddress: getAddress(wallet.address),
        reservedUntil: new Date(now.getTime() + SANDBOX_RESERVATION_MS),
        now,
        providerSession: provider.name === "sandbox" ? newSessionId() : null,
        payCurrency: provider.name === "sandbox" ? null : provider.currency,
        payAmountMinor: provider.name === "sandbox" ? null : (inr?.paise ?? usdCents),
        inrMicrosPerUsd: inr?.inrMicrosPerUsd ?? null,
      });
      await repo.recordCreation(
        txq(tx),
        o.id,
        o.state,
        inr === null
          ? `edition ${edition} reserved for card checkout`
          : `edition ${edition} reserved for ${provider.name} checkout: ${inr.paise} paise at ${inr.inrMicrosPerUsd} micro-rupees per dollar`,
        now,
      );
      return o;
    });
    if (provider.name === "sandbox") return toApi(row, { full: true });
    const nft = await deps.catalogue.purchaseTerms(row.nft_id);
    const back = `${publicUrl}/paymentstatus/${row.nft_id}/${row.id}`;
    try {
      const checkout = await provider.createCheckout({
        orderId: row.id,
        nftId: row.nft_id,
        title: nft.title,
        edition: row.edition,
        amountMinor: BigInt(row.pay_amount_minor ?? row.usd_cents),
        currency: provider.currency,
        customer,
        returnUrl: provider.name === "stripe" ? `${back}/return` : back,
        cancelUrl: `${back}/cancelled`,
        // Providers' sessions end a little before the reservation does: no payment for a released edition.
        expiresAt: new Date(row.reserved_until.getTime() - 60_000),
      });
      await withTransaction(database, async (tx) => {
        await repo.setCheckout(txq(tx), row.id, checkout, clock.date());
        await moveIn(
          tx,
          row,
          ["created"],
          "awaiting_payment",
          `${provider.name} checkout ${checkout.session} opened`,
        );
      });
    } catch (err) {
      log("warn", "a payment provider could not open a checkout", {
        provider: provider.name,
        orderId: row.id,
        err: String((err as { cause?: unknown }).cause ?? err),
      });
      await move(row, ["created"], "failed", `${provider.name} could not open a checkout; edition released`);
      throw err;
    }
    const fresh = await repo.findOrder(q, row.id);
    return toApi(fresh ?? row, { full: true });
  }

  /**
   * Asks the providers about their orders stuck awaiting payment for a few minutes, and applies a
   * paid or failed answer through the same path as a webhook (synthetic event id `reconcile:…`), so
   * a lost webhook still fulfils. A provider that fails leaves the order as it is (retried next run).
   */
  async function reconcilePayments(): Promise<{ asked: number; applied: number; failed: number }> {
    const counts = { asked: 0, applied: 0, failed: 0 };
    const names = (Object.keys(providers) as HostedProviderName[]).filter((n) => n !== "sandbox");
    if (names.length === 0) return counts;
    const stuck = await repo.awaitingPayment(q, names, new Date(clock.now() - RECONCILE_AFTER_MS), 100);
    for (const o of stuck) {
      const provider = providers[o.provider as HostedProviderName];
      if (!provider || !o.provider_session) continue;
      counts.asked++;
      try {
        const status = await provider.fetchStatus(o.provider_session, o.id);
        if (status.type === "pending") continue;
        const result = await applyPaymentEvent(provider.name, {
          id: `reconcile:${o.provider_session}:${status.type}`,
          type: status.type,
          providerType: `reconcile (${status.detail})`,
          orderId: o.id,
          session: o.provider_session,
          amountMinor: status.amountMinor ?? BigInt(o.pay_amount_minor ?? o.usd_cents),
          currency: status.currency ?? o.pay_currency ?? "usd",
        });
        if (!result.duplicate) counts.applied++;
      } catch (err) {
        counts.failed++;
        log("warn", "could not ask a payment provider about an order", {
          provider: o.provider,
          orderId: o.id,
          err: String((err as { cause?: unknown }).cause ?? err),
        });
      }
    }
    return counts;
  }

  return {
    /**
     * Starts a purchase. Wallet orders: the price comes from the user's unexpired quote (never from the
     * client), an edition is reserved until the quote expires, and the signed voucher is returned.
     */
    async createOrder(userId: string, body: CreateOrderRequest): Promise<Order> {
      if (body.provider !== "wallet") return createHostedOrder(userId, body.nftId, body.provider, body.phone);
      const chain = requireChain();
      if (!body.quoteId) throw AppError.badRequest(m.quoteRequired);
      const quote = await deps.quotes.validQuote(userId, body.quoteId);
      if (quote.nftId !== body.nftId) throw AppError.badRequest(m.quoteOtherNft);
      const wallet = await deps.wallets.receivingWallet(userId);
      if (!wallet) throw AppError.conflict(m.walletRequired, { reason: "wallet_required" });
      const { primaryFeeBps } = await marketTerms();
      await ensurePrimaryTerms(chain, body.nftId, BigInt(quote.priceWei));
      const reservedUntil = new Date(quote.expiresAt);
      const skewMs = (await chainNow()) - clock.now();
      const voucherExpiry = BigInt(Math.floor((reservedUntil.getTime() + skewMs) / 1000));
      const row = await withTransaction(database, async (tx) => {
        const { nft, edition } = await reserveEdition(tx, body.nftId);
        const now = clock.date();
        const o = await repo.insertOrder(txq(tx), {
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
        await repo.recordCreation(
          txq(tx),
          o.id,
          "awaiting_payment",
          `edition ${edition} reserved at quote ${quote.quoteId}`,
          now,
        );
        return o;
      });
      return toApi(row, { full: true });
    },

    async getOrder(userId: string, orderId: string): Promise<Order> {
      let o = await ownOrder(userId, orderId);
      if (repo.OPEN_STATES.includes(o.state)) {
        await reconcileOrders([o]);
        o = await ownOrder(userId, orderId);
      }
      return toApi(o, { full: true });
    },

    async listOrders(userId: string): Promise<OrderList> {
      const rows = await repo.ordersOfUser(q, userId, 100);
      const items = await Promise.all(rows.map((r) => toApi(r, { full: false })));
      return { items: items.map(({ payment: _p, transitions: _t, ...rest }) => rest) };
    },

    /** The buyer's wallet sent the purchase: remember the hash so the confirmation page can follow it. */
    async reportTransaction(userId: string, orderId: string, txHash: string): Promise<Order> {
      const o = await ownOrder(userId, orderId);
      if (o.provider !== "wallet") throw AppError.conflict(m.notAwaitingPayment);
      if (o.state === "awaiting_payment") {
        const moved = await move(o, ["awaiting_payment"], "minting", "purchase transaction sent", { txHash });
        if (!moved) throw AppError.conflict(m.notAwaitingPayment);
      } else if (o.tx_hash?.toLowerCase() !== txHash.toLowerCase()) {
        throw AppError.conflict(m.notAwaitingPayment);
      }
      return this.getOrder(userId, orderId);
    },

    /**
     * The studio console's retry of a card order's fulfilment (after its job failed): puts the mint back
     * in the queue in `tx`. Only a paid card order still waiting for its token can be retried; the
     * contract and the job's `isOrderMinted` check make a retry of a minted order harmless anyway.
     */
    async retryFulfilment(orderId: string, tx: Tx) {
      const o = await repo.findOrder(txq(tx), orderId, true);
      if (!o) throw notFound();
      if (o.provider === "wallet" || !(o.state === "paid" || o.state === "minting")) {
        throw AppError.conflict("Only a paid card order still waiting for its token can be retried");
      }
      if (!deps.jobs) throw new AppError(503, "unavailable", "Background jobs are not running");
      const jobId = await deps.jobs.enqueue(fulfilOrder, { orderId: o.id }, { tx, singletonKey: o.id });
      return { orderId: o.id, state: o.state, queued: jobId !== null };
    },

    /** The studio console's view: the newest 100 orders with their owner and state history. */
    async adminOrders(state?: OrderState): Promise<AdminOrderList> {
      const rows = await repo.newestOrders(q, state, 100);
      const items = await Promise.all(
        rows.map(async (r) => {
          const { payment: _p, ...order } = await toApi(r, { full: false });
          const transitions = (await repo.transitionsOf(q, r.id)).map((t) => ({
            from: t.from_state,
            to: t.to_state,
            cause: t.cause,
            at: t.at.toISOString(),
          }));
          return { ...order, transitions, userId: r.user_id };
        }),
      );
      return { items, nextCursor: null };
    },

    reconcileOrders: () => reconcileOrders(),

    /** What the confirmation mail of a fulfilled order says (undefined unless fulfilled). */
    async mailFacts(orderId: string) {
      const o = await repo.findOrder(q, orderId);
      if (o?.state !== "fulfilled") return undefined;
      const nft = await deps.catalogue.purchaseTerms(o.nft_id);
      return {
        userId: o.user_id,
        nftId: o.nft_id,
        provider: o.provider,
        title: nft.title,
        edition: o.edition,
        usdCents: Number(o.usd_cents),
        /** Rupee orders: what was paid, in paise (the mail shows it rather than dollars). */
        inrPaise: o.pay_currency === "inr" ? Number(o.pay_amount_minor) : null,
        tokenId: tokenIdOf(o),
        wallet: o.buyer_address ?? "",
      };
    },
    fulfilCardOrder,

    /**
     * A provider's webhook (decision 142): verified by its adapter over the raw body (400 for anything
     * forged or stale, before anything is written), then applied once per provider event id.
     */
    async handleWebhook(name: HostedProviderName, raw: Buffer, headers: IncomingHttpHeaders) {
      const provider = providers[name];
      if (!provider) throw AppError.notFound("Webhook");
      const event = provider.verifyWebhook(raw, headers, clock.now());
      if (!event) return { received: true as const, duplicate: false };
      return applyPaymentEvent(name, event);
    },
    reconcilePayments,

    /** What the web may know about the checkout: the offered providers (never their secrets). */
    checkoutProviders(): HostedProviderName[] {
      return Object.keys(providers) as HostedProviderName[];
    },

    /** The page that opens Cashfree's checkout for an order awaiting payment. */
    async cashfreeCheckout(orderId: string) {
      const o = await repo.findOrder(q, orderId);
      if (o?.provider !== "cashfree" || !o.provider_payment_session)
        throw new AppError(404, "not_found", m.checkoutNotFound);
      if (o.state !== "awaiting_payment")
        return { redirect: `${publicUrl}/paymentstatus/${o.nft_id}/${o.id}`, html: null };
      return {
        redirect: null,
        html: cashfreeCheckoutPage({
          paymentSession: o.provider_payment_session,
          mode: deps.cashfreeMode ?? "sandbox",
        }),
      };
    },

    /** What the hosted sandbox checkout page shows. */
    async sandboxSession(sessionId: string) {
      requireSandbox();
      const o = await repo.findBySession(q, "sandbox", sessionId);
      if (!o) throw new AppError(404, "not_found", m.checkoutNotFound);
      const nft = await deps.catalogue.purchaseTerms(o.nft_id);
      return {
        sessionId,
        title: nft.title,
        edition: o.edition,
        usdCents: Number(o.usd_cents),
        state: o.state,
      };
    },

    /**
     * The payer's choice on the sandbox page. Pay and decline return the signed webhook deliveries the
     * sandbox makes (the caller sends them: each event twice, the copy late); every choice returns
     * where the payer goes next.
     */
    async sandboxAction(sessionId: string, action: "pay" | "decline" | "abandon") {
      const { secret } = requireSandbox();
      const o = await repo.findBySession(q, "sandbox", sessionId);
      if (!o) throw new AppError(404, "not_found", m.checkoutNotFound);
      const back =
        action === "abandon"
          ? `${publicUrl}/nftdetail/${o.nft_id}`
          : `${publicUrl}/confirmation/${o.nft_id}/${o.id}`;
      if (action === "abandon" || o.state !== "awaiting_payment") return { redirect: back, deliveries: [] };
      const body = JSON.stringify(
        sandboxEventFor(o, action === "pay" ? "payment.succeeded" : "payment.failed"),
      );
      const sign = () => signSandboxPayload(secret, body, Math.floor(clock.now() / 1000));
      return { redirect: back, deliveries: [{ body, sign }] };
    },
    openPrimaryAuctions,

    /** The live (or last) primary auction of an auction NFT, from the indexer's tables. */
    async nftAuction(nftId: string): Promise<NftAuction> {
      const chain = deps.chain;
      if (!chain) throw AppError.notFound("Auction");
      const nft = await deps.catalogue.purchaseTerms(nftId);
      if (nft.saleType !== "auction") throw AppError.notFound("Auction");
      const row = await repo.latestPrimaryAuction(q, chain.chainId, nft.id);
      if (!row) throw AppError.notFound("Auction");
      const nowSec = Math.floor((await chainNow()) / 1000);
      // The true end and state around a marketplace pause (the indexer applies Paused/Unpaused).
      const onChain = row.state === "open" ? await deps.tokens.auction(row.token_id, nowSec) : undefined;
      const { minIncrementBps } = await marketTerms();
      const high = onChain?.highestBidWei ?? null;
      const reserve = onChain?.reserveWei ?? BigInt(row.reserve_wei);
      const increment = high === null ? 0n : (high * BigInt(minIncrementBps)) / 10_000n;
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
        seller: onChain?.seller ?? (chain.minter?.address as Address | undefined) ?? "",
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

export type OrdersService = ReturnType<typeof createOrdersService>;
