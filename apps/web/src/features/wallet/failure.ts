import { ApiError } from "../../lib/api.ts";
import { passkeyErrorMessage } from "../../lib/wallet/passkey-errors.ts";

/**
 * What to tell the fan when a passkey step failed: the server's message, the plain words of a WebAuthn
 * failure (never the browser's text, issue 35 item 2), or `fallback`.
 */
export function failure(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.message;
  return passkeyErrorMessage(err) ?? fallback;
}
