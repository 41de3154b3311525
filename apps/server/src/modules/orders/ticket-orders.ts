// Lottery ticket orders (issue 24 point 4, decision 161): bought through the same hosted checkouts,
// webhooks and jobs as NFTs. The server prices them (count × the lottery's ticket price, never the
// client's), checks the lottery's terms (open, the buyer's region, the per-player cap counting the
// buyer's unpaid ticket orders) and opens the provider's checkout. The payment's transaction numbers
// the tickets (the lottery's next contiguous range) and fulfils the order; a lottery that does not
// take place refunds every paid ticket order once, in the transaction that ends it.
import type { TicketOrderRequest } from "@diginoor/api/lottery";
import type { Database } from "../../db/client.ts";
import { queryOf } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import type { LotteryService, RefundCause } from "../lottery/service.ts";
import type { QuotesService } from "../quotes/service.ts";
import { type OrderLifecycle, orderPath, ticketTitle } from "./lifecycle.ts";
import type { PaymentProviders } from "./providers/index.ts";
import type { CheckoutRequest, HostedProviderName } from "./providers/types.ts";
import type { Refunds } from "./refunds.ts";
import { checkInrLimit, type InrLimit } from "./inr-limit.ts";
import * as repo from "./repo.ts";
import { newSessionId } from "./sandbox.ts";

type Provider = NonNullable<PaymentProviders[HostedProviderName]>;

export interface TicketOrdersDeps {
  database: Database;
  clock: Clock;
  quotes: Pick<QuotesService, "usdCentsToInr">;
  lottery?: Pick<LotteryService, "ticketTerms" | "assignTickets">;
  lifecycle: Pick<OrderLifecycle, "moveIn" | "fullView">;
  requestRefundIn: Refunds["requestRefundIn"];
  requestRefund: Refunds["requestRefund"];
  /** The hosted checkout's pieces (hosted-checkout.ts builds this unit with them). */
  hostedProvider(name: string): Provider;
  customerOf(
    userId: string,
    provider: HostedProviderName,
    phone: string | undefined,
  ): Promise<CheckoutRequest["customer"]>;
  openAtProvider(
    provider: Provider,
    row: repo.OrderRow,
    item: Pick<CheckoutRequest, "title" | "tags" | "customer" | "returnUrl" | "cancelUrl">,
  ): Promise<void>;
  /** How long each provider's checkout stays open, and the margin after it (hosted-checkout.ts). */
  openMs: Record<HostedProviderName, number>;
  holdMarginMs: number;
  publicUrl: string;
  /** Rupee orders above the yearly total need verified KYC. */
  inrLimit?: InrLimit;
}

export function createTicketOrders(deps: TicketOrdersDeps) {
  const { database, clock } = deps;
  const q = queryOf(database);

  function lotteryOrUnavailable() {
    if (!deps.lottery) throw new AppError("unavailable", "Lotteries are not offered by this server");
    return deps.lottery;
  }

  /**
   * `POST /api/v1/lotteries/:id/orders`: the order is committed (`created`; the sandbox's at once
   * `awaiting_payment`) before the provider is asked, so its id is the provider's reference. The
   * buyer's ticket orders of one lottery are made one at a time (an advisory lock), so two at once
   * cannot both pass the cap.
   */
  async function create(
    userId: string,
    lotteryId: string,
    body: TicketOrderRequest,
  ): Promise<{ orderId: string; state: string; checkoutUrl: string | null }> {
    const lottery = lotteryOrUnavailable();
    const provider = deps.hostedProvider(body.provider);
    const customer = await deps.customerOf(userId, provider.name, body.phone);
    const openMs = deps.openMs[provider.name];
    const row = await withTransaction(database, async (tx) => {
      const tq = queryOf(tx);
      await tq("SELECT pg_advisory_xact_lock(hashtext('lottery:tickets:' || $1 || ':' || $2))", [
        lotteryId,
        userId,
      ]);
      const pending = await repo.unpaidTickets(tq, userId, lotteryId);
      const terms = await lottery.ticketTerms(tx, userId, lotteryId, body.count, body.region, pending);
      const now = clock.date();
      const inr = provider.currency === "inr" ? await deps.quotes.usdCentsToInr(terms.usdCents) : null;
      if (inr) await checkInrLimit(tq, deps.inrLimit, userId, inr.paise, now);
      const o = await repo.insertOrder(tq, {
        userId,
        nftId: null,
        edition: null,
        lotteryId,
        ticketCount: body.count,
        provider: provider.name,
        state: provider.name === "sandbox" ? "awaiting_payment" : "created",
        usdCents: Number(terms.usdCents),
        quoteId: null,
        chainId: null,
        priceWei: null,
        platformFeeBps: null,
        payoutAddress: null,
        voucherExpiry: null,
        buyerAddress: null,
        reservedUntil: new Date(
          now.getTime() + openMs + (provider.name === "sandbox" ? 0 : deps.holdMarginMs),
        ),
        now,
        providerSession: provider.name === "sandbox" ? newSessionId() : null,
        payCurrency: provider.currency,
        payAmountMinor: inr?.paise ?? terms.usdCents,
        inrMicrosPerUsd: inr?.inrMicrosPerUsd ?? null,
      });
      await repo.recordCreation(
        tq,
        o.id,
        o.state,
        `${body.count} tickets of ${terms.name} (region ${body.region}, rules accepted) for ${
          inr === null
            ? `${terms.usdCents} cents`
            : `${inr.paise} paise at ${inr.inrMicrosPerUsd} micro-rupees per dollar`
        } by ${provider.name}`,
        now,
      );
      return { order: o, name: terms.name };
    });
    const o = row.order;
    if (provider.name !== "sandbox") {
      await deps.openAtProvider(provider, o, {
        title: ticketTitle(body.count, row.name),
        tags: { lotteryId },
        customer,
        returnUrl: `${deps.publicUrl}${orderPath(o)}`,
        cancelUrl: `${deps.publicUrl}/lottery/${lotteryId}`,
      });
    }
    const view = await deps.lifecycle.fullView((await repo.findOrder(q, o.id)) ?? o);
    return { orderId: view.orderId, state: view.state, checkoutUrl: view.checkoutUrl };
  }

  /**
   * A confirmed payment of order `o` (locked by the caller, in the transaction that records the
   * event): a ticket order still unpaid gets the lottery's next contiguous range and is fulfilled at
   * once; one whose lottery closed before the payment arrived gets no tickets and is refunded.
   * Undefined for an NFT order, or a ticket order no longer unpaid (the caller's late-payment path).
   */
  async function applyPaid(tx: Tx, o: repo.OrderRow, eventId: string): Promise<string | undefined> {
    if (o.lottery_id === null || !repo.UNPAID_STATES.includes(o.state)) return undefined;
    const lottery = lotteryOrUnavailable();
    const { moveIn } = deps.lifecycle;
    const range = await lottery.assignTickets(tx, {
      lotteryId: o.lottery_id,
      orderId: o.id,
      userId: o.user_id,
      count: o.ticket_count ?? 0,
    });
    if ("refused" in range) {
      await moveIn(tx, o, repo.UNPAID_STATES, "expired", `payment ${eventId} refused: ${range.refused}`);
      await deps.requestRefundIn(
        tx,
        { ...o, state: "expired" },
        "late_payment",
        `payment ${eventId} arrived but ${range.refused}: refunding it`,
        null,
      );
      return `refunding: ${range.refused}`;
    }
    await moveIn(tx, o, repo.UNPAID_STATES, "paid", `payment ${eventId} succeeded`);
    await moveIn(tx, o, ["paid"], "fulfilled", `tickets ${range.first} to ${range.last}`);
    return `applied: tickets ${range.first} to ${range.last}`;
  }

  /**
   * The lottery's `onRefundAll`, in the transaction that ends it without a draw: every paid ticket
   * order refunded once for `cause` (a second call finds each refund requested and writes nothing).
   */
  async function refundAll(tx: Tx, lotteryId: string, orderIds: string[], cause: RefundCause) {
    const why =
      cause === "lottery_not_activated"
        ? `lottery ${lotteryId} was not activated: refunding its tickets`
        : `lottery ${lotteryId}'s seed was not revealed in time: refunding its tickets`;
    for (const orderId of orderIds) await deps.requestRefund(orderId, cause, { cause: why, tx });
  }

  return { create, applyPaid, refundAll };
}

export type TicketOrders = ReturnType<typeof createTicketOrders>;
