import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import type { SignedDelivery } from "../../lib/webhook-outbox.ts";
import { readSignedEvent, signTimestamped } from "../../lib/webhook-signature.ts";
import { escapeHtml } from "../mail/service.ts";
import type { KycEvent, KycProvider } from "./providers.ts";

/**
 * The sandbox KYC provider (decision 175), modelled on the sandbox payment provider (decision 141): a
 * hosted page served by our own server whose Approve and Reject buttons make it send HMAC-signed
 * webhooks to our webhook route (twice, the copy later), exactly as a real provider would. It asks
 * for no document: there is nothing to keep.
 */

export const KYC_SIGNATURE_HEADER = "x-sandbox-signature";
/** Seconds a webhook's timestamp may be away from our clock. */
export const KYC_REPLAY_WINDOW_SECONDS = 5 * 60;
/** What the sandbox says when it rejects (the page's Reject button). */
export const SANDBOX_REJECTION = "The document photo could not be read (sandbox rejection)";

export const kycSandboxEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(["verification.approved", "verification.rejected"]),
  created: z.number().int(),
  data: z.object({
    session: z.string().min(1).max(100),
    applicantId: z.string().min(1).max(100),
    reason: z.string().max(500).nullable(),
  }),
});

export const newKycSession = () => `kyc_sandbox_${randomBytes(12).toString("hex")}`;
/** The sandbox's applicant record of a session (stable: a repeated event names the same one). */
export const sandboxApplicantId = (session: string) =>
  `appl_sandbox_${createHash("sha256").update(session).digest("hex").slice(0, 24)}`;

export function sandboxKycProvider(o: { secret: string; publicUrl: string }): KycProvider {
  const base = o.publicUrl.replace(/\/$/, "");
  return {
    name: "sandbox",
    async start() {
      const session = newKycSession();
      return { session, url: `${base}/sandbox/kyc/${session}` };
    },
    verifyWebhook(raw: Buffer, headers: IncomingHttpHeaders, nowMs: number): KycEvent {
      const e = readSignedEvent(
        { secret: o.secret, windowSeconds: KYC_REPLAY_WINDOW_SECONDS, what: "a sandbox KYC event" },
        raw,
        headers[KYC_SIGNATURE_HEADER],
        nowMs,
        kycSandboxEventSchema,
      );
      return {
        id: e.id,
        session: e.data.session,
        result: e.type === "verification.approved" ? "verified" : "rejected",
        providerRef: e.data.applicantId,
        reason: e.type === "verification.rejected" ? (e.data.reason ?? SANDBOX_REJECTION) : null,
      };
    },
  };
}

/** The signed event the sandbox sends when the applicant presses Approve or Reject on its page. */
export function sandboxKycDelivery(
  secret: string,
  session: string,
  result: "verified" | "rejected",
  nowMs: () => number,
): SignedDelivery {
  const body = JSON.stringify({
    id: `evt_kyc_sandbox_${randomBytes(12).toString("hex")}`,
    type: result === "verified" ? "verification.approved" : "verification.rejected",
    created: Math.floor(nowMs() / 1000),
    data: {
      session,
      applicantId: sandboxApplicantId(session),
      reason: result === "rejected" ? SANDBOX_REJECTION : null,
    },
  });
  return { body, sign: () => signTimestamped(secret, body, Math.floor(nowMs() / 1000)) };
}

/** The hosted verification page: Approve / Reject / Back (plain forms, no script, no document asked). */
export function kycSandboxPage(o: { sessionId: string; state: string }): string {
  const action = (a: string) => `/sandbox/kyc/${encodeURIComponent(o.sessionId)}/${a}`;
  const buttons =
    o.state === "pending"
      ? `<form method="post" action="${action("approve")}"><button class="approve" type="submit">Approve identity</button></form>
<form method="post" action="${action("reject")}"><button class="reject" type="submit">Reject identity</button></form>
<form method="post" action="${action("abandon")}"><button class="abandon" type="submit">Back to Diginoor</button></form>`
      : `<p class="state" role="status">This verification is over (${escapeHtml(o.state)}).</p>
<form method="post" action="${action("abandon")}"><button class="abandon" type="submit">Back to Diginoor</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox identity verification · Diginoor</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>body{font-family:Inter,Arial,sans-serif;background:#f4f1fb;color:#111;margin:0;padding:24px 16px}
main{max-width:440px;margin:40px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 4px 24px #0002}
.badge{display:inline-block;background:#ffe9a8;color:#6b4e00;border-radius:4px;padding:2px 8px;font-size:12px;font-weight:600}
h1{font-size:20px;margin:12px 0 8px}p{font-size:14px;color:#444;line-height:1.5}
.doc{border:1px dashed #bbb;border-radius:8px;padding:12px;color:#555;font-size:14px;margin:0 0 16px}
form{margin:0 0 10px}button{width:100%;padding:12px;border-radius:8px;border:1px solid #7b2ff7;font-size:16px;font-weight:600;cursor:pointer}
.approve{background:#7b2ff7;color:#fff}.reject{background:#fff;color:#7b2ff7}.abandon{background:#fff;color:#555;border-color:#ccc}
.note{font-size:12px;color:#777;margin-top:16px}</style></head>
<body><main><span class="badge">SANDBOX · no real document</span>
<h1>Verify your identity</h1>
<p>A real provider would ask here for an identity document (Aadhaar, PAN or passport) and a selfie, and keep them itself.</p>
<div class="doc">Sandbox applicant · no document is uploaded or stored</div>
${buttons}
<p class="note">Diginoor's sandbox KYC provider. Approving or rejecting sends a signed result to Diginoor (twice, as real providers sometimes do); Diginoor keeps only this verification's reference and its result.</p>
</main></body></html>`;
}
