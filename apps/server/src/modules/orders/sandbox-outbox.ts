import { orderEndpoints as api } from "@diginoor/api/orders";
import { SIGNATURE_HEADER } from "./sandbox.ts";
import type { SandboxPost } from "../../lib/webhook-outbox.ts";

export {
  createSandboxOutbox,
  SANDBOX_DUPLICATE_DELAY_MS,
  type SandboxPost,
} from "../../lib/webhook-outbox.ts";

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
