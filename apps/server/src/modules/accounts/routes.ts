import {
  authMessages,
  googleStartQuerySchema,
  loginRequestSchema,
  nameSchema,
  okResponseSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  providersResponseSchema,
  resendVerificationRequestSchema,
  signupRequestSchema,
  signupResponseSchema,
  userResponseSchema,
  verifyEmailRequestSchema,
} from "@diginoor/api/auth";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type UserRow, users } from "./tables.ts";
import { AppError } from "../../http/errors.ts";
import { defineRoute } from "../../http/route.ts";
import { withTransaction } from "../../platform/tx.ts";
import {
  MAIL_ATTEMPT_WAIT_MS,
  accountMail,
  accountMailJob,
  consumeToken,
  findUserByEmail,
  findUserById,
  revokeTokens,
} from "./accounts.ts";
import { pruneJob } from "./jobs.ts";
import {
  type GoogleFlow,
  googleAuthorizationUrl,
  googleCallback,
  googleEnabled,
  newFlow,
  safeNext,
} from "./google.ts";
import { limits, useFriendlyValidationMessages } from "./http.ts";
import { clearSlidingLimit, hitSlidingLimit, ipSubject } from "./limits.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import {
  clearSessionCookie,
  endAllSessions,
  endCurrentSession,
  optionalUser,
  startSession,
  toApiUser,
} from "./session.ts";

const OIDC_COOKIE = "diginoor_oidc";
const OIDC_COOKIE_PATH = "/api/v1/auth/google";

/** Sign-up, verification, sign-in (password and Google), sign-out and password reset. */
export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.decorate("accountsCtx", ctx);
  // Account mail and the hourly clean-up run as durable jobs (decision 060).
  ctx.jobs.register(
    accountMailJob(ctx, app.mailer),
    pruneJob(ctx, (counts) => app.log.info({ counts }, "pruned accounts data")),
  );

  await app.register(async (scope) => {
    useFriendlyValidationMessages(scope);
    registerPasswordRoutes(scope, ctx);
    registerGoogleRoutes(scope, ctx);
  });
}

function registerPasswordRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ["accounts"];

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/signup",
    summary: "Create an account and send a verification email",
    tags,
    body: signupRequestSchema,
    status: 201,
    errors: [409],
    response: signupResponseSchema,
    handler: async ({ body, req }) => {
      await hitSlidingLimit(ctx.db, limits.signupPerIp, ipSubject(req.ip));
      const passwordHash = await hashPassword(body.password);
      // The account and its verification mail job commit together: a crash cannot lose the mail.
      const { user, jobId } = await withTransaction(ctx.database, async (tx) => {
        const inserted = await tx.db
          .insert(users)
          .values({ name: body.name, email: body.email, phone: body.phone ?? null, passwordHash })
          .onConflictDoNothing()
          .returning();
        const user = inserted[0];
        if (!user) throw new AppError(409, "email_taken", authMessages.emailTaken);
        const mail = { kind: "verify_email" as const, userId: user.id, email: user.email };
        return { user, jobId: await ctx.jobs.enqueue(accountMail, mail, { tx }) };
      });
      // The answer reports the first delivery attempt; a failed one is retried by the queue.
      const attempt = await ctx.jobs.waitForAttempt(jobId, MAIL_ATTEMPT_WAIT_MS);
      if (attempt === "failed") req.log.error({ jobId }, "verification email failed; it will be retried");
      return { user: toApiUser(user), verificationEmailSent: attempt !== "failed" };
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/verify-email",
    summary: "Use an email verification link (sign-up or email change)",
    tags,
    body: verifyEmailRequestSchema,
    errors: [409],
    response: userResponseSchema,
    handler: async ({ body, req }) => {
      await hitSlidingLimit(ctx.db, limits.verifyPerIp, ipSubject(req.ip));
      return withTransaction(ctx.database, async (tx) => {
        const at = { ...ctx, db: tx.db };
        const token = await consumeToken(at, body.token, "verify_email");
        if (!token) throw new AppError(400, "invalid_token", authMessages.invalidToken);
        const user = await findUserById(at, token.userId);
        if (!user) throw new AppError(400, "invalid_token", authMessages.invalidToken);
        if (token.email !== user.email) {
          // An email change: the address moves only now, when its owner has proved it. The token
          // is used, the address changed and the reset links revoked in one transaction.
          const taken = await tx.db
            .select({ id: users.id })
            .from(users)
            .where(and(sql`lower(${users.email}) = ${token.email}`, ne(users.id, user.id)))
            .limit(1);
          if (taken.length) throw new AppError(409, "email_taken", authMessages.emailTaken);
          const updated = await tx.db
            .update(users)
            .set({ email: token.email, emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
            .where(eq(users.id, user.id))
            .returning()
            .catch((err: unknown) => {
              // Another account took the address between the check and the update.
              if (isUniqueViolation(err)) throw new AppError(409, "email_taken", authMessages.emailTaken);
              throw err;
            });
          await revokeTokens(at, user.id, "password_reset");
          return { user: toApiUser(updated[0] ?? user) };
        }
        const updated = await tx.db
          .update(users)
          .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: sql`now()` })
          .where(eq(users.id, user.id))
          .returning();
        return { user: toApiUser(updated[0] ?? user) };
      });
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/resend-verification",
    summary: "Send a new verification link (always answers 202)",
    tags,
    body: resendVerificationRequestSchema,
    status: 202,
    response: okResponseSchema,
    handler: async ({ body, req }) => {
      await hitSlidingLimit(ctx.db, limits.resendPerIp, ipSubject(req.ip));
      await hitSlidingLimit(ctx.db, limits.resendPerEmail, body.email);
      // Always one job, whether or not the address has an account: the answer's timing tells nothing.
      await ctx.jobs.enqueue(accountMail, { kind: "resend_verification", email: body.email });
      return { ok: true as const };
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/login",
    summary: "Sign in with email and password (sets the session cookie)",
    tags,
    body: loginRequestSchema,
    errors: [401, 403],
    response: userResponseSchema,
    handler: async ({ body, req, reply }) => {
      await hitSlidingLimit(ctx.db, limits.loginPerIp, ipSubject(req.ip));
      await hitSlidingLimit(ctx.db, limits.loginPerAccount, body.email);
      const user = await findUserByEmail(ctx, body.email);
      const ok = await verifyPassword(user?.passwordHash, body.password);
      if (!user || !ok) throw new AppError(401, "invalid_credentials", authMessages.invalidCredentials);
      if (user.suspendedAt) throw new AppError(403, "account_suspended", authMessages.accountSuspended);
      if (!user.emailVerifiedAt) throw new AppError(403, "email_unverified", authMessages.emailUnverified);
      // A successful sign-in clears the account's failure window (the per-address one stays).
      await clearSlidingLimit(ctx.db, limits.loginPerAccount, body.email);
      await startSession(ctx, req, reply, user.id);
      return { user: toApiUser(user) };
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/logout",
    summary: "Sign out (ends this session)",
    tags,
    status: 204,
    response: z.undefined(),
    handler: async ({ req, reply }) => {
      await endCurrentSession(ctx, req, reply);
      return undefined;
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/password-reset",
    summary: "Email a password reset link (always answers 202)",
    tags,
    body: passwordResetRequestSchema,
    status: 202,
    response: okResponseSchema,
    handler: async ({ body, req }) => {
      await hitSlidingLimit(ctx.db, limits.resetPerIp, ipSubject(req.ip));
      await hitSlidingLimit(ctx.db, limits.resetPerEmail, body.email);
      // Always one job, whether or not the address has an account: the answer's timing tells nothing.
      await ctx.jobs.enqueue(accountMail, { kind: "password_reset", email: body.email });
      return { ok: true as const };
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/auth/password-reset/confirm",
    summary: "Set a new password with a reset link; ends every session of the user",
    tags,
    body: passwordResetConfirmSchema,
    response: okResponseSchema,
    handler: async ({ body, req, reply }) => {
      await hitSlidingLimit(ctx.db, limits.resetConfirmPerIp, ipSubject(req.ip));
      const passwordHash = await hashPassword(body.password);
      // Who this browser is signed in as, read before the sessions end.
      const current = await optionalUser(req);
      // Using the link, setting the password, revoking the other links and ending the sessions
      // happen together or not at all.
      const token = await withTransaction(ctx.database, async (tx) => {
        const at = { ...ctx, db: tx.db };
        const token = await consumeToken(at, body.token, "password_reset");
        if (!token) throw new AppError(400, "invalid_token", authMessages.invalidToken);
        // The reset link reached this address, which proves it belongs to the user.
        await tx.db
          .update(users)
          .set({
            passwordHash,
            emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(users.id, token.userId), eq(users.email, token.email)));
        await revokeTokens(at, token.userId, "password_reset");
        // Pending email-change links (maybe asked for by someone who knew the old password) die too.
        await revokeTokens(at, token.userId, "verify_email");
        await endAllSessions(tx.db, token.userId);
        return token;
      });
      // This browser's cookie is cleared only if it was signed in as that user (its session is gone).
      if (current?.id === token.userId) clearSessionCookie(ctx.config, reply);
      return { ok: true as const };
    },
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/auth/providers",
    summary: "Which external sign-in providers are enabled",
    tags,
    response: providersResponseSchema,
    handler: async () => ({ google: googleEnabled(ctx.config) }),
  });
}

/** PostgreSQL unique_violation (23505), directly or wrapped by drizzle. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}

function registerGoogleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
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

  app.get("/api/v1/auth/google/start", async (req, reply) => {
    if (!googleEnabled(config)) return reply.redirect(failTo("disabled"), 302);
    await hitSlidingLimit(ctx.db, limits.googlePerIp, ipSubject(req.ip));
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

  app.get("/api/v1/auth/google/callback", async (req, reply) => {
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
    const user = await userForGoogle(ctx, identity);
    if (user === "unverified") return reply.redirect(failTo("unverified_email"), 302);
    if (user === "linked_elsewhere") return reply.redirect(failTo(), 302);
    if (user.suspendedAt) return reply.redirect(failTo("suspended"), 302);
    await startSession(ctx, req, reply, user.id);
    return reply.redirect(flow.next, 302);
  });
}

/**
 * The account a Google identity signs into: the one already linked to its subject; else the
 * account with the same email when Google says the email is verified (linked now); else a new
 * account. An unverified Google email is never linked to or used for an account.
 */
async function userForGoogle(
  ctx: AppContext,
  id: { sub: string; email: string | null; emailVerified: boolean; name: string | null },
): Promise<UserRow | "unverified" | "linked_elsewhere"> {
  const linked = await ctx.db.select().from(users).where(eq(users.googleSub, id.sub)).limit(1);
  if (linked[0]) return linked[0];
  if (!id.email || !id.emailVerified) return "unverified";
  const existing = await findUserByEmail(ctx, id.email);
  // An account already linked to another Google identity is not handed to whoever holds its
  // address now (a recycled or reassigned address): the subject is the identity, not the email.
  if (existing?.googleSub && existing.googleSub !== id.sub) return "linked_elsewhere";
  if (existing) {
    // Google has proved the address. If the local account never verified it, whoever created it
    // could not prove ownership: its password is dropped so only the address owner gets in.
    const unverifiedLocal = !existing.emailVerifiedAt;
    const updated = await ctx.db
      .update(users)
      .set({
        googleSub: id.sub,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        ...(unverifiedLocal ? { passwordHash: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.id, existing.id), isNull(users.googleSub)))
      .returning();
    if (unverifiedLocal) await endAllSessions(ctx.db, existing.id);
    if (!updated[0]) return userForGoogle(ctx, id); // linked concurrently: decide again
    return updated[0];
  }
  // The provider's name gets the same rules as a typed one (no control characters or < >, ≤ 100).
  const name =
    [id.name, id.email.split("@")[0]]
      .map((n) => nameSchema.safeParse(n?.trim().slice(0, 100)))
      .find((r) => r.success)?.data ?? "Diginoor fan";
  const created = await ctx.db
    .insert(users)
    .values({ name, email: id.email, googleSub: id.sub, emailVerifiedAt: new Date() })
    .onConflictDoNothing()
    .returning();
  if (created[0]) return created[0];
  // Lost a race with a concurrent sign-up of the same address: link to that account instead.
  return userForGoogle(ctx, id);
}
