import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { CHAIN_EVENTS_CHANNEL } from "../indexer/service.ts";
import type { UserMessageDeps } from "../notifications/service.ts";
import { deliverOnce, orderConfirmedMail, orderRefundedMail } from "../mail/service.ts";
import { formatInr, formatUsd } from "@diginoor/api/money";
import type { PrimaryAuctions } from "./auctions.ts";
import { type EditionRegistry, registerEditionsJobOf } from "./editions.ts";
import { type CardFulfilment, mintPrizeJob } from "./fulfilment.ts";
import type { HostedCheckout } from "./hosted-checkout.ts";
import { fulfilOrder, type OrderLifecycle, orderMail, refundMail, refundOrder } from "./lifecycle.ts";

const empty = z.object({});

/**
 * Every minute: asks Stripe and Cashfree about checkouts unpaid for a few minutes (decision 142),
 * fulfils orders whose mint the indexer has applied (if a chain-events message was
 * missed), releases the editions of orders not paid in time, and re-enqueues stuck fulfilments.
 */
export function reconcileOrdersJob(orders: {
  lifecycle: Pick<OrderLifecycle, "reconcileOrders">;
  hostedCheckout: Pick<HostedCheckout, "reconcilePayments">;
  fulfilment: Pick<CardFulfilment, "resumePrizes">;
}) {
  return defineJob({
    name: "orders.reconcile",
    payload: empty,
    retry: { limit: 1, delaySeconds: 30, backoff: false },
    expireInSeconds: 120,
    schedule: { cron: "* * * * *", payload: {} },
    handler: async () => {
      // First the providers (a lost webhook), then the chain and the clock (mints, expiries).
      await orders.hostedCheckout.reconcilePayments();
      await orders.lifecycle.reconcileOrders();
      // Prizes whose mint stopped half-way, or whose winner has linked a wallet since.
      await orders.fulfilment.resumePrizes(null);
    },
  });
}

/**
 * Every five minutes (and at start): opens the next edition's on-chain auction of each auction NFT
 * whose previous auction was settled, and resumes openings a crash interrupted.
 */
export function openAuctionsJob(
  auctions: Pick<PrimaryAuctions, "openPrimaryAuctions">,
  log: (counts: object) => void = () => {},
) {
  return defineJob({
    name: "orders.open-auctions",
    payload: empty,
    retry: { limit: 3, delaySeconds: 30, backoff: true },
    expireInSeconds: 600,
    schedule: { cron: "*/5 * * * *", payload: {} },
    handler: async () => {
      const counts = await auctions.openPrimaryAuctions();
      if (counts.opened || counts.failed) log(counts);
    },
  });
}

/**
 * Mints a paid card order (decision 141). Retried with backoff; after the last attempt it stays in
 * pg-boss's `failed` state and the order in `minting`, where the reconciler enqueues it again.
 */
export function fulfilOrderJob(fulfilment: Pick<CardFulfilment, "fulfilCardOrder">) {
  return defineJob({
    name: fulfilOrder.name,
    payload: fulfilOrder.payload,
    retry: { limit: 8, delaySeconds: 5, backoff: true },
    expireInSeconds: 300,
    // Mints are sent one at a time per process (the chain module's minter) but their receipts are awaited together.
    concurrency: 8,
    handler: async ({ orderId }) => {
      await fulfilment.fulfilCardOrder(orderId);
    },
  });
}

/**
 * Mints a lottery's NFT prize to its winner (decision 161). Retried with backoff; a prize left
 * half-way is enqueued again by the reconciler, and the mint itself happens at most once.
 */
export function mintPrizeJobOf(fulfilment: Pick<CardFulfilment, "mintPrize">) {
  return defineJob({
    name: mintPrizeJob.name,
    payload: mintPrizeJob.payload,
    retry: { limit: 8, delaySeconds: 5, backoff: true },
    expireInSeconds: 300,
    handler: async ({ prizeId }) => {
      await fulfilment.mintPrize(prizeId);
    },
  });
}

/**
 * Confirms a fulfilled card or rupee order: a 'purchase confirmed' notification in the bell (once: its
 * source is the order) and the confirmation mail with what was paid (once per job: deliverOnce). A
 * wallet order is confirmed by the chain's own PrimaryPurchase notification and its mail, so it gets
 * nothing here (one mail per purchase, never two).
 */
export function orderMailJob(deps: UserMessageDeps, orders: Pick<OrderLifecycle, "mailFacts">) {
  return defineJob({
    name: orderMail.name,
    payload: orderMail.payload,
    retry: deps.mailer.retry,
    expireInSeconds: 120,
    handler: async ({ orderId }, job) => {
      const facts = await orders.mailFacts(orderId);
      if (!facts || facts.provider === "wallet") return;
      await deps.notifications?.notify(
        facts.userId,
        {
          kind: "purchase_confirmed",
          text: `${facts.title} is in your wallet.`,
          link: `/nftshowcase/${facts.tokenId}`,
          source: `order:${orderId}`,
        },
        // The mail below is this purchase's confirmation; the notification's own mail would repeat it.
        { mail: false },
      );
      await deliverOnce(deps, job.id, async (db) => {
        const contact = await deps.accounts.mailContact(facts.userId, db);
        if (!contact) return null;
        const url = `${deps.publicUrl.replace(/\/$/, "")}/confirmation/${facts.nftId}/${orderId}`;
        return {
          to: contact.email,
          ...orderConfirmedMail(contact.name, {
            title: facts.title,
            edition: facts.edition,
            amount: facts.inrPaise === null ? formatUsd(facts.usdCents) : formatInr(facts.inrPaise),
            tokenId: facts.tokenId,
            wallet: facts.wallet,
            url,
          }),
        };
      });
    },
  });
}

/**
 * Asks an order's provider for its refund (decision 144), with the refund's idempotency key: a retry,
 * or a run after the worker died mid-way, names the same refund at the provider. After the last
 * attempt the refund stays `pending` (visible), and the reconciler enqueues it again.
 */
export function refundOrderJob(hostedCheckout: Pick<HostedCheckout, "runRefund">, providerTimeoutMs: number) {
  return defineJob({
    name: refundOrder.name,
    payload: refundOrder.payload,
    retry: { limit: 8, delaySeconds: 5, backoff: true },
    // A run makes at most two provider calls, each tried twice (Stripe: the session, then the refund;
    // the sandbox: its webhook), each bounded by the provider timeout: a run still active well past
    // that belongs to a worker that died, and is retried (same key) as soon as maintenance sees it.
    expireInSeconds: Math.ceil((4 * providerTimeoutMs) / 1000) + 10,
    concurrency: 4,
    handler: async ({ refundId, attempt }) => {
      await hostedCheckout.runRefund(refundId, attempt);
    },
  });
}

const REFUND_WHY: Record<string, string> = {
  late_payment: "your payment arrived after the order had ended, so nothing was sold to you",
  admin: "Diginoor refunded this order",
  lottery_not_activated: "the lottery did not sell enough tickets to take place",
  lottery_seed_not_revealed: "the lottery's draw could not be made in time",
  listing_changed:
    "the seller's listing was sold, removed or changed before we could buy it for you, so nothing was sold to you",
  edition_unavailable: "the edition you paid for could not be minted for you, so nothing was sold to you",
  own_listing: "the listing is sold by a wallet of your own account, so nothing was sold to you",
  token_hidden: "this token was withdrawn from our marketplace, so nothing was sold to you",
};

/** Tells the buyer their order was refunded: a notification in the bell (once: its source is the order) and a mail (once per job). */
export function refundMailJob(deps: UserMessageDeps, orders: Pick<OrderLifecycle, "refundFacts">) {
  return defineJob({
    name: refundMail.name,
    payload: refundMail.payload,
    retry: deps.mailer.retry,
    expireInSeconds: 120,
    handler: async ({ orderId }, job) => {
      const facts = await orders.refundFacts(orderId);
      if (!facts) return;
      const amount = facts.inrPaise === null ? formatUsd(facts.usdCents) : formatInr(facts.inrPaise);
      const url = `${deps.publicUrl.replace(/\/$/, "")}${facts.path}`;
      await deps.notifications?.notify(
        facts.userId,
        {
          kind: "order_refunded",
          text: `Your order for ${facts.title} was refunded (${amount}).`,
          link: facts.path,
          source: `order-refund:${orderId}`,
        },
        // The mail below says it; the notification's own mail would repeat it.
        { mail: false },
      );
      await deliverOnce(deps, job.id, async (db) => {
        const contact = await deps.accounts.mailContact(facts.userId, db);
        if (!contact) return null;
        return {
          to: contact.email,
          ...orderRefundedMail(contact.name, {
            title: facts.title,
            edition: facts.edition,
            amount,
            why: REFUND_WHY[facts.reason] ?? REFUND_WHY.admin!,
            tokenKept: facts.tokenKept,
            url,
          }),
        };
      });
    },
  });
}

/**
 * The orders module's background work (attached by role in main.ts, never by a route file): its
 * jobs; in worker processes, a reconcile after each batch the indexer applies (it may fulfil
 * orders: look at once instead of waiting for the schedule); and, when a worker starts, the auction
 * opener and the reconciler (a process that died mid-fulfilment left orders paid or minting).
 */
export function ordersWork(
  orders: {
    lifecycle: OrderLifecycle;
    hostedCheckout: HostedCheckout;
    fulfilment: CardFulfilment;
    auctions: PrimaryAuctions;
    editions: EditionRegistry;
  },
  deps: UserMessageDeps & {
    /** Whether a chain is configured (without one no chain events arrive and no auction opens). */
    chain: boolean;
    /** PAYMENT_PROVIDER_TIMEOUT_MS: bounds a refund job's run. */
    providerTimeoutMs: number;
    log: (o: object, msg: string) => void;
  },
): ModuleWork {
  const mail = {
    database: deps.database,
    mailer: deps.mailer,
    publicUrl: deps.publicUrl,
    notifications: deps.notifications,
    accounts: deps.accounts,
  };
  const reconcile = reconcileOrdersJob(orders);
  const openAuctions = openAuctionsJob(orders.auctions, (o) => deps.log(o, "primary auctions"));
  return {
    module: "orders",
    jobs: [
      fulfilOrderJob(orders.fulfilment),
      mintPrizeJobOf(orders.fulfilment),
      orderMailJob(mail, orders.lifecycle),
      reconcile,
      refundOrderJob(orders.hostedCheckout, deps.providerTimeoutMs),
      refundMailJob(mail, orders.lifecycle),
      openAuctions,
      registerEditionsJobOf(orders.editions),
    ],
    subscriptions: deps.chain
      ? [{ channel: CHAIN_EVENTS_CHANNEL, handle: () => orders.lifecycle.reconcileOrders() }]
      : [],
    onStart: deps.chain ? [openAuctions, reconcile] : [],
  };
}
