import type { IncomingHttpHeaders } from "node:http";
import { AppError } from "../../../http/errors.ts";

/**
 * One interface for every hosted-checkout payment provider (decision 142): the sandbox, Stripe and
 * Cashfree. The orders service creates the order and reserves the edition, then asks the provider
 * for a checkout; the provider's webhooks (verified here over the raw body) and its status answers
 * (reconciliation) become the same typed events, applied once each by the orders service.
 */

export type HostedProviderName = "sandbox" | "stripe" | "cashfree";
/** ISO 4217 codes in lower case; amounts are always integer minor units (cents, paise). */
export type PayCurrency = "usd" | "inr";

export interface CheckoutRequest {
  /** Our order id: the provider's reference, and the idempotency key of the create call. */
  orderId: string;
  /** What the payer sees they buy: "<NFT> · edition #3", or "3 tickets · <lottery>". */
  title: string;
  /** What it is, for the provider's dashboard: `{nftId}` or `{lotteryId}`. */
  tags: Record<string, string>;
  amountMinor: bigint;
  currency: PayCurrency;
  customer: { id: string; email: string; phone?: string };
  /** Where the payer returns after paying (our /paymentstatus page) and after giving up. */
  returnUrl: string;
  cancelUrl: string;
  /** The provider's session should not outlive the reservation of the edition. */
  expiresAt: Date;
}

export interface CheckoutSession {
  /** The provider's id of the checkout (Stripe: cs_…; Cashfree: its order id, ours). */
  session: string;
  /** Where the browser goes to pay. */
  url: string;
  /** Cashfree: the payment_session_id cashfree.js opens the checkout with. */
  paymentSession?: string;
}

/** A verified provider event, whatever the provider. */
export interface PaymentEvent {
  /** Unique per provider (the dedup key in payment_events). */
  id: string;
  /** A payment's outcome, or a refund's (`refunded`, `refund_failed`, `refund_pending`). */
  type: "paid" | "failed" | "pending" | "refunded" | "refund_failed" | "refund_pending";
  /** The provider's own name of the event (recorded). */
  providerType: string;
  orderId: string;
  session: string;
  amountMinor: bigint;
  currency: string;
  /** The provider's id of the payment (Stripe: the PaymentIntent), what a refund names. */
  paymentRef?: string;
  /** Refund events: the provider's id of the refund. */
  refundId?: string;
}

/** Why an order is refunded (one refund per order and reason). */
export type RefundReasonCode =
  | "late_payment"
  | "admin"
  | "lottery_not_activated"
  | "lottery_seed_not_revealed"
  /** A paid resale whose listing was cancelled, sold, repriced or changed hands before we could buy it. */
  | "listing_changed"
  /** A paid card order whose edition is minted on chain already (another token) or beyond the item's on-chain count. */
  | "edition_unavailable"
  /** A paid resale whose seller is a wallet ever linked to the buyer's account. */
  | "own_listing"
  /** A paid resale of a token the console hid (suspended or voided). */
  | "token_hidden";

/** What a refund names at its provider. */
export interface RefundTarget {
  orderId: string;
  /** The checkout session (Stripe: cs_…; Cashfree: its order id, ours). */
  session: string;
  /** The payment (Stripe: pi_…), when known; Stripe finds it from the session otherwise. */
  paymentRef: string | null;
  currency: string;
}

/** A provider's answer about a refund: its id there, and whether it is done. */
export interface RefundResult {
  refundId: string;
  status: "succeeded" | "pending" | "failed";
  detail: string;
}

/** What the provider says about a checkout now (reconciliation); undefined fields are unknown. */
export interface PaymentStatus {
  type: "paid" | "failed" | "pending";
  amountMinor?: bigint;
  currency?: string;
  detail: string;
}

export interface PaymentProvider {
  readonly name: HostedProviderName;
  readonly currency: PayCurrency;
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Checks the signature over the exact bytes received and the replay window, then parses. Throws a
   * 400 AppError for anything forged, stale or malformed; returns null for event types we ignore.
   */
  verifyWebhook(raw: Buffer, headers: IncomingHttpHeaders, nowMs: number): PaymentEvent | null;
  /** The provider's view of a checkout (throws ProviderError when it cannot answer). */
  fetchStatus(session: string, orderId: string): Promise<PaymentStatus>;
  /**
   * Closes an open checkout so it can no longer be paid (the buyer cancelled; decision 143): Stripe
   * expires the Checkout Session, Cashfree terminates the order. Throws ProviderError when the
   * provider cannot answer or refuses (a session already paid cannot be closed).
   */
  closeCheckout?(session: string, orderId: string): Promise<void>;
  /**
   * Refunds `amountMinor` of an order's payment, once per `idempotencyKey` (a retry with the same key
   * answers the same refund). Throws ProviderError: `unavailable` (retry later, same key) or `refused`.
   */
  refund(
    order: RefundTarget,
    amountMinor: bigint,
    reason: RefundReasonCode,
    idempotencyKey: string,
  ): Promise<RefundResult>;
  /** The provider's view of a refund now (reconciliation of a lost refund webhook). */
  refundStatus?(order: RefundTarget, refundId: string): Promise<RefundResult>;
}

/** Seconds a webhook's timestamp may be away from our clock: the sandbox's window, for every provider. */
export { REPLAY_WINDOW_SECONDS } from "../sandbox.ts";

/** A provider that failed to answer (5xx, timeout, network) or refused a call: never a crash, never a 500. */
export class ProviderError extends AppError {
  constructor(provider: string, kind: "unavailable" | "refused", cause?: unknown) {
    super(
      kind === "unavailable" ? "unavailable" : "bad_gateway",
      kind === "unavailable"
        ? `The payment provider (${provider}) did not answer; nothing was charged. Please try again in a minute`
        : `The payment provider (${provider}) refused to start the payment; nothing was charged. Please try again later`,
      undefined,
      { cause },
    );
    this.name = "ProviderError";
  }
}

export const refuseWebhook = (why: string) => new AppError("bad_request", `Webhook refused: ${why}`);

/** The first value of a header. */
export const headerOf = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** "123.45" (or 123.45) rupees/dollars → 12345 minor units, exactly; undefined when not a 2-decimal amount. */
export function decimalToMinor(value: unknown): bigint | undefined {
  const text = typeof value === "number" ? value.toFixed(2) : typeof value === "string" ? value : "";
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return undefined;
  return BigInt(m[1] ?? "0") * 100n + BigInt((m[2] ?? "").padEnd(2, "0"));
}

/** 12345 minor units → 123.45 (a JSON number with at most 2 decimals, as Cashfree's order_amount). */
export const minorToDecimal = (minor: bigint): number => Number(minor) / 100;
