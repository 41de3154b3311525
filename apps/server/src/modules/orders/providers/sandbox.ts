import { newSessionId, SIGNATURE_HEADER, verifySandboxWebhook } from "../sandbox.ts";
import { headerOf, type PaymentProvider } from "./types.ts";

/**
 * The sandbox card provider (decision 141) behind the provider interface: its checkout page is ours
 * (GET /sandbox/checkout/:session), its webhooks are HMAC-signed by our own server. It keeps no state
 * of its own, so reconciliation has nothing to ask it: an unpaid sandbox order simply expires.
 */
export function sandboxProvider(o: { secret: string; publicUrl: string }): PaymentProvider {
  const base = o.publicUrl.replace(/\/$/, "");
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
        type: e.type === "payment.succeeded" ? "paid" : "failed",
        providerType: e.type,
        orderId: e.data.orderId,
        session: e.data.session,
        amountMinor: BigInt(e.data.amount),
        currency: e.data.currency,
      };
    },
    async fetchStatus() {
      return { type: "pending", detail: "the sandbox keeps no state of its own" };
    },
  };
}
