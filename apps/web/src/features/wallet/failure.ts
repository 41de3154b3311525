import { ApiError } from "../../lib/api.ts";

/** What to tell the fan when a passkey step failed: the server's message, or `fallback` when the passkey prompt was dismissed. */
export function failure(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && /NotAllowed|cancel|abort|timed out/i.test(`${err.name} ${err.message}`))
    return fallback;
  return err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : fallback;
}
