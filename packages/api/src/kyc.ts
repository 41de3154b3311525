// Know your customer (issue 25 point 3, decision 175): identity is verified by a provider (the sandbox
// outside production) on its own hosted page; we keep only its reference and the result, never a document.
import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { formatInr } from "./money.ts";

export const kycStates = ["not_started", "pending", "verified", "rejected"] as const;
export const kycStateSchema = z.enum(kycStates);
export type KycState = z.infer<typeof kycStateSchema>;

export const kycMessages = {
  alreadyVerified: "Your identity is verified already",
  /** A payout to someone whose identity is not verified. */
  payoutNeedsKyc: (who: string, state: KycState) =>
    `${who} has not verified their identity (KYC ${state.replace("_", " ")}): a payout needs verified KYC. Ask them to verify it in Edit Profile → Verify identity.`,
  /** A rupee purchase over the yearly limit without verified identity. */
  inrLimit: (limitPaise: bigint) =>
    `Rupee purchases above ${formatInr(Number(limitPaise))} in a financial year need a verified identity. Verify it in Edit Profile → Verify identity, then try again.`,
} as const;

/** GET /api/v1/me/kyc: where the signed-in user's verification stands. */
export const kycStatusSchema = z.object({
  state: kycStateSchema,
  /** Who verifies (the provider's name); null before the first attempt. */
  provider: z.string().nullable(),
  /** Why the provider rejected it (its words); null otherwise. */
  reason: z.string().nullable(),
  /** ISO 8601 time of the provider's decision; null while none. */
  decidedAt: z.string().nullable(),
  /** Rupee purchases in a financial year above this (paise, decimal string) need verified KYC. */
  inrYearlyLimitPaise: z.string(),
});
export type KycStatus = z.infer<typeof kycStatusSchema>;

export const startKycResponseSchema = z.object({
  /** The provider's hosted verification page: send the browser there. */
  url: z.string(),
});

export const kycSandboxSessionParamsSchema = z
  .object({ sessionId: z.string().regex(/^kyc_sandbox_[0-9a-f]{24}$/, "must be a sandbox verification id") })
  .strict();
export const kycSandboxActionParamsSchema = kycSandboxSessionParamsSchema
  .extend({ action: z.enum(["approve", "reject", "abandon"]) })
  .strict();

const kycWebhookReceiptSchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

export const kycEndpoints = {
  getKyc: endpoint({
    operationId: "getKyc",
    method: "GET",
    path: "/api/v1/me/kyc",
    summary: "Your identity verification (KYC): not started, pending, verified or rejected",
    tags: ["profile"],
    success: { status: 200, schema: kycStatusSchema },
  }),
  startKyc: endpoint({
    operationId: "startKyc",
    method: "POST",
    path: "/api/v1/me/kyc",
    summary:
      "Start verifying your identity at the KYC provider: answers its hosted page's URL (409 when verified already)",
    tags: ["profile"],
    success: { status: 201, schema: startKycResponseSchema },
    errors: ["conflict"],
  }),
  sandboxKycWebhook: endpoint({
    operationId: "sandboxKycWebhook",
    method: "POST",
    path: "/api/v1/webhooks/kyc/sandbox",
    summary:
      "Verification results of the sandbox KYC provider: raw JSON body signed in x-sandbox-signature (t=…,v1=HMAC-SHA256 of t.body); 400 when the signature or timestamp is wrong",
    tags: ["profile"],
    success: { status: 200, schema: kycWebhookReceiptSchema },
    errors: ["bad_request"],
  }),
  sandboxKycPage: endpoint({
    operationId: "showSandboxKyc",
    method: "GET",
    path: "/sandbox/kyc/{sessionId}",
    summary: "The sandbox KYC provider's hosted page (HTML): Approve, Reject, Back",
    tags: ["profile"],
    params: kycSandboxSessionParamsSchema,
    success: { status: 200, schema: z.string(), contentType: "text/html" },
    errors: ["not_found"],
  }),
  sandboxKycAction: endpoint({
    operationId: "sandboxKycAction",
    method: "POST",
    path: "/sandbox/kyc/{sessionId}/{action}",
    summary:
      "The applicant's choice on the sandbox KYC page; approve and reject make the sandbox send signed webhooks; redirects back to Edit Profile",
    tags: ["profile"],
    params: kycSandboxActionParamsSchema,
    success: { status: 302 },
    errors: ["not_found"],
  }),
};
