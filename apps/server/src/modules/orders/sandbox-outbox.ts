import { orderEndpoints as api } from "@diginoor/api/orders";
import { SIGNATURE_HEADER } from "./sandbox.ts";
import type { SandboxDelivery } from "./providers/sandbox.ts";

/** The sandbox sends each event twice: at once, and a copy this much later (like a provider's retry). */
export const SANDBOX_DUPLICATE_DELAY_MS = 1500;

/** Posts a signed event to our sandbox webhook route; its HTTP status. */
export type SandboxPost = (body: string, signature: string) => Promise<number>;

/**
 * The sandbox provider's outbox (decision 141): each signed event is POSTed to our webhook route
 * twice, at once and a copy later, and a delivery answered 5xx or not at all is retried a few times,
 * like a provider does. `deliver` resolves once the first copy is acknowledged (a refund job waits
 * for it, so a worker killed before the confirmation arrived runs the job again: same key, same
 * event) and rejects when it never is.
 */
export function createSandboxOutbox(post: SandboxPost, warn: (err: unknown) => void) {
  const pending = new Set<Promise<void>>();
  const send = async (d: SandboxDelivery, delayMs: number) => {
    await new Promise((r) => setTimeout(r, delayMs));
    let last: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const status = await post(d.body, d.sign());
        if (status < 500) return;
        last = new Error(`the sandbox webhook answered ${status}`);
      } catch (err) {
        last = err;
      }
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    }
    throw last;
  };
  const track = (p: Promise<void>) => {
    const kept = p.catch(warn).finally(() => pending.delete(kept));
    pending.add(kept);
  };
  return {
    deliver(d: SandboxDelivery): Promise<void> {
      const first = send(d, 0);
      track(first);
      track(send(d, SANDBOX_DUPLICATE_DELAY_MS));
      return first;
    },
    /** Waits for every delivery under way (a closing app). */
    drain: () => Promise.all(pending).then(() => undefined),
  };
}

/**
 * The outbox of a process without our HTTP routes (ROLE=worker): the sandbox posts to the public
 * webhook URL, where an api process answers, as a real provider would.
 */
export function httpSandboxPost(publicUrl: string, timeoutMs: number): SandboxPost {
  const url = `${publicUrl.replace(/\/$/, "")}${api.sandboxWebhook.path}`;
  return async (body, signature) =>
    (
      await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      })
    ).status;
}
