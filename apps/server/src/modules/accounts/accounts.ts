import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { authTokens, type UserRow, users } from "./tables.ts";
import { z } from "zod";
import { type JobRef, defineJob } from "../../platform/jobs/jobs.ts";
import { deliverOnce } from "../mail/deliver.ts";
import type { MailMessage, Mailer } from "../mail/mailer.ts";
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

/** What the account mail job sends. Only ids and addresses: tokens are issued when the mail is composed. */
export const accountMailPayload = z.discriminatedUnion("kind", [
  // Sign-up or email change: a verification link to `email` (the new address for a change).
  z.object({ kind: z.literal("verify_email"), userId: z.uuid(), email: z.string().max(254) }),
  // "Resend the link": only if an unverified password account has this address when the job runs.
  z.object({ kind: z.literal("resend_verification"), email: z.string().max(254) }),
  // "Forgot password": only if a not-suspended account has this address when the job runs.
  z.object({ kind: z.literal("password_reset"), email: z.string().max(254) }),
]);
export type AccountMail = z.infer<typeof accountMailPayload>;

/** Enqueue account mail with this (`ctx.jobs.enqueue(accountMail, {...}, { tx })`). */
export const accountMail: JobRef<AccountMail> = { name: "accounts.mail", payload: accountMailPayload };

/**
 * The job that sends every account mail (decision 060): enqueued in the transaction of the change
 * that causes it, retried with backoff, delivered once per job.
 */
export function accountMailJob(ctx: AppContext, mailer: Mailer) {
  return defineJob({
    name: accountMail.name,
    payload: accountMailPayload,
    retry: { limit: 6, delaySeconds: 15, backoff: true },
    expireInSeconds: 120,
    handler: async (mail, job) => {
      await deliverOnce({ database: ctx.database, mailer }, job.id, async (db) => {
        const at = { ...ctx, db };
        if (mail.kind === "verify_email") {
          const user = await findUserById(at, mail.userId);
          // The account is gone, or the address was changed again since: nothing to verify.
          if (!user || user.suspendedAt) return null;
          return verificationMessage(at, user, mail.email);
        }
        const user = await findUserByEmail(at, mail.email);
        if (mail.kind === "resend_verification") {
          if (!user || user.emailVerifiedAt || user.suspendedAt || !user.passwordHash) return null;
          return verificationMessage(at, user, user.email);
        }
        if (!user || user.suspendedAt) return null;
        const token = await issueToken(at, user.id, "password_reset", user.email);
        const url = `${ctx.config.PUBLIC_URL}/resetpass?token=${token}`;
        // Greet by name only an address proven to be the account's (else the name is a stranger's text).
        return { to: user.email, ...passwordResetMail(user.emailVerifiedAt ? user.name : null, url) };
      });
    },
  });
}

async function verificationMessage(ctx: AppContext, user: UserRow, email: string): Promise<MailMessage> {
  const token = await issueToken(ctx, user.id, "verify_email", email);
  const url = `${ctx.config.PUBLIC_URL}/verify-email?token=${token}`;
  // The name is whatever the account's creator typed, and this address has not been proven to be
  // theirs: anyone could send a Diginoor mail with their text in it to anyone. So no name here.
  return { to: email, ...verificationMail(null, url, email !== user.email) };
}

/** How long a request that caused a mail waits for its first delivery attempt before answering. */
export const MAIL_ATTEMPT_WAIT_MS = 10_000;
