import { z } from "zod";

/**
 * Every error code the API answers with, and the HTTP status it always comes with. Clients branch on
 * the code; the OpenAPI document lists, per operation, the statuses of the codes it can answer.
 */
export const errorStatuses = {
  bad_request: 400,
  validation_failed: 400,
  invalid_token: 400,
  no_password: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  account_suspended: 403,
  email_unverified: 403,
  /** Money cannot go out (a payout) or come in above the yearly limit without verified identity (KYC). */
  kyc_required: 403,
  not_found: 404,
  conflict: 409,
  email_taken: 409,
  /** A passkey wallet that still holds tokens or coin cannot be unlinked (issue 35 item 2). */
  wallet_not_empty: 409,
  /** The request did not arrive in time (HTTP_REQUEST_TIMEOUT_MS, HTTP_HEADERS_TIMEOUT_MS). */
  request_timeout: 408,
  /** Something that existed is over (an expired price quote). */
  gone: 410,
  payload_too_large: 413,
  /** A path parameter longer than the router takes (200 characters). */
  uri_too_long: 414,
  unsupported_media_type: 415,
  rate_limited: 429,
  /** Too many live event streams open at once (per account, or per address when signed out). */
  too_many_streams: 429,
  /** The request line and headers together exceed the server's limit (16 KiB). */
  headers_too_large: 431,
  internal: 500,
  /** A service we depend on (a payment provider) answered with an error. */
  bad_gateway: 502,
  unavailable: 503,
  mail_failed: 503,
} as const;

export type ErrorCode = keyof typeof errorStatuses;
export const errorCodeSchema = z.enum(Object.keys(errorStatuses) as [ErrorCode, ...ErrorCode[]]);

/** The status of an error code. */
export function statusOf(code: ErrorCode): number {
  return errorStatuses[code];
}

/** At most this many field issues are reported in `details` (the rest are counted, not listed). */
export const MAX_REPORTED_ISSUES = 20;

/** Every error response of the API has exactly this shape; its code is one of the closed list above. */
export const errorBodySchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** One entry of `details` for validation failures: which field, and what is wrong with it. */
export const fieldIssueSchema = z.object({ field: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;
