import { emailSchema } from "@diginoor/api/auth";
import * as oidc from "openid-client";
import type { Config } from "../../config.ts";

/** Google sign-in is offered only when both the client id and secret are configured. */
export function googleEnabled(config: Config): boolean {
  return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
}

export function googleRedirectUri(config: Config): string {
  return `${config.PUBLIC_URL}/api/v1/auth/google/callback`;
}

let cached: { key: string; config: Promise<oidc.Configuration> } | undefined;

/**
 * The discovered OpenID Connect configuration of GOOGLE_ISSUER_URL (cached; a failed discovery is
 * retried on the next request). Plain-http issuers are allowed only outside production (tests use a
 * local provider).
 */
export function googleClient(config: Config): Promise<oidc.Configuration> {
  const key = `${config.GOOGLE_ISSUER_URL}|${config.GOOGLE_CLIENT_ID}`;
  if (cached?.key === key) return cached.config;
  const insecure = config.NODE_ENV !== "production" && config.GOOGLE_ISSUER_URL.startsWith("http:");
  const pending = oidc.discovery(
    new URL(config.GOOGLE_ISSUER_URL),
    config.GOOGLE_CLIENT_ID ?? "",
    { client_secret: config.GOOGLE_CLIENT_SECRET },
    oidc.ClientSecretPost(config.GOOGLE_CLIENT_SECRET),
    { timeout: 10, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
  );
  cached = { key, config: pending };
  pending.catch(() => {
    if (cached?.config === pending) cached = undefined;
  });
  return pending;
}

export interface GoogleFlow {
  /** PKCE code verifier. */
  v: string;
  state: string;
  nonce: string;
  next: string;
}

export async function googleAuthorizationUrl(config: Config, flow: GoogleFlow): Promise<URL> {
  const client = await googleClient(config);
  return oidc.buildAuthorizationUrl(client, {
    redirect_uri: googleRedirectUri(config),
    scope: "openid email profile",
    response_type: "code",
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.v),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
    // Google shows its account chooser (the spec's "prompting account selection"); other issuers
    // get the prompt only when they advertise it.
    ...(supportsSelectAccount(client) ? { prompt: "select_account" } : {}),
  });
}

function supportsSelectAccount(client: oidc.Configuration): boolean {
  const meta = client.serverMetadata();
  const prompts = (meta as { prompt_values_supported?: unknown }).prompt_values_supported;
  return (
    meta.issuer === "https://accounts.google.com" ||
    (Array.isArray(prompts) && prompts.includes("select_account"))
  );
}

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** Exchanges the authorization code (checking state, nonce and PKCE) and returns the ID token's identity. */
export async function googleCallback(
  config: Config,
  currentUrl: URL,
  flow: GoogleFlow,
): Promise<GoogleIdentity> {
  const client = await googleClient(config);
  const tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
    pkceCodeVerifier: flow.v,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error("No ID token in the token response");
  let claims: Record<string, unknown> = idClaims;
  // Providers that keep profile claims out of the ID token serve them from the userinfo endpoint.
  if (typeof claims.email !== "string" && client.serverMetadata().userinfo_endpoint) {
    claims = { ...(await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub)), sub: idClaims.sub };
  }
  const parsedEmail = emailSchema.safeParse(claims.email);
  const email = parsedEmail.success ? parsedEmail.data : null;
  return {
    sub: String(claims.sub),
    email,
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    name: typeof claims.name === "string" ? claims.name : null,
  };
}

export function newFlow(next: string): GoogleFlow {
  return { v: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce(), next };
}

/** Only same-site relative paths are followed after sign-in; anything else goes home. */
export function safeNext(next: string | undefined): string {
  if (!next || next.length > 2000) return "/";
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next.includes("\\") || [...next].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))
    return "/";
  // A Location header carries only ASCII: other characters (an emoji, a Tamil path) are
  // percent-encoded; a broken surrogate makes no path at all.
  try {
    return next.replace(/[^\x21-\x7e]+/gu, (c) => encodeURIComponent(c));
  } catch {
    return "/"; // URIError: a lone surrogate
  }
}
