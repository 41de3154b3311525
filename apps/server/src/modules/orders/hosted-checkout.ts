import { type Order, orderMessages as m } from "@diginoor/api/orders";
import type { IncomingHttpHeaders } from "node:http";
import { getAddress } from "viem";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Jobs } from "../../platform/jobs/jobs.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import type { CatalogueService } from "../catalogue/service.ts";
import type { ChainRuntime } from "../chain/service.ts";
import type { LotteryService } from "../lottery/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import { fulfilOrder, type OrderLifecycle, type OrdersLog, orderPath } from "./lifecycle.ts";
import { cashfreeCheckoutPage, indianMobile } from "./providers/cashfree.ts";
import type { PaymentProviders } from "./providers/index.ts";
import { sandboxProvider } from "./providers/sandbox.ts";
import type { CheckoutRequest, HostedProviderName, PaymentEvent } from "./providers/types.ts";
import { createRefunds, isRefundEvent, REFUNDABLE_FROM, type Refunds } from "./refunds.ts";
import * as repo from "./repo.ts";
import { newEventId, newSessionId, type SandboxEvent, signSandboxPayload } from "./sandbox.ts";
import { createSandboxOutbox, httpSandboxPost, type SandboxPost } from "./sandbox-outbox.ts";
import { createTicketOrders } from "./ticket-orders.ts";
import { checkInrLimit, type InrLimit } from "./inr-limit.ts";

/** A hosted checkout still unpaid this long after it opened is asked about at its provider. */
const RECONCILE_AFTER_MS = 3 * 60 * 1000;

/**
 * How long each provider's checkout stays open, as short as it allows (decision 143): Stripe refuses
 * an `expires_at` less than 30 minutes ahead (one more minute covers the clocks' difference and the
 * request's way); Cashfree's order expiry is set 15 minutes ahead, like the sandbox's page.
 */
export const CHECKOUT_OPEN_MS: Record<HostedProviderName, number> = {
  sandbox: 15 * 60_000,
  stripe: 31 * 60_000,
  cashfree: 15 * 60_000,
};
/** The edition stays held this much longer than the provider's checkout is open: no payment for a released edition. */
export const HOLD_MARGIN_MS = 60_000;

export interface HostedCheckoutDeps {
  database: Database;
  clock: Clock;
  catalogue: Pick<CatalogueService, "purchaseTerms">;
  quotes: Pick<QuotesService, "usdCentsToInr">;
  wallets: Pick<WalletsService, "receivingWallet">;
  /** The buyer's email and phone on file (accounts), told to the provider. */
  contactOf(userId: string): Promise<{ email: string; phone: string | null } | undefined>;
  /** The chain the token is minted on; card checkouts need its minter key. */
  chain?: Pick<ChainRuntime, "chainId" | "minter" | "buyer">;
  lifecycle: Pick<
    OrderLifecycle,
    "reserveEdition" | "openOrderOr" | "move" | "moveIn" | "fullView" | "ownOrder"
  >;
  /** Ticket orders: the lottery's terms and its ticket numbering (absent: no ticket orders). */
  lottery?: Pick<LotteryService, "ticketTerms" | "assignTickets">;
  /** Enqueues the fulfilment in the transaction that marks an order paid. */
  jobs?: Pick<Jobs, "enqueue">;
  /** Absolute links (checkout pages, return pages) start with this. */
  publicUrl?: string;
  /**
   * The sandbox card provider, when offered (never in production): its webhook secret, and how long
   * its outbox waits for our webhook route to answer (a worker posts to PUBLIC_URL).
   */
  sandbox?: { secret: string; timeoutMs?: number };
  /** cashfree.js's mode on our Cashfree checkout page (CASHFREE_ENV). */
  cashfreeMode?: "sandbox" | "production";
  /** Stripe and Cashfree when configured (decision 142); the sandbox's adapter is made from `sandbox`. */
  providers?: PaymentProviders;
  /** Rupee orders above the yearly total need verified KYC (decision 175). */
  inrLimit?: InrLimit;
  log?: OrdersLog;
}

/**
 * Hosted checkouts (decision 142): the sandbox, Stripe and Cashfree take the payment on their page;
 * their webhooks (verified, applied once per event id) and a reconciler that asks about checkouts
 * whose webhook never came move the order to paid or failed. A paid order is minted by the
 * fulfilment unit.
 */
export function createHostedCheckout(deps: HostedCheckoutDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);
  const log = deps.log ?? (() => {});
  const publicUrl = (deps.publicUrl ?? "").replace(/\/$/, "");
  /**
   * Where the sandbox's own webhooks go: our public webhook URL over HTTP (a ROLE=worker process has
   * no routes of its own), or, where the routes are built, a POST through this app's HTTP stack.
   */
  let sandboxOutbox = createSandboxOutbox(
    httpSandboxPost(publicUrl, deps.sandbox?.timeoutMs ?? 10_000),
    (err) => log("warn", "sandbox: webhook delivery failed", { err: String(err) }),
  );
  const providers: PaymentProviders = {
    ...deps.providers,
    ...(deps.sandbox
      ? {
          sandbox: sandboxProvider({
            secret: deps.sandbox.secret,
            publicUrl,
            nowMs: () => clock.now(),
            deliver: (d) => sandboxOutbox.deliver(d),
          }),
        }
      : {}),
  };

  const refunds = createRefunds({
    database,
    clock,
    providers,
    lifecycle: deps.lifecycle,
    jobs: deps.jobs,
    applyPaymentEvent: (name, event) => applyPaymentEvent(name, event),
    log,
  });
  const tickets = createTicketOrders({
    database,
    clock,
    quotes: deps.quotes,
    lottery: deps.lottery,
    lifecycle: deps.lifecycle,
    requestRefundIn: refunds.requestRefundIn,
    requestRefund: refunds.requestRefund,
    hostedProvider,
    customerOf,
    openAtProvider,
    openMs: CHECKOUT_OPEN_MS,
    holdMarginMs: HOLD_MARGIN_MS,
    publicUrl,
    inrLimit: deps.inrLimit,
  });

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
      const tq = queryOf(tx);
      const claimed = await repo.claimPaymentEvent(tq, provider, event.id, event.providerType, clock.date());
      if (!claimed) return { received: true as const, duplicate: true };
      if (isRefundEvent(event)) {
        const orderId = z.uuid().safeParse(event.orderId).success
          ? event.orderId
          : event.paymentRef
            ? await repo.findByPaymentRef(tq, provider, event.paymentRef)
            : undefined;
        const o = orderId ? await repo.findOrder(tq, orderId, true) : undefined;
        const outcome =
          o && o.provider === provider
            ? await refunds.applyRefundEvent(tx, o, event)
            : "ignored: no such order";
        await repo.setPaymentEventOutcome(tq, provider, event.id, o ? o.id : null, outcome);
        return { received: true as const, duplicate: false };
      }
      const o = z.uuid().safeParse(event.orderId).success
        ? await repo.findOrder(tq, event.orderId, true)
        : undefined;
      let outcome = "applied";
      const { moveIn } = deps.lifecycle;
      if (!o || o.provider !== provider || (o.provider_session && o.provider_session !== event.session)) {
        outcome = "ignored: no such checkout session";
      } else if (
        event.amountMinor !== BigInt(o.pay_amount_minor ?? o.usd_cents) ||
        event.currency !== (o.pay_currency ?? "usd")
      ) {
        outcome = "ignored: amount or currency differ from the order";
      } else if (event.type === "paid") {
        if (event.paymentRef && !o.provider_payment_ref) await repo.setPaymentRef(tq, o.id, event.paymentRef);
        const ticketOutcome = await tickets.applyPaid(tx, o, event.id);
        if (ticketOutcome !== undefined) {
          outcome = ticketOutcome;
        } else if (
          await moveIn(tx, o, ["created", "awaiting_payment"], "paid", `payment ${event.id} succeeded`)
        ) {
          await deps.jobs?.enqueue(fulfilOrder, { orderId: o.id }, { tx });
        } else if (REFUNDABLE_FROM.late_payment.includes(o.state)) {
          // Paid after it ended unpaid (decision 144): its edition was released, so it is refunded, once.
          const r = await refunds.requestRefundIn(
            tx,
            o,
            "late_payment",
            `payment ${event.id} arrived after the order was ${o.state}: refunding it`,
            null,
          );
          outcome = `refunding: order already ${o.state}${r ? "" : " (refund already requested)"}`;
          log("warn", "payment for an order that is over: refunding it", { orderId: o.id, event: event.id });
        } else outcome = `ignored: order already ${o.state}`;
      } else if (
        !(await moveIn(tx, o, ["created", "awaiting_payment"], "failed", `payment ${event.id} declined`))
      ) {
        outcome = `ignored: order already ${o.state}`;
      }
      await repo.setPaymentEventOutcome(tq, provider, event.id, o ? o.id : null, outcome);
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
        amount: Number(o.pay_amount_minor ?? o.usd_cents),
        currency: o.pay_currency ?? "usd",
      },
    };
  }

  /** The provider named by a create request, or 400 when this server does not offer it. */
  function hostedProvider(name: string) {
    const p = providers[name as HostedProviderName];
    if (!p) throw AppError.badRequest(m.providerNotConfigured(name));
    return p;
  }

  /** The buyer's email, and the Indian mobile Cashfree needs: given now, or the account's, never invented. */
  async function customerOf(userId: string, provider: HostedProviderName, phone: string | undefined) {
    const u = await deps.contactOf(userId);
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
  async function createOrder(
    userId: string,
    body: { nftId: string; provider: string; phone?: string },
  ): Promise<Order> {
    const { provider, chain, buyerAddress, customer } = await checkoutFor(userId, body, "minter");
    const row = await deps.lifecycle.openOrderOr(userId, body.nftId, () =>
      withTransaction(database, async (tx) => {
        const { nft, edition } = await deps.lifecycle.reserveEdition(tx, body.nftId, {
          userId,
          address: buyerAddress,
        });
        const o = await insertHostedOrder(tx, provider.name, {
          userId,
          nftId: nft.id,
          edition,
          usdCents: BigInt(nft.priceUsdCents),
          chainId: chain.chainId,
          priceWei: null,
          payoutAddress: nft.payoutAddress,
          buyerAddress,
        });
        await repo.recordCreation(
          queryOf(tx),
          o.id,
          o.state,
          o.pay_currency !== "inr"
            ? `edition ${edition} reserved for card checkout`
            : `edition ${edition} reserved for ${provider.name} checkout: ${o.pay_amount_minor} paise at ${o.inr_micros_per_usd} micro-rupees per dollar`,
          o.created_at,
        );
        return o;
      }),
    );
    return openCheckout(row, customer);
  }

  /**
   * What every NFT hosted-checkout order needs before it is made: the provider (400 unless offered), the
   * chain and its key (`minter` mints, `buyer` buys resale listings, decision 165; 503 without), the
   * fan's receiving wallet (409 without) and what the provider is told about the payer.
   */
  async function checkoutFor(
    userId: string,
    body: { provider: string; phone?: string },
    key: "minter" | "buyer",
  ) {
    const provider = hostedProvider(body.provider);
    const chain = deps.chain;
    if (!chain)
      throw new AppError(
        "unavailable",
        "Crypto payments are unavailable: this server runs without a blockchain",
      );
    if (!chain[key]) throw new AppError("unavailable", m.providerNotConfigured("card"));
    const wallet = await deps.wallets.receivingWallet(userId);
    if (!wallet) throw AppError.conflict(m.walletRequired, { reason: "wallet_required" });
    const customer = await customerOf(userId, provider.name, body.phone);
    return { provider, chain, buyerAddress: getAddress(wallet.address), customer };
  }

  /** Inserts an NFT hosted-checkout order in `tx`: priced in the provider's currency (rupees at the stored rate), held while its checkout is open. */
  async function insertHostedOrder(
    tx: Tx,
    name: HostedProviderName,
    o: Pick<
      repo.NewOrder,
      "userId" | "nftId" | "edition" | "chainId" | "priceWei" | "payoutAddress" | "buyerAddress" | "resale"
    > & { usdCents: bigint },
  ) {
    const provider = hostedProvider(name);
    const now = clock.date();
    const inr = provider.currency === "inr" ? await deps.quotes.usdCentsToInr(o.usdCents) : null;
    if (inr) await checkInrLimit(queryOf(tx), deps.inrLimit, o.userId, inr.paise, now);
    return repo.insertOrder(queryOf(tx), {
      ...o,
      provider: name,
      state: name === "sandbox" ? "awaiting_payment" : "created",
      usdCents: Number(o.usdCents),
      quoteId: null,
      platformFeeBps: null,
      voucherExpiry: null,
      reservedUntil: new Date(
        now.getTime() + CHECKOUT_OPEN_MS[name] + (name === "sandbox" ? 0 : HOLD_MARGIN_MS),
      ),
      now,
      providerSession: name === "sandbox" ? newSessionId() : null,
      payCurrency: provider.currency,
      payAmountMinor: inr?.paise ?? o.usdCents,
      inrMicrosPerUsd: inr?.inrMicrosPerUsd ?? null,
    });
  }

  /** Opens the provider's checkout of a committed NFT order (the sandbox's is ours, open already); the order as its buyer sees it. */
  async function openCheckout(row: repo.OrderRow, customer: Awaited<ReturnType<typeof customerOf>>) {
    const provider = hostedProvider(row.provider);
    if (provider.name === "sandbox" || row.nft_id === null) return deps.lifecycle.fullView(row);
    const nft = await deps.catalogue.purchaseTerms(row.nft_id);
    const back = `${publicUrl}/paymentstatus/${row.nft_id}/${row.id}`;
    await openAtProvider(provider, row, {
      title: `${nft.title} · edition #${row.edition}`,
      tags: { nftId: row.nft_id },
      customer,
      // Cashfree comes back to one URL whatever happened: `/returned` asks (decision 143).
      returnUrl: provider.name === "stripe" ? `${back}/return` : `${back}/returned`,
      cancelUrl: `${back}/cancelled`,
    });
    const fresh = await repo.findOrder(q, row.id);
    return deps.lifecycle.fullView(fresh ?? row);
  }

  /**
   * Opens the provider's checkout of a committed order (`created`): its session is stored and the
   * order awaits payment. A provider that fails or times out leaves the order `failed` (an NFT's
   * edition returned) and the error goes to the caller (502/503).
   */
  async function openAtProvider(
    provider: NonNullable<PaymentProviders[HostedProviderName]>,
    row: repo.OrderRow,
    item: Pick<CheckoutRequest, "title" | "tags" | "customer" | "returnUrl" | "cancelUrl">,
  ): Promise<void> {
    try {
      const checkout = await provider.createCheckout({
        ...item,
        orderId: row.id,
        amountMinor: BigInt(row.pay_amount_minor ?? row.usd_cents),
        currency: provider.currency,
        // Providers' sessions end a little before the reservation does: no payment for a released edition.
        expiresAt: new Date(row.reserved_until.getTime() - HOLD_MARGIN_MS),
      });
      await withTransaction(database, async (tx) => {
        await repo.setCheckout(queryOf(tx), row.id, checkout, clock.date());
        await deps.lifecycle.moveIn(
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
      await deps.lifecycle.move(
        row,
        ["created"],
        "failed",
        `${provider.name} could not open a checkout${row.nft_id === null ? "" : "; edition released"}`,
      );
      throw err;
    }
  }

  /**
   * Asks the providers about their orders stuck awaiting payment for a few minutes, and applies a
   * paid or failed answer through the same path as a webhook (synthetic event id `reconcile:…`), so
   * a lost webhook still fulfils. A provider that fails leaves the order as it is (retried next run).
   */
  async function reconcilePayments(): Promise<{
    asked: number;
    applied: number;
    failed: number;
    refunds?: Awaited<ReturnType<Refunds["reconcileRefunds"]>>;
  }> {
    // Refunds first, with every provider (the sandbox's too: a refund whose job was lost is enqueued again).
    const refunded = await refunds.reconcileRefunds().catch((err) => {
      log("warn", "refund reconciliation failed", { err: String(err) });
      return undefined;
    });
    const counts = { asked: 0, applied: 0, failed: 0, refunds: refunded };
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

  /** A provider's status of an order's checkout, or undefined when it cannot answer (logged). */
  async function providerStatus(provider: PaymentProviders[HostedProviderName], o: repo.OrderRow) {
    if (!provider || !o.provider_session) return undefined;
    try {
      return await provider.fetchStatus(o.provider_session, o.id);
    } catch (err) {
      log("warn", "could not ask a payment provider about an order", {
        provider: o.provider,
        orderId: o.id,
        err: String((err as { cause?: unknown }).cause ?? err),
      });
      return undefined;
    }
  }

  /** Applies a provider's "paid" answer about an order like its webhook (once: the event id is fixed). */
  function applyPaidStatus(
    name: HostedProviderName,
    o: repo.OrderRow,
    status: { amountMinor?: bigint; currency?: string; detail: string },
  ) {
    return applyPaymentEvent(name, {
      id: `reconcile:${o.provider_session}:paid`,
      type: "paid",
      providerType: `reconcile (${status.detail})`,
      orderId: o.id,
      session: o.provider_session ?? "",
      amountMinor: status.amountMinor ?? BigInt(o.pay_amount_minor ?? o.usd_cents),
      currency: status.currency ?? o.pay_currency ?? "usd",
    });
  }

  /**
   * The buyer cancels an unpaid hosted-checkout order (decision 143): the edition is released at
   * once. The provider is asked first (a fan back from a paid checkout whose webhook is still on its
   * way is not cancelled: the payment is applied instead) and its checkout is closed; a provider
   * that cannot answer does not stop the cancellation, and a payment that arrives anyway is recorded
   * as needing a refund, never fulfilled.
   */
  async function cancelOrder(userId: string, orderId: string, cause: string): Promise<Order> {
    const o = await deps.lifecycle.ownOrder(userId, orderId);
    if (o.state === "cancelled") return deps.lifecycle.fullView(o);
    if (o.provider === "wallet") throw AppError.conflict(m.walletNotCancellable, { reason: "wallet_order" });
    if (!repo.UNPAID_STATES.includes(o.state)) throw AppError.conflict(m.notCancellable);
    const provider = o.provider === "sandbox" ? undefined : providers[o.provider as HostedProviderName];
    if (provider && o.provider_session) {
      const before = await providerStatus(provider, o);
      if (before?.type === "paid") {
        await applyPaidStatus(provider.name, o, before);
        return deps.lifecycle.fullView((await repo.findOrder(q, o.id)) ?? o);
      }
      if (before?.type !== "failed" && provider.closeCheckout) {
        try {
          await provider.closeCheckout(o.provider_session, o.id);
        } catch (err) {
          // A checkout that cannot be closed may have just been paid: ask once more.
          log("warn", "could not close a checkout at its provider", {
            provider: o.provider,
            orderId: o.id,
            err: String((err as { cause?: unknown }).cause ?? err),
          });
          const after = await providerStatus(provider, o);
          if (after?.type === "paid") {
            await applyPaidStatus(provider.name, o, after);
            return deps.lifecycle.fullView((await repo.findOrder(q, o.id)) ?? o);
          }
        }
      }
    }
    const moved = await deps.lifecycle.move(o, repo.UNPAID_STATES, "cancelled", cause);
    const fresh = (await repo.findOrder(q, o.id)) ?? o;
    if (!moved && fresh.state !== "cancelled") throw AppError.conflict(m.notCancellable);
    return deps.lifecycle.fullView(fresh);
  }

  return {
    createOrder,
    /** The pieces a resale order (resale.ts, decision 165) shares with a primary one. */
    checkoutFor,
    insertHostedOrder,
    openCheckout,
    /** `POST /api/v1/lotteries/:id/orders`: a ticket order through the same hosted checkouts. */
    createTicketOrder: tickets.create,
    /** The lottery's `onRefundAll`: every paid ticket order of a lottery refunded once, in the caller's transaction. */
    refundTicketOrders: tickets.refundAll,
    reconcilePayments,
    reconcileRefunds: refunds.reconcileRefunds,
    runRefund: refunds.runRefund,
    /** Refunds an order for a reason, once (the lottery's `lottery_not_activated`; decision 144). */
    requestRefund: refunds.requestRefund,
    adminRefund: refunds.adminRefund,
    /** The routes' way to our sandbox webhook (through the app's own HTTP stack); the outbox it makes. */
    useSandboxPost(post: SandboxPost) {
      sandboxOutbox = createSandboxOutbox(post, (err) =>
        log("warn", "sandbox: webhook delivery failed", { err: String(err) }),
      );
      return sandboxOutbox;
    },
    /** `POST /api/v1/orders/:id/cancel`, and the fan's return from a provider's page by Back or cancel. */
    cancelOrder: (userId: string, orderId: string) =>
      cancelOrder(userId, orderId, "cancelled by the buyer; edition released, nothing charged"),

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

    /** What the web may know about the checkout: the offered providers (never their secrets). */
    checkoutProviders(): HostedProviderName[] {
      return Object.keys(providers) as HostedProviderName[];
    },

    /** What the offered card provider (Stripe, else the sandbox) charges in; null when none is offered. */
    cardCurrency(): "inr" | "usd" | null {
      return (providers.stripe ?? providers.sandbox)?.currency ?? null;
    },

    /** The page that opens Cashfree's checkout for an order awaiting payment. */
    async cashfreeCheckout(orderId: string) {
      const o = await repo.findOrder(q, orderId);
      if (o?.provider !== "cashfree" || !o.provider_payment_session)
        throw new AppError("not_found", m.checkoutNotFound);
      if (o.state !== "awaiting_payment")
        return {
          redirect:
            o.nft_id === null
              ? `${publicUrl}${orderPath(o)}`
              : `${publicUrl}/paymentstatus/${o.nft_id}/${o.id}`,
          html: null,
        };
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
      if (!o) throw new AppError("not_found", m.checkoutNotFound);
      const title =
        o.nft_id === null
          ? (await deps.lifecycle.fullView(o)).nftTitle
          : (await deps.catalogue.purchaseTerms(o.nft_id)).title;
      return {
        sessionId,
        title,
        edition: o.edition,
        usdCents: Number(o.usd_cents),
        // Orders made before the sandbox charged rupees have no pay currency: they charge dollars.
        paise: o.pay_currency === "inr" && o.pay_amount_minor !== null ? Number(o.pay_amount_minor) : null,
        state: o.state,
        minutesLeft: Math.max(0, Math.ceil((o.reserved_until.getTime() - clock.now()) / 60_000)),
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
      if (!o) throw new AppError("not_found", m.checkoutNotFound);
      const back = `${publicUrl}${orderPath(o)}`;
      if (action === "abandon") {
        // Like Stripe's cancel_url: the payer left, so the order is cancelled and the edition released now.
        if (o.state !== "awaiting_payment") return { redirect: back, deliveries: [] };
        await cancelOrder(
          o.user_id,
          o.id,
          "the payer abandoned the sandbox checkout; edition released, nothing charged",
        );
        return {
          redirect:
            o.nft_id === null
              ? `${publicUrl}/lottery/${o.lottery_id}`
              : `${publicUrl}/paymentstatus/${o.nft_id}/${o.id}/cancelled`,
          deliveries: [],
        };
      }
      if (o.state !== "awaiting_payment") return { redirect: back, deliveries: [] };
      const body = JSON.stringify(
        sandboxEventFor(o, action === "pay" ? "payment.succeeded" : "payment.failed"),
      );
      const sign = () => signSandboxPayload(secret, body, Math.floor(clock.now() / 1000));
      return { redirect: back, deliveries: [{ body, sign }] };
    },
  };
}

export type HostedCheckout = ReturnType<typeof createHostedCheckout>;
