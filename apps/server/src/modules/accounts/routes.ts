import { googleStartQuerySchema } from "@diginoor/api/auth";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RateLimit } from "../../http/access.ts";
import { route, routeSchema } from "../../http/route.ts";
import { markDocumentationOnly } from "../../http/validation.ts";
import { hitSlidingLimit, ipSubject, type RateLimiter, type RateLimitRule } from "../../lib/rate-limit.ts";
import { authEndpoints as api, googleEndpoints } from "@diginoor/api/auth-endpoints";
import type { Endpoint } from "@diginoor/api/endpoint";
import {
  type GoogleFlow,
  googleAuthorizationUrl,
  googleCallback,
  googleEnabled,
  newFlow,
  safeNext,
} from "./google.ts";
import { useFriendlyValidationMessages } from "./http.ts";
import { limits } from "./limits.ts";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { AccountsService } from "./service.ts";
import { clearSessionCookie, optionalUser, signIn, signOut, toApiUser } from "./session.ts";

const OIDC_COOKIE = "diginoor_oidc";
const OIDC_COOKIE_PATH = "/api/v1/auth/google";

/** What the sign-in routes use: the accounts service, the configuration, the rate limits' database. */
export interface AuthRoutesDeps {
  accounts: AccountsService;
  config: Config;
  db: Db;
  rateLimiter: RateLimiter;
}

/** Sign-up, verification, sign-in (password and Google), sign-out and password reset. */
export async function registerAuth(app: FastifyInstance, ctx: AuthRoutesDeps): Promise<void> {
  await app.register(async (scope) => {
    useFriendlyValidationMessages(scope);
    registerPasswordRoutes(scope, ctx);
    registerGoogleRoutes(scope, ctx);
  });
}

function registerPasswordRoutes(app: FastifyInstance, ctx: AuthRoutesDeps): void {
  const { accounts, config } = ctx;
  const ip = (rule: RateLimitRule): RateLimit => ({ rule, by: "ip" });
  /** Per the address a form names (validated and normalised by then). */
  const email = (rule: RateLimitRule): RateLimit => ({
    rule,
    by: (req) => (req.body as { email?: string } | undefined)?.email,
  });

  route(app, api.signup, {
    permission: "public",
    rateLimits: [ip(limits.signupPerIp)],
    handler: async ({ body, req }) => {
      const { user, jobId, verificationEmailSent } = await accounts.signUp(body);
      if (!verificationEmailSent) req.log.error({ jobId }, "verification email failed; it will be retried");
      return { user: toApiUser(user), verificationEmailSent };
    },
  });

  route(app, api.verifyEmail, {
    permission: "public",
    rateLimits: [ip(limits.verifyPerIp)],
    handler: async ({ body }) => ({ user: toApiUser(await accounts.verifyEmail(body.token)) }),
  });

  route(app, api.resendVerification, {
    permission: "public",
    rateLimits: [ip(limits.resendPerIp), email(limits.resendPerEmail)],
    handler: async ({ body }) => {
      await accounts.resendVerification(body.email);
      return { ok: true as const };
    },
  });

  route(app, api.login, {
    permission: "public",
    rateLimits: [ip(limits.loginPerIp)],
    handler: async ({ body, req, reply }) => {
      const user = await accounts.logIn(body.email, body.password);
      await signIn(accounts, config, req, reply, user.id);
      return { user: toApiUser(user) };
    },
  });

  route(app, api.logout, {
    permission: "public",
    handler: async ({ req, reply }) => {
      await signOut(accounts, config, req, reply);
      return undefined;
    },
  });

  route(app, api.passwordReset, {
    permission: "public",
    rateLimits: [ip(limits.resetPerIp), email(limits.resetPerEmail)],
    handler: async ({ body }) => {
      await accounts.requestPasswordReset(body.email);
      return { ok: true as const };
    },
  });

  route(app, api.passwordResetConfirm, {
    permission: "public",
    rateLimits: [ip(limits.resetConfirmPerIp)],
    handler: async ({ body, req, reply }) => {
      // Who this browser is signed in as, read before the sessions end.
      const current = await optionalUser(accounts, req);
      const userId = await accounts.resetPassword(body.token, body.password);
      // This browser's cookie is cleared only if it was signed in as that user (its session is gone).
      if (current?.id === userId) clearSessionCookie(config, reply);
      return { ok: true as const };
    },
  });

  route(app, api.providers, {
    permission: "public",
    handler: () => ({ google: googleEnabled(config) }),
  });
}

/** Route options of a Google redirect route: public, documented, its query read leniently. */
function googleRoute(e: Endpoint) {
  if (e.query) markDocumentationOnly(e.query);
  return {
    config: { permission: "public" as const },
    schema: routeSchema(e, { permission: "public", rateLimited: false }),
  };
}

function registerGoogleRoutes(app: FastifyInstance, ctx: AuthRoutesDeps): void {
  const { accounts, config } = ctx;
  // Always `error=google` (the contract); `reason` says more when it helps the user.
  const failTo = (reason?: "unverified_email" | "suspended" | "disabled") =>
    `/login?error=google${reason ? `&reason=${reason}` : ""}`;

  const readFlow = (req: FastifyRequest): GoogleFlow | null => {
    const raw = req.cookies[OIDC_COOKIE];
    if (!raw) return null;
    const unsigned = req.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    try {
      const flow = JSON.parse(unsigned.value) as GoogleFlow;
      if (typeof flow.v !== "string" || typeof flow.state !== "string" || typeof flow.nonce !== "string")
        return null;
      return { ...flow, next: safeNext(flow.next) };
    } catch {
      return null;
    }
  };
  const clearFlow = (reply: FastifyReply) => reply.clearCookie(OIDC_COOKIE, { path: OIDC_COOKIE_PATH });

  app.get("/api/v1/auth/google/start", googleRoute(googleEndpoints.start), async (req, reply) => {
    if (!googleEnabled(config)) return reply.redirect(failTo("disabled"), 302);
    await hitSlidingLimit(ctx.rateLimiter, limits.googlePerIp, ipSubject(req.ip));
    const parsed = googleStartQuerySchema.safeParse(req.query);
    const flow = newFlow(safeNext(parsed.success ? parsed.data.next : undefined));
    let url: URL;
    try {
      url = await googleAuthorizationUrl(config, flow);
    } catch (err) {
      req.log.error({ err }, "Google discovery failed");
      return reply.redirect(failTo(), 302);
    }
    reply.setCookie(OIDC_COOKIE, JSON.stringify(flow), {
      path: OIDC_COOKIE_PATH,
      httpOnly: true,
      sameSite: "lax",
      secure: config.PUBLIC_URL.startsWith("https:"),
      signed: true,
      maxAge: 600,
    });
    return reply.header("cache-control", "no-store").redirect(url.href, 302);
  });

  app.get("/api/v1/auth/google/callback", googleRoute(googleEndpoints.callback), async (req, reply) => {
    reply.header("cache-control", "no-store");
    const flow = readFlow(req);
    clearFlow(reply);
    if (!flow || !googleEnabled(config)) return reply.redirect(failTo(), 302);
    const currentUrl = new URL(req.url, config.PUBLIC_URL);
    let identity: Awaited<ReturnType<typeof googleCallback>>;
    try {
      identity = await googleCallback(config, currentUrl, flow);
    } catch (err) {
      req.log.warn({ err }, "Google sign-in failed");
      return reply.redirect(failTo(), 302);
    }
    const user = await accounts.accountForGoogle(identity);
    if (user === "unverified") return reply.redirect(failTo("unverified_email"), 302);
    if (user === "linked_elsewhere") return reply.redirect(failTo(), 302);
    if (user.suspendedAt) return reply.redirect(failTo("suspended"), 302);
    await signIn(accounts, config, req, reply, user.id);
    return reply.redirect(flow.next, 302);
  });
}
