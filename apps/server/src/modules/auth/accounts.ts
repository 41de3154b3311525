import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import { authTokens, type UserRow, users } from "../../db/schema/accounts.ts";
import type { Mailer } from "../mail/mailer.ts";
import { passwordResetMail, verificationMail } from "../mail/templates.ts";
import { hashSecret, newSecret } from "./tokens.ts";

export const VERIFY_TOKEN_TTL_SECONDS = 24 * 3600;
export const RESET_TOKEN_TTL_SECONDS = 3600;

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const rows = await ctx.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export async function findUserById(ctx: AppContext, id: string): Promise<UserRow | undefined> {
  const rows = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** Creates a single-use token and returns the secret (only its hash is stored). */
export async function issueToken(
  ctx: AppContext,
  userId: string,
  kind: "verify_email" | "password_reset",
  email: string,
): Promise<string> {
  const secret = newSecret();
  const ttl = kind === "verify_email" ? VERIFY_TOKEN_TTL_SECONDS : RESET_TOKEN_TTL_SECONDS;
  await ctx.db.insert(authTokens).values({
    tokenHash: hashSecret(secret),
    userId,
    kind,
    email,
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  return secret;
}

/**
 * Marks a token used and returns it, atomically: a second use, an expired token or a token of
 * another kind returns undefined.
 */
export async function consumeToken(ctx: AppContext, secret: string, kind: "verify_email" | "password_reset") {
  const rows = await ctx.db
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(authTokens.tokenHash, hashSecret(secret)),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return rows[0];
}

/** Invalidates the outstanding tokens of one kind for a user (after a reset, or when a new email is asked for). */
export async function revokeTokens(ctx: AppContext, userId: string, kind: "verify_email" | "password_reset") {
  await ctx.db
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
}

/** Issues a verification token for `email` and mails the link there. Throws when sending fails. */
export async function sendVerification(
  ctx: AppContext,
  mailer: Mailer,
  user: UserRow,
  email: string,
): Promise<void> {
  const token = await issueToken(ctx, user.id, "verify_email", email);
  const url = `${ctx.config.PUBLIC_URL}/verify-email?token=${token}`;
  // The name is whatever the account's creator typed, and this address has not been proven to be
  // theirs: anyone could send a Diginoor mail with their text in it to anyone. So no name here.
  await mailer.send({ to: email, ...verificationMail(null, url, email !== user.email) });
}

export async function sendPasswordReset(ctx: AppContext, mailer: Mailer, user: UserRow): Promise<void> {
  const token = await issueToken(ctx, user.id, "password_reset", user.email);
  const url = `${ctx.config.PUBLIC_URL}/resetpass?token=${token}`;
  // Greet by name only an address proven to be the account's (else the name is a stranger's text).
  await mailer.send({ to: user.email, ...passwordResetMail(user.emailVerifiedAt ? user.name : null, url) });
}

/**
 * Runs a mail job without making the HTTP response wait for it, so the answer's timing does not
 * reveal whether an account exists. Failures are logged.
 */
export function inBackground(log: FastifyBaseLogger, what: string, job: () => Promise<void>): void {
  const run = job().catch((err) => log.error({ err }, `${what} failed`));
  pendingJobs.add(run);
  void run.finally(() => pendingJobs.delete(run));
}

const pendingJobs = new Set<Promise<void>>();

/** Waits for background mail jobs (graceful shutdown and tests). */
export async function settleBackgroundJobs(): Promise<void> {
  while (pendingJobs.size) await Promise.allSettled([...pendingJobs]);
}
