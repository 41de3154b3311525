import type { FastifyInstance } from "fastify";

/** A signed webhook a sandbox provider sends: its body, and its signature made at sending time. */
export interface SignedDelivery {
  body: string;
  sign: () => string;
}

/** The sandbox sends each event twice: at once, and a copy this much later (like a provider's retry). */
export const SANDBOX_DUPLICATE_DELAY_MS = 1500;

/** Posts a signed event to our sandbox webhook route; its HTTP status. */
export type SandboxPost = (body: string, signature: string) => Promise<number>;

/**
 * A sandbox provider's outbox (payments, decision 141; KYC, decision 175): each signed event is POSTed to its webhook route
 * twice, at once and a copy later, and a delivery answered 5xx or not at all is retried a few times,
 * like a provider does. `deliver` resolves once the first copy is acknowledged (a refund job waits
 * for it, so a worker killed before the confirmation arrived runs the job again: same key, same
 * event) and rejects when it never is.
 */
export function createSandboxOutbox(post: SandboxPost, warn: (err: unknown) => void) {
  const pending = new Set<Promise<void>>();
  /** Set when the app closes: waits end at once, and nothing more is sent. */
  let stopped = false;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  const send = async (d: SignedDelivery, delayMs: number) => {
    await sleep(delayMs);
    let last: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (stopped) throw new OutboxClosedError(last);
      try {
        const status = await post(d.body, d.sign());
        if (status < 500) return;
        last = new Error(`the sandbox webhook answered ${status}`);
      } catch (err) {
        last = err;
      }
      await sleep(500 * 2 ** attempt);
    }
    throw last;
  };
  const track = (p: Promise<void>) => {
    const kept = p
      .catch((err) => {
        if (!(err instanceof OutboxClosedError)) warn(err);
      })
      .finally(() => pending.delete(kept));
    pending.add(kept);
  };
  return {
    deliver(d: SignedDelivery): Promise<void> {
      const first = send(d, 0);
      track(first);
      track(send(d, SANDBOX_DUPLICATE_DELAY_MS));
      return first;
    },
    /**
     * A closing app: a post under way is awaited; copies still waiting and retries are dropped (the
     * app takes no more requests), and a `deliver` not yet acknowledged rejects, as when a provider's
     * delivery fails: the refund job waiting for it runs again after a restart (same key, same event).
     */
    drain: () => {
      stopped = true;
      for (const wake of [...wakers]) wake();
      return Promise.all(pending).then(() => undefined);
    },
  };
}

/** A delivery dropped because its app closed before it was acknowledged. */
export class OutboxClosedError extends Error {
  constructor(cause: unknown) {
    super("the app closed before this webhook was acknowledged", { cause });
  }
}

/**
 * Posts a sandbox's signed events to its webhook route `url` through this app's whole HTTP stack (raw
 * body, signature check; `app.inject`, no socket), and drains the outbox before the app closes.
 */
export function outboxThroughApp(
  app: FastifyInstance,
  url: string,
  signatureHeader: string,
  use: (post: SandboxPost) => ReturnType<typeof createSandboxOutbox>,
): ReturnType<typeof createSandboxOutbox> {
  const outbox = use(
    async (body, signature) =>
      (
        await app.inject({
          method: "POST",
          url,
          payload: body,
          headers: { "content-type": "application/json", [signatureHeader]: signature },
        })
      ).statusCode,
  );
  app.addHook("preClose", () => outbox.drain());
  return outbox;
}
