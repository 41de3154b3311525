import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A client's X-Request-Id is kept only if short and plain; anything else gets a fresh id. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify's genReqId: the client's id when it is safe to log and echo, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

export interface SecurityHeaderOptions {
  publicUrl: string;
  /** Extra origins the web app may connect to (e.g. the local chain's RPC endpoint). */
  connectSrc?: string[];
}

/**
 * The Content-Security-Policy of the web app and API. The built app has no inline script (Vite
 * emits files), so scripts come from this origin only, and so do style sheets. Style *attributes*
 * are allowed: the pages the server renders (decision 033) carry React's `style={…}` as attributes
 * (an aspect ratio, a skeleton's size). An attribute styles one element and cannot select others,
 * so it cannot read the page the way an injected <style> sheet can; <style> elements stay refused.
 */
export function contentSecurityPolicy(opts: SecurityHeaderOptions): string {
  const https = opts.publicUrl.startsWith("https:");
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-elem 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob:",
    `connect-src ${["'self'", ...(opts.connectSrc ?? [])].join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export const PERMISSIONS_POLICY =
  "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()";

/**
 * Response headers of every answer: request id, nosniff, referrer policy, frame denial, CSP and
 * Permissions-Policy (unless a route set its own), and HSTS when the site is served over https.
 */
export function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions): void {
  const csp = contentSecurityPolicy(opts);
  const hsts = opts.publicUrl.startsWith("https:");
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "strict-origin-when-cross-origin");
    if (!reply.hasHeader("x-frame-options")) reply.header("x-frame-options", "DENY");
    if (!reply.hasHeader("content-security-policy")) reply.header("content-security-policy", csp);
    reply.header("permissions-policy", PERMISSIONS_POLICY);
    if (hsts) reply.header("strict-transport-security", "max-age=31536000; includeSubDomains");
  });
}

/**
 * CSRF defence (with SameSite=Lax cookies): a state-changing request from a browser must come from
 * our own origin: scheme, host and port equal to PUBLIC_URL's. Only with a plain-http PUBLIC_URL
 * (development) is the request's own origin accepted too, for a server reached under another name;
 * under https an http page of the same host (an attacker on the network) is refused, and behind a
 * trusted proxy (TRUST_PROXY) only PUBLIC_URL counts, never the X-Forwarded-Host a client sent. Non-browser
 * clients send no Origin and carry no victim's cookies. Webhooks (signed by their sender) and
 * one-click unsubscribe (authorised by its signed token) are exempt.
 */
export function installCsrfCheck(
  app: FastifyInstance,
  publicUrl: string,
  opts: { trustProxy?: boolean | string[] } = {},
): void {
  const publicOrigin = new URL(publicUrl).origin;
  // Behind a trusted proxy the request's host and scheme are the proxy's X-Forwarded-* headers,
  // which the client writes: only the configured PUBLIC_URL is our origin then.
  const acceptOwnOrigin = !publicUrl.startsWith("https:") && !opts.trustProxy;
  app.addHook("onRequest", async (req) => {
    if (!STATE_CHANGING.has(req.method)) return;
    if (req.url.startsWith("/api/v1/webhooks/")) return;
    // One-click unsubscribe (RFC 8058): mail providers POST it from their own servers, with no cookies
    // and possibly their own Origin. It needs no session (the signed token in the URL authorises it)
    // and can only turn one kind of notification email off, so a cross-site request gains nothing.
    if (req.method === "POST" && /^\/api\/v1\/unsubscribe(\?|$)/.test(req.url)) return;
    if (req.headers["sec-fetch-site"] === "cross-site")
      throw AppError.forbidden("Cross-site request refused");
    const origin = req.headers.origin;
    if (origin === undefined) return;
    if (origin === publicOrigin) return;
    if (!acceptOwnOrigin) throw AppError.forbidden("Cross-site request refused");
    let own: string | undefined;
    try {
      own = new URL(`${req.protocol}://${req.host}`).origin;
    } catch {
      own = undefined;
    }
    if (origin !== own) throw AppError.forbidden("Cross-site request refused");
  });
}
