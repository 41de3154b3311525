import {
  newSessionId,
  SIGNATURE_HEADER,
  sandboxRefundId,
  signSandboxPayload,
  verifySandboxWebhook,
} from "../sandbox.ts";
import { headerOf, type PaymentProvider, ProviderError } from "./types.ts";

/** A signed webhook the sandbox sends (through the whole HTTP stack, see the orders routes). */
export interface SandboxDelivery {
  body: string;
  sign: () => string;
}

/**
 * The sandbox card provider (decision 141) behind the provider interface: its checkout page is ours
 * (GET /sandbox/checkout/:session), its webhooks are HMAC-signed by our own server. It keeps no state
 * of its own, so reconciliation has nothing to ask it: an unpaid sandbox order simply expires.
 * A refund (decision 144) is taken at once and confirmed by a signed `refund.succeeded` webhook the
 * sandbox sends through `deliver` (like its payment webhooks, twice); the same idempotency key names
 * the same refund. The refund call returns once that confirmation was acknowledged (else it throws
 * `unavailable` and the refund job asks again, same key), and its status is always `succeeded`.
 */
export function sandboxProvider(o: {
  secret: string;
  publicUrl: string;
  nowMs?: () => number;
  /** Sends a signed event to our webhook; resolves once its first copy is acknowledged. */
  deliver?: (d: SandboxDelivery) => Promise<void>;
}): PaymentProvider {
  const base = o.publicUrl.replace(/\/$/, "");
  const nowMs = o.nowMs ?? Date.now;
  return {
    name: "sandbox",
    // It stands for an Indian card: it charges rupees, at the stored rate (issue 28).
    currency: "inr",
    async createCheckout() {
      const session = newSessionId();
      return { session, url: `${base}/sandbox/checkout/${session}` };
    },
    verifyWebhook(raw, headers, nowMs) {
      const e = verifySandboxWebhook(o.secret, raw, headerOf(headers, SIGNATURE_HEADER), nowMs);
      return {
        id: e.id,
        type: e.type === "payment.succeeded" ? "paid" : e.type === "refund.succeeded" ? "refunded" : "failed",
        providerType: e.type,
        orderId: e.data.orderId,
        session: e.data.session,
        amountMinor: BigInt(e.data.amount),
        currency: e.data.currency,
        ...(e.data.refundId ? { refundId: e.data.refundId } : {}),
      };
    },
    async fetchStatus() {
      return { type: "pending", detail: "the sandbox keeps no state of its own" };
    },
    async refund(order, amountMinor, _reason, idempotencyKey) {
      const refundId = sandboxRefundId(idempotencyKey);
      const body = JSON.stringify({
        // One event per refund: its copies (and a retried refund call) are duplicates of one event.
        id: `evt_sandbox_refund_${refundId}`,
        type: "refund.succeeded",
        created: Math.floor(nowMs() / 1000),
        data: {
          session: order.session,
          orderId: order.orderId,
          amount: Number(amountMinor),
          currency: order.currency,
          refundId,
        },
      });
      try {
        await o.deliver?.({
          body,
          sign: () => signSandboxPayload(o.secret, body, Math.floor(nowMs() / 1000)),
        });
      } catch (err) {
        throw new ProviderError("sandbox", "unavailable", err);
      }
      return { refundId, status: "pending", detail: "the sandbox confirms by its refund.succeeded webhook" };
    },
    async refundStatus(_order, refundId) {
      // Every refund the sandbox was asked for is taken at once: a lost confirmation is asked about here.
      return { refundId, status: "succeeded", detail: "the sandbox takes every refund at once" };
    },
  };
}
