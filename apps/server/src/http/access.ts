import type { ErrorCode } from "@diginoor/api/errors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type RateLimiter, type RateLimitRule, hitSlidingLimit, ipSubject } from "../lib/rate-limit.ts";
import { AppError } from "./errors.ts";

/**
 * Who may call a route: anyone, a signed-in user, an administrator, or staff (an administrator or
 * a studio account, whose service then limits it to its own production house; decision 132).
 */
export type Permission = "public" | "signed-in" | "admin" | "studio";

/** The signed-in user as the HTTP layer needs it (the accounts module supplies it). */
export interface AuthUser {
  id: string;
  role: string;
  email?: string;
  /** A studio account's production house. */
  productionHouseId?: number | null;
  /** SHA-256 of the request's session id (what a live event stream is bound to). */
  sessionIdHash?: string;
}

/**
 * A rate limit of a route: a sliding window in the shared PostgreSQL store, counted per client
 * address (IPv6 per /64), per signed-in user, or per a value of the validated request (e.g. the
 * email address a form names). Checked after validation, before the handler.
 */
export interface RateLimit {
  rule: RateLimitRule;
  by: "ip" | "user" | ((req: FastifyRequest) => string | undefined);
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Declared by every API route; enforced by one hook (401 signed out, 403 not an admin). */
    permission?: Permission;
    rateLimits?: readonly RateLimit[];
    /** The error codes the route's endpoint declares (route.ts `declaredErrorCodes`). */
    errorCodes?: ReadonlySet<ErrorCode>;
  }
  interface FastifyRequest {
    /** The signed-in user, set for routes that require one. */
    user: AuthUser | null;
  }
}

export interface AccessOptions {
  /** The shared rate-limit counters (subjects hashed under the server's key). */
  limiter: RateLimiter;
  /** The signed-in user of a request, or null. */
  authenticate(req: FastifyRequest): Promise<AuthUser | null>;
  loginRequiredMessage: string;
}

/**
 * Enforces each route's declared permission (on request, before the body is read) and rate
 * limits (before the handler). API routes must declare a permission: registering one without it
 * fails at start-up.
 */
export function installAccessControl(app: FastifyInstance, opts: AccessOptions): void {
  app.decorateRequest("user", null);

  app.addHook("onRoute", (route) => {
    const isApi = route.url.startsWith("/api/v1/");
    if (isApi && !route.config?.permission) {
      throw new Error(`${route.method} ${route.url}: an API route must declare config.permission`);
    }
  });

  app.addHook("onRequest", async (req) => {
    const permission = req.routeOptions.config?.permission;
    if (!permission || permission === "public") return;
    const user = await opts.authenticate(req);
    if (!user) throw AppError.unauthorized(opts.loginRequiredMessage);
    if (permission === "admin" && user.role !== "admin") {
      throw AppError.forbidden("Only administrators can do that");
    }
    if (permission === "studio" && user.role !== "admin" && user.role !== "studio") {
      throw AppError.forbidden("Only administrators and studio accounts can do that");
    }
    req.user = user;
  });

  app.addHook("preHandler", async (req) => {
    const limits = req.routeOptions.config?.rateLimits;
    if (!limits) return;
    for (const { rule, by } of limits) {
      const subject = by === "ip" ? ipSubject(req.ip) : by === "user" ? req.user?.id : by(req);
      if (subject !== undefined) await hitSlidingLimit(opts.limiter, rule, subject);
    }
  });
}
