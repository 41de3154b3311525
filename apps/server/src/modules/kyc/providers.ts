import type { IncomingHttpHeaders } from "node:http";

/**
 * A KYC provider (decision 175), shaped like the payment providers (decision 142): it opens a hosted
 * verification page for one attempt, and tells us the result by a signed webhook. It keeps the
 * documents; we keep its references and the result.
 */
export interface KycProvider {
  name: string;
  /** Opens a verification session for one attempt of a user: its id and hosted page. */
  start(p: { userId: string; returnUrl: string }): Promise<{ session: string; url: string }>;
  /**
   * Checks a webhook's signature over the raw bytes and its timestamp (a 400 AppError for anything
   * forged, stale or malformed) and reads it; null for event types we do not use.
   */
  verifyWebhook(raw: Buffer, headers: IncomingHttpHeaders, nowMs: number): KycEvent | null;
}

/** A provider's decision on one verification session. */
export interface KycEvent {
  /** The provider's event id (a duplicate delivery repeats it). */
  id: string;
  session: string;
  result: "verified" | "rejected";
  /** The provider's reference of the applicant's record. */
  providerRef: string;
  /** Why it was rejected (the provider's words); null when verified. */
  reason: string | null;
}
