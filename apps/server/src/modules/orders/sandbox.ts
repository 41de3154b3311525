import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { localSecret } from "../../lib/local-secret.ts";
import { readSignedEvent, signTimestamped } from "../../lib/webhook-signature.ts";
import { formatInr, formatUsd } from "@diginoor/api/money";
import { escapeHtml } from "../mail/service.ts";

/**
 * The sandbox card provider (decision 141): a hosted checkout page served by our own server, whose
 * Pay and Decline buttons make it send signed webhooks to our webhook route exactly like a real
 * provider would, including duplicates and a late copy. Used in development and tests, and whenever
 * no card provider is configured outside production.
 */

/** Seconds a webhook's timestamp may be away from our clock. */
export const REPLAY_WINDOW_SECONDS = 5 * 60;
export const SIGNATURE_HEADER = "x-sandbox-signature";

export const sandboxEventSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(["payment.succeeded", "payment.failed", "refund.succeeded"]),
  created: z.number().int(),
  data: z.object({
    session: z.string().min(1).max(100),
    orderId: z.uuid(),
    amount: z.number().int(),
    currency: z.string(),
    /** refund.succeeded: the sandbox's id of the refund. */
    refundId: z.string().min(1).max(100).optional(),
  }),
});
export type SandboxEvent = z.infer<typeof sandboxEventSchema>;

/**
 * The webhook secret: configured, or derived from SESSION_SECRET (every process of a deployment
 * agrees), or else random and kept under DATA_DIR (never a value anyone could compute from the source).
 */
export function sandboxSecret(config: {
  SANDBOX_WEBHOOK_SECRET?: string;
  SESSION_SECRET?: string;
  paths?: { secrets: string };
}): string {
  if (config.SANDBOX_WEBHOOK_SECRET) return config.SANDBOX_WEBHOOK_SECRET;
  if (!config.SESSION_SECRET) {
    if (!config.paths) throw new Error("sandboxSecret: needs SESSION_SECRET or DATA_DIR");
    return localSecret(config.paths.secrets, "sandbox-webhook").toString("hex");
  }
  return createHash("sha256").update(`diginoor sandbox webhooks:${config.SESSION_SECRET}`).digest("hex");
}

export const newSessionId = () => `cs_sandbox_${randomBytes(12).toString("hex")}`;
export const newEventId = () => `evt_sandbox_${randomBytes(12).toString("hex")}`;
/** The sandbox's refund id for an idempotency key: the same key names the same refund. */
export const sandboxRefundId = (idempotencyKey: string) =>
  `re_sandbox_${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 24)}`;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, as the sandbox sends it. */
export const signSandboxPayload = signTimestamped;

/**
 * Checks a webhook's signature over the exact bytes received and its timestamp against the replay
 * window, then parses it. Any failure is a 400 that changes nothing.
 */
export function verifySandboxWebhook(
  secret: string,
  raw: Buffer,
  header: string | string[] | undefined,
  nowMs: number,
): SandboxEvent {
  return readSignedEvent(
    { secret, windowSeconds: REPLAY_WINDOW_SECONDS, what: "a sandbox event" },
    raw,
    header,
    nowMs,
    sandboxEventSchema,
  );
}

/** The hosted checkout page: amount, what is bought, and Pay / Decline / Abandon (plain forms, no script). */
export function checkoutPage(o: {
  sessionId: string;
  title: string;
  /** Null for a ticket order (nothing is held but the tickets' price). */
  edition: number | null;
  usdCents: number;
  /** What is charged, in paise (the sandbox charges rupees); null on an order that charges dollars. */
  paise: number | null;
  state: string;
  /** Whole minutes until the checkout closes and the edition is released (decision 143). */
  minutesLeft?: number;
}): string {
  // Rupees first, as everywhere (issue 28); the charge is in the order's own currency.
  const charged = o.paise === null ? formatUsd(o.usdCents) : formatInr(o.paise);
  const amount = o.paise === null ? charged : `${charged} · ${formatUsd(o.usdCents)}`;
  const currencyNote =
    o.paise === null
      ? "Charged in US dollars."
      : "Charged in Indian rupees (INR); the dollar price is for reference.";
  const action = (a: string) => `/sandbox/checkout/${encodeURIComponent(o.sessionId)}/${a}`;
  const open = o.state === "awaiting_payment";
  const left = o.minutesLeft ?? 0;
  const held = o.edition === null ? "your tickets are not bought" : "the edition is released";
  const hold =
    left <= 5
      ? `<p class="hold closing" role="alert">This checkout closes in ${left <= 1 ? "less than a minute" : `${left} minutes`}: pay now or ${held}.</p>`
      : o.edition === null
        ? `<p class="hold">This checkout closes in ${left} minutes.</p>`
        : `<p class="hold">This checkout closes in ${left} minutes; the edition is held for you until then.</p>`;
  const buttons = open
    ? `${o.minutesLeft === undefined ? "" : hold}
<form method="post" action="${action("pay")}"><button class="pay" type="submit">Pay ${escapeHtml(charged)}</button></form>
<form method="post" action="${action("decline")}"><button class="decline" type="submit">Decline</button></form>
<form method="post" action="${action("abandon")}"><button class="abandon" type="submit">Abandon</button></form>`
    : `<p class="state">This checkout is closed (order ${escapeHtml(o.state.replace("_", " "))}).</p>
<form method="post" action="${action("abandon")}"><button class="abandon" type="submit">Back to Diginoor</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox checkout · Diginoor</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>body{font-family:Inter,Arial,sans-serif;background:#f4f1fb;color:#111;margin:0;padding:24px 16px}
main{max-width:440px;margin:40px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 4px 24px #0002}
.badge{display:inline-block;background:#ffe9a8;color:#6b4e00;border-radius:4px;padding:2px 8px;font-size:12px;font-weight:600}
.hold{font-size:13px;color:#555;margin:0 0 12px}.closing{color:#a33a00;font-weight:600}
h1{font-size:20px;margin:12px 0 4px}.amount{font-size:32px;font-weight:700;margin:16px 0 4px}.currency{font-size:13px;color:#555;margin:0 0 16px}
.card{border:1px solid #ddd;border-radius:8px;padding:10px 12px;color:#555;font-size:14px;margin:0 0 16px}
form{margin:0 0 10px}button{width:100%;padding:12px;border-radius:8px;border:1px solid #7b2ff7;font-size:16px;font-weight:600;cursor:pointer}
.pay{background:#7b2ff7;color:#fff}.decline{background:#fff;color:#7b2ff7}.abandon{background:#fff;color:#555;border-color:#ccc}
.note{font-size:12px;color:#777;margin-top:16px}</style></head>
<body><main><span class="badge">SANDBOX · no real money</span>
<h1>${escapeHtml(o.title)}</h1>${o.edition === null ? "" : `<div>Edition #${o.edition}</div>`}
<div class="amount" data-testid="sandbox-amount">${escapeHtml(amount)}</div>
<div class="currency" data-testid="sandbox-currency">${escapeHtml(currencyNote)}</div>
<div class="card">Test card 4242 4242 4242 4242 · 12/34 · 123</div>
${buttons}
<p class="note">Diginoor's sandbox payment provider. Paying sends a signed payment webhook to Diginoor (twice, like real providers sometimes do); the token is minted to your linked wallet.</p>
</main></body></html>`;
}
