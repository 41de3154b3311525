// The accounts service: every rule of sign-up, verification, sign-in, sessions, password reset,
// profile changes and administration. Routes parse and map; this decides; repo.ts queries.
// Every operation that writes more than once runs in one transaction (withTransaction), and the
// mail it causes is enqueued in that same transaction.
import { authMessages, emailSchema, nameSchema } from "@diginoor/api/auth";
import type { Config } from "../../config.ts";
import type { Database, Db } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import {
  clearSlidingLimit,
  hitSlidingLimit,
  pruneRateLimitBuckets,
  type RateLimiter,
} from "../../lib/rate-limit.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobRef, Jobs } from "../../platform/jobs/jobs.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import { pruneMailDeliveries } from "../mail/service.ts";
import type { MailMessage } from "../mail/service.ts";
import {
  emailChangedMail,
  passwordChangedMail,
  passwordResetMail,
  verificationMail,
} from "../mail/service.ts";
import { type Rendition, checkImage, renderImage } from "../media/service.ts";
import { type Storage, sha256Hex } from "../../lib/storage/storage.ts";
import type { GoogleIdentity } from "./google.ts";
import { limits } from "./limits.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import * as repo from "./repo.ts";
import type { UserRow } from "./tables.ts";
import * as directory from "./directory.ts";
import type { PublicAccount, StaffView } from "./directory.ts";
import { hashSecret, newSecret } from "./tokens.ts";
import { z } from "zod";

/** What the accounts service needs (a plain interface; bootstrap.ts builds it). */
export interface AccountsDeps {
  config: Config;
  database: Database;
  /** The shared rate-limit counters (subjects hashed under the server's key). */
  rateLimiter: RateLimiter;
  jobs: Jobs;
  clock: Clock;
  storage: Storage;
  pubsub: PubSub;
}

export const VERIFY_TOKEN_TTL_SECONDS = 24 * 3600;
export const RESET_TOKEN_TTL_SECONDS = 3600;
/** Absolute lifetime of a session. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;
/** A session unused for this long is over. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
/** last_seen_at is written at most this often, to keep session checks to one read. */
const TOUCH_EVERY_MS = 60_000;
/** How long a request that caused a mail waits for its first delivery attempt before answering. */
export const MAIL_ATTEMPT_WAIT_MS = 10_000;

export interface SessionUser extends UserRow {
  /** SHA-256 of the session id of this request. */
  sessionIdHash: string;
}

// ---- account mail (a durable job, decision 060)

/** What the account mail job sends. Only ids and addresses: tokens are issued when the mail is composed. */
export const accountMailPayload = z.discriminatedUnion("kind", [
  // Sign-up or email change: a verification link to `email` (the new address for a change).
  z.object({ kind: z.literal("verify_email"), userId: z.uuid(), email: z.string().max(254) }),
  // "Resend the link": only if an unverified password account has this address when the job runs.
  z.object({ kind: z.literal("resend_verification"), email: z.string().max(254) }),
  // "Forgot password": only if a not-suspended account has this address when the job runs.
  z.object({ kind: z.literal("password_reset"), email: z.string().max(254) }),
  // Notice to the previous address once an email change is verified.
  z.object({
    kind: z.literal("email_changed"),
    userId: z.uuid(),
    oldEmail: z.string().max(254),
    newEmail: z.string().max(254),
  }),
  // Notice to the account's address after its password was changed or reset.
  z.object({ kind: z.literal("password_changed"), userId: z.uuid() }),
]);
export type AccountMail = z.infer<typeof accountMailPayload>;

/** Enqueue account mail with this (`ctx.jobs.enqueue(accountMail, {...}, { tx })`). */
export const accountMail: JobRef<AccountMail> = { name: "accounts.mail", payload: accountMailPayload };

/** The message a queued account mail turns into when its job runs (null: nothing to send any more). */
async function composeAccountMail(ctx: AccountsDeps, db: Db, mail: AccountMail): Promise<MailMessage | null> {
  const publicUrl = ctx.config.PUBLIC_URL;
  switch (mail.kind) {
    case "verify_email": {
      const user = await repo.findUserById(db, mail.userId);
      // The account is gone, or the address was changed again since: nothing to verify.
      if (!user || user.suspendedAt) return null;
      return verificationMessage(ctx, db, user, mail.email);
    }
    case "resend_verification": {
      const user = await repo.findUserByEmail(db, mail.email);
      if (!user || user.emailVerifiedAt || user.suspendedAt || !user.passwordHash) return null;
      return verificationMessage(ctx, db, user, user.email);
    }
    case "password_reset": {
      const user = await repo.findUserByEmail(db, mail.email);
      if (!user || user.suspendedAt) return null;
      // Only the newest link works: the older ones die with the issue of this one (same transaction).
      await repo.revokeTokens(db, user.id, "password_reset");
      const token = await issueToken(db, user.id, "password_reset", user.email);
      const url = `${publicUrl}/resetpass?token=${token}`;
      // Greet by name only an address proven to be the account's (else the name is a stranger's text).
      return { to: user.email, ...passwordResetMail(user.emailVerifiedAt ? user.name : null, url) };
    }
    case "email_changed": {
      // The old address was the account's proven one (only verified accounts can sign in to change it).
      const user = await repo.findUserById(db, mail.userId);
      if (!user) return null;
      return { to: mail.oldEmail, ...emailChangedMail(user.name, mail.newEmail, `${publicUrl}/contact`) };
    }
    case "password_changed": {
      const user = await repo.findUserById(db, mail.userId);
      if (!user) return null;
      const name = user.emailVerifiedAt ? user.name : null;
      return { to: user.email, ...passwordChangedMail(name, `${publicUrl}/login`) };
    }
  }
}

async function verificationMessage(
  ctx: AccountsDeps,
  db: Db,
  user: UserRow,
  email: string,
): Promise<MailMessage> {
  const token = await issueToken(db, user.id, "verify_email", email);
  const url = `${ctx.config.PUBLIC_URL}/verify-email?token=${token}`;
  // The name is whatever the account's creator typed, and this address has not been proven to be
  // theirs: anyone could send a Diginoor mail with their text in it to anyone. So no name here.
  return { to: email, ...verificationMail(null, url, email !== user.email) };
}

/** Creates a single-use token and returns the secret (only its hash is stored). */
async function issueToken(db: Db, userId: string, kind: repo.TokenKind, email: string): Promise<string> {
  const secret = newSecret();
  const ttl = kind === "verify_email" ? VERIFY_TOKEN_TTL_SECONDS : RESET_TOKEN_TTL_SECONDS;
  await repo.insertToken(db, {
    tokenHash: hashSecret(secret),
    userId,
    kind,
    email,
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  return secret;
}

/** Waits for the first delivery attempt of a mail job: false when it failed (the queue retries it). */
async function firstAttemptDelivered(ctx: AccountsDeps, jobId: string | null): Promise<boolean> {
  return (await ctx.jobs.waitForAttempt(jobId, MAIL_ATTEMPT_WAIT_MS)) !== "failed";
}

// ---- sign-up, verification, sign-in

export interface SignUpResult {
  user: UserRow;
  jobId: string | null;
  /** False when the first attempt to send the verification mail failed (it will be retried). */
  verificationEmailSent: boolean;
}

async function signUp(
  ctx: AccountsDeps,
  input: { name: string; email: string; phone?: string | null; password: string },
): Promise<SignUpResult> {
  const passwordHash = await hashPassword(input.password);
  // The account and its verification mail job commit together: a crash cannot lose the mail.
  const { user, jobId } = await withTransaction(ctx.database, async (tx) => {
    const user = await repo.insertUser(tx.db, {
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      passwordHash,
    });
    if (!user) throw new AppError("email_taken", authMessages.emailTaken);
    const mail = { kind: "verify_email" as const, userId: user.id, email: user.email };
    return { user, jobId: await ctx.jobs.enqueue(accountMail, mail, { tx }) };
  });
  // The answer reports the first delivery attempt; a failed one is retried by the queue.
  return { user, jobId, verificationEmailSent: await firstAttemptDelivered(ctx, jobId) };
}

/** Uses a verification link: verifies the account's address, or moves it to the new one of an email change. */
async function verifyEmail(ctx: AccountsDeps, secret: string): Promise<UserRow> {
  return withTransaction(ctx.database, async (tx) => {
    const token = await repo.consumeToken(tx.db, hashSecret(secret), "verify_email");
    if (!token) throw new AppError("invalid_token", authMessages.invalidToken);
    const user = await repo.findUserById(tx.db, token.userId);
    if (!user) throw new AppError("invalid_token", authMessages.invalidToken);
    if (token.email === user.email) return (await repo.markEmailVerified(tx.db, user.id)) ?? user;
    // An email change: the address moves only now, when its owner has proved it. The token is
    // used, the address changed and the reset links revoked in one transaction.
    if (await repo.emailTakenByOther(tx.db, token.email, user.id)) {
      throw new AppError("email_taken", authMessages.emailTaken);
    }
    const updated = await repo.setVerifiedEmail(tx.db, user.id, token.email).catch((err: unknown) => {
      // Another account took the address between the check and the update.
      if (isUniqueViolation(err)) throw new AppError("email_taken", authMessages.emailTaken);
      throw err;
    });
    await repo.revokeTokens(tx.db, user.id, "password_reset");
    // The previous address learns of the change (if it was not its owner's doing, they can act).
    const notice = {
      kind: "email_changed" as const,
      userId: user.id,
      oldEmail: user.email,
      newEmail: token.email,
    };
    await ctx.jobs.enqueue(accountMail, notice, { tx });
    return updated ?? user;
  });
}

/** Queues a new verification link for `email` (sent only if it is an unverified password account). */
async function resendVerification(ctx: AccountsDeps, email: string): Promise<void> {
  // Always one job, whether or not the address has an account: the answer's timing tells nothing.
  await ctx.jobs.enqueue(accountMail, { kind: "resend_verification", email });
}

/** Checks email and password; the account's failure window is cleared on success. */
async function logIn(ctx: AccountsDeps, email: string, password: string): Promise<UserRow> {
  const db = ctx.database.db;
  await hitSlidingLimit(ctx.rateLimiter, limits.loginPerAccount, email);
  const user = await repo.findUserByEmail(db, email);
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!user || !ok) throw new AppError("invalid_credentials", authMessages.invalidCredentials);
  if (user.suspendedAt) throw new AppError("account_suspended", authMessages.accountSuspended);
  if (!user.emailVerifiedAt) throw new AppError("email_unverified", authMessages.emailUnverified);
  // A successful sign-in clears the account's failure window (the per-address one stays).
  await clearSlidingLimit(ctx.rateLimiter, limits.loginPerAccount, email);
  return user;
}

/** Queues a password reset link for `email` (sent only if a not-suspended account has it). */
async function requestPasswordReset(ctx: AccountsDeps, email: string): Promise<void> {
  // Always one job, whether or not the address has an account: the answer's timing tells nothing.
  await ctx.jobs.enqueue(accountMail, { kind: "password_reset", email });
}

/** Sets a new password with a reset link; every session of the user ends. Returns the user's id. */
async function resetPassword(ctx: AccountsDeps, secret: string, password: string): Promise<string> {
  const passwordHash = await hashPassword(password);
  // Using the link, setting the password, revoking the other links and ending the sessions
  // happen together or not at all.
  return withTransaction(ctx.database, async (tx) => {
    const token = await repo.consumeToken(tx.db, hashSecret(secret), "password_reset");
    if (!token) throw new AppError("invalid_token", authMessages.invalidToken);
    // The reset link reached this address, which proves it belongs to the user.
    const changed = await repo.setPasswordForEmail(tx.db, token.userId, token.email, passwordHash);
    await repo.revokeTokens(tx.db, token.userId, "password_reset");
    // Pending email-change links (maybe asked for by someone who knew the old password) die too.
    await repo.revokeTokens(tx.db, token.userId, "verify_email");
    await endUserSessions(ctx, tx, token.userId);
    if (changed)
      await ctx.jobs.enqueue(accountMail, { kind: "password_changed", userId: token.userId }, { tx });
    return token.userId;
  });
}

// ---- sessions

/**
 * Where this module announces that sessions of a user ended (sign-out, suspension, password change,
 * a new sign-in replacing or capping them), to every server process: whoever holds something bound
 * to a session (an event stream) asks `liveSessionHashes` which of its sessions are still live.
 */
export const SESSIONS_ENDED_CHANNEL = "accounts.sessions-ended";
export const sessionsEndedSchema = z.object({ userId: z.string() });

/** Announces that sessions of `userId` ended; with `tx`, only if and when it commits. */
async function announceSessionsEnded(ctx: Pick<AccountsDeps, "pubsub">, userId: string, tx?: Tx) {
  await ctx.pubsub.publish(SESSIONS_ENDED_CHANNEL, { userId } satisfies z.input<typeof sessionsEndedSchema>, {
    tx,
  });
}

/** Ends every session of the user, announced at commit. */
async function endUserSessions(ctx: Pick<AccountsDeps, "pubsub">, tx: Tx, userId: string) {
  await repo.deleteUserSessions(tx.db, userId);
  await announceSessionsEnded(ctx, userId, tx);
}

/** Which of these session hashes (`SessionUser.sessionIdHash`) belong to live sessions. */
async function liveSessionHashes(
  ctx: Pick<AccountsDeps, "database">,
  idHashes: string[],
): Promise<Set<string>> {
  return new Set(await repo.liveSessionHashes(ctx.database.db, idHashes, SESSION_IDLE_SECONDS));
}

/**
 * Starts a new session for `userId` and returns its secret (the cookie value). Session ids are
 * rotated at every sign-in: the browser's previous session (`previousSecret`) ends.
 */
async function startSession(
  ctx: AccountsDeps,
  userId: string,
  client: { previousSecret?: string; userAgent?: string; ip: string | null },
): Promise<string> {
  const secret = newSecret();
  await withTransaction(ctx.database, async (tx) => {
    const previous = client.previousSecret
      ? await repo.deleteSession(tx.db, hashSecret(client.previousSecret))
      : undefined;
    if (previous) await announceSessionsEnded(ctx, previous, tx);
    await repo.insertSession(tx.db, {
      idHash: hashSecret(secret),
      userId,
      expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      userAgent: (client.userAgent ?? "").slice(0, 300) || null,
      ip: client.ip,
    });
    const capped = await repo.capSessions(tx.db, userId, ctx.config.MAX_SESSIONS_PER_USER);
    if (capped > 0 && previous !== userId) await announceSessionsEnded(ctx, userId, tx);
  });
  return secret;
}

/** Ends one session (sign-out); the user's streams of it end too. */
async function endSession(ctx: AccountsDeps, secret: string): Promise<void> {
  const userId = await repo.deleteSession(ctx.database.db, hashSecret(secret));
  if (userId) await announceSessionsEnded(ctx, userId);
}

/** The user of a session secret, or null (forged, expired or idle session; suspended user). */
async function sessionUser(ctx: AccountsDeps, secret: string): Promise<SessionUser | null> {
  // A well-formed id is 43 base64url characters; anything else is not worth a query.
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  const db = ctx.database.db;
  const idHash = hashSecret(secret);
  const row = await repo.findLiveSession(db, idHash, SESSION_IDLE_SECONDS);
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touchSession(db, idHash);
  return { ...row.user, sessionIdHash: idHash };
}

// ---- Google sign-in

/**
 * The account a Google identity signs into: the one already linked to its subject; else the
 * account with the same email when Google says the email is verified (linked now); else a new
 * account. An unverified Google email is never linked to or used for an account.
 */
async function accountForGoogle(
  ctx: AccountsDeps,
  id: GoogleIdentity,
): Promise<UserRow | "unverified" | "linked_elsewhere"> {
  const db = ctx.database.db;
  const linked = await repo.findUserByGoogleSub(db, id.sub);
  if (linked) return linked;
  if (!id.email || !id.emailVerified) return "unverified";
  const existing = await repo.findUserByEmail(db, id.email);
  // An account already linked to another Google identity is not handed to whoever holds its
  // address now (a recycled or reassigned address): the subject is the identity, not the email.
  if (existing?.googleSub && existing.googleSub !== id.sub) return "linked_elsewhere";
  if (existing) {
    // Google has proved the address. If the local account never verified it, whoever created it
    // could not prove ownership: its password is dropped and its sessions end, so only the
    // address owner gets in.
    const unverifiedLocal = !existing.emailVerifiedAt;
    const updated = await withTransaction(ctx.database, async (tx) => {
      const updated = await repo.linkGoogle(tx.db, existing.id, id.sub, unverifiedLocal);
      if (updated && unverifiedLocal) await endUserSessions(ctx, tx, existing.id);
      return updated;
    });
    return updated ?? accountForGoogle(ctx, id); // linked concurrently: decide again
  }
  // The provider's name gets the same rules as a typed one (no control characters or < >, ≤ 100).
  const name =
    [id.name, id.email.split("@")[0]]
      .map((n) => nameSchema.safeParse(n?.trim().slice(0, 100)))
      .find((r) => r.success)?.data ?? "Diginoor fan";
  const created = await repo.insertUser(db, {
    name,
    email: id.email,
    googleSub: id.sub,
    emailVerifiedAt: new Date(),
  });
  // Lost a race with a concurrent sign-up of the same address: link to that account instead.
  return created ?? accountForGoogle(ctx, id);
}

// ---- the signed-in user's profile

async function updateProfile(
  ctx: AccountsDeps,
  user: UserRow,
  changes: { name?: string; phone?: string | null },
): Promise<UserRow> {
  const set: repo.UserChanges = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (Object.keys(set).length === 0) return user;
  return (await repo.updateUser(ctx.database.db, user.id, set)) ?? user;
}

async function checkCurrentPassword(ctx: AccountsDeps, user: UserRow, password: string): Promise<void> {
  await hitSlidingLimit(ctx.rateLimiter, limits.passwordCheckPerUser, user.id);
  if (!user.passwordHash) {
    throw new AppError(
      "no_password",
      "Your account signs in with Google. Set a password first with 'Forgot password?'.",
    );
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError("validation_failed", authMessages.wrongCurrentPassword, [
      { field: "currentPassword", message: authMessages.wrongCurrentPassword },
    ]);
  }
}

/**
 * Checks the account's password before an irreversible act (deleting the account): counted per user
 * like every password check; a wrong one is `invalid_credentials`. False for a Google-only account.
 */
async function confirmPassword(ctx: AccountsDeps, user: UserRow, password: string): Promise<boolean> {
  if (!user.passwordHash) return false;
  await hitSlidingLimit(ctx.rateLimiter, limits.passwordCheckPerUser, user.id);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError("invalid_credentials", authMessages.wrongCurrentPassword);
  }
  return true;
}

/**
 * Asks to move the account to a new address: a verification link goes to it (the address moves
 * when it is used). Returns the mail job and whether its first delivery attempt succeeded.
 */
async function requestEmailChange(
  ctx: AccountsDeps,
  user: UserRow,
  input: { email: string; currentPassword: string },
): Promise<{ jobId: string | null; delivered: boolean }> {
  const db = ctx.database.db;
  await checkCurrentPassword(ctx, user, input.currentPassword);
  if (input.email === user.email) {
    throw new AppError("validation_failed", "This is already your email address", [
      { field: "email", message: "This is already your email address" },
    ]);
  }
  await hitSlidingLimit(ctx.rateLimiter, limits.emailChangePerUser, user.id);
  if (await repo.emailTakenByOther(db, input.email, user.id)) {
    throw new AppError("email_taken", authMessages.emailTaken);
  }
  // Only the newest link works: older links die in the transaction that queues the new one.
  const jobId = await withTransaction(ctx.database, async (tx) => {
    await repo.revokeTokens(tx.db, user.id, "verify_email");
    const mail = { kind: "verify_email" as const, userId: user.id, email: input.email };
    return ctx.jobs.enqueue(accountMail, mail, { tx });
  });
  return { jobId, delivered: await firstAttemptDelivered(ctx, jobId) };
}

/** Changes the password (the current one is required); every session of the user ends. */
async function changePassword(
  ctx: AccountsDeps,
  user: UserRow,
  input: { currentPassword: string; password: string },
): Promise<void> {
  await checkCurrentPassword(ctx, user, input.currentPassword);
  const passwordHash = await hashPassword(input.password);
  // The new password, the revoked links and the ended sessions commit together.
  await withTransaction(ctx.database, async (tx) => {
    await repo.updateUser(tx.db, user.id, { passwordHash });
    await repo.revokeTokens(tx.db, user.id, "password_reset");
    // A pending email change asked for by whoever had the old password must not survive it.
    await repo.revokeTokens(tx.db, user.id, "verify_email");
    await endUserSessions(ctx, tx, user.id);
    await ctx.jobs.enqueue(accountMail, { kind: "password_changed", userId: user.id }, { tx });
  });
}

/**
 * Replaces the avatar or cover with an uploaded image: checked, rendered into `renditions`, stored
 * under the account's prefix and the content hash of the upload (nobody can write another user's
 * files, and a name never changes content); the previous
 * files are deleted once the account points at the new ones.
 */
async function setProfileImage(
  ctx: AccountsDeps,
  user: UserRow,
  kind: repo.ImageKind,
  data: Buffer,
  renditions: Rendition[],
): Promise<UserRow> {
  const db = ctx.database.db;
  await checkImage(data);
  const rendered = await renderImage(data, renditions);
  // Named by the hash of the uploaded bytes: the renditions under a name never change, so every
  // server serves them as immutable; only this account's prefix can be written by this account.
  const base = `${kind}s/${user.id}/${sha256Hex(data).slice(0, 32)}`;
  for (const r of rendered) await ctx.storage.put(`${base}${r.suffix}.webp`, r.data, "image/webp");
  const previous = await repo.imageKey(db, user.id, kind);
  const updated = await repo.setImage(db, user.id, kind, base, ctx.storage.url(`${base}.webp`));
  if (previous && previous !== base) {
    for (const r of renditions) await ctx.storage.delete(`${previous}${r.suffix}.webp`).catch(() => {});
  }
  return updated ?? user;
}

// ---- administration (npm run admin:create)

export interface PromoteResult {
  userId: string;
  created: boolean;
  /** For a new (or never-verified) account: a one-hour link to choose its password. */
  setPasswordUrl?: string;
}

/**
 * Makes `email` an administrator. An existing account is promoted; otherwise an account is
 * created (email counted as verified, no password yet) and a password-setting link is returned.
 */
async function promoteToAdmin(ctx: AccountsDeps, rawEmail: string): Promise<PromoteResult> {
  const email = emailSchema.parse(rawEmail);
  const setPasswordUrl = (token: string) => `${ctx.config.PUBLIC_URL}/resetpass?token=${token}`;
  return withTransaction(ctx.database, async (tx) => {
    const existing = await repo.findUserByEmail(tx.db, email);
    if (existing?.emailVerifiedAt) {
      await repo.updateUser(tx.db, existing.id, { role: "admin", productionHouseId: null });
      return { userId: existing.id, created: false };
    }
    if (existing) {
      // Never verified: whoever signed up may not own the address (a squatter's password would
      // become an admin's). Treat it like a new account: password dropped, links revoked,
      // sessions ended, a set-password link.
      await repo.updateUser(tx.db, existing.id, {
        role: "admin",
        productionHouseId: null,
        passwordHash: null,
        emailVerifiedAt: new Date(),
      });
      await repo.revokeTokens(tx.db, existing.id, "verify_email");
      await repo.revokeTokens(tx.db, existing.id, "password_reset");
      await endUserSessions(ctx, tx, existing.id);
      const token = await issueToken(tx.db, existing.id, "password_reset", existing.email);
      return { userId: existing.id, created: false, setPasswordUrl: setPasswordUrl(token) };
    }
    const name = (email.split("@")[0] ?? "Admin").slice(0, 100) || "Admin";
    const created = await repo.insertUser(tx.db, { name, email, role: "admin", emailVerifiedAt: new Date() });
    if (!created) throw new Error("Could not create the admin account");
    const token = await issueToken(tx.db, created.id, "password_reset", email);
    return { userId: created.id, created: true, setPasswordUrl: setPasswordUrl(token) };
  });
}

/** Suspends (blocks sign-in and ends every session) or reinstates an account; returns its id. */
async function setSuspended(ctx: AccountsDeps, rawEmail: string, suspended: boolean): Promise<string> {
  const email = emailSchema.parse(rawEmail);
  return withTransaction(ctx.database, async (tx) => {
    const user = await repo.findUserByEmail(tx.db, email);
    if (!user) throw new Error(`No account with email ${email}`);
    await repo.setSuspendedAt(tx.db, user.id, suspended);
    if (suspended) await endUserSessions(ctx, tx, user.id);
    return user.id;
  });
}

/**
 * Suspends or reinstates an account by id, in `tx` (suspension ends every session, announced at
 * commit); returns before and after.
 */
async function setAccountSuspended(
  ctx: Pick<AccountsDeps, "pubsub">,
  tx: Tx,
  id: string,
  suspended: boolean,
): Promise<{ before: UserRow; after: UserRow }> {
  const before = await directory.getAccount(tx.db, id);
  await repo.setSuspendedAt(tx.db, id, suspended);
  if (suspended) await endUserSessions(ctx, tx, id);
  return { before, after: await directory.getAccount(tx.db, id) };
}

// ---- clean-up (the hourly accounts.prune job)

export interface PruneOptions {
  /** "Now", from the clock (tests move it instead of sleeping). */
  now: Date;
  /** Announces the users whose sessions ended (their event streams end too); none when absent. */
  pubsub?: AccountsDeps["pubsub"];
  maxSessionsPerUser: number;
  unverifiedAccountDays: number;
}

export interface PruneCounts {
  sessions: number;
  tokens: number;
  rateLimitBuckets: number;
  unverifiedAccounts: number;
  mailDeliveries: number;
}

/**
 * Sessions past their expiry or idle timeout, or beyond the per-user cap; email tokens used or
 * expired over a day ago; rate-limit buckets whose window ended over a day ago; accounts whose
 * email was never verified (password accounts, not Google's) older than `unverifiedAccountDays`;
 * mail delivery records older than a week (jobs are archived long before). Idempotent: any
 * process may run it any time.
 */
export async function pruneAuthData(db: Db, o: PruneOptions): Promise<PruneCounts> {
  const now = o.now.toISOString();
  return {
    sessions: await pruneSessions(db, o),
    tokens: await repo.pruneTokens(db, now),
    rateLimitBuckets: await pruneRateLimitBuckets(db, o.now),
    unverifiedAccounts: await repo.pruneUnverifiedUsers(db, now, o.unverifiedAccountDays),
    mailDeliveries: await pruneMailDeliveries(db, o.now),
  };
}

async function pruneSessions(db: Db, o: PruneOptions): Promise<number> {
  const ended = await repo.pruneSessions(db, o.now.toISOString(), SESSION_IDLE_SECONDS, o.maxSessionsPerUser);
  const pubsub = o.pubsub;
  if (pubsub) for (const userId of ended.userIds) await announceSessionsEnded({ pubsub }, userId);
  return ended.count;
}

/** PostgreSQL unique_violation (23505), directly or wrapped by drizzle. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { hashSecret, newSecret } from "./tokens.ts";
export {
  accountForRights,
  ERASED_NAME,
  eraseAccount,
  exportAccount,
  releaseHandles,
} from "./personal-data.ts";
export { type PublicAccount, type StaffView, staffView } from "./directory.ts";

// ---- the service object (bootstrap.ts builds it once; other modules get the part they use)

type MailContact = { email: string; name: string | null; verified: boolean };

/**
 * The accounts module's operations over its deps. Another module declares the part it uses in its
 * own deps (e.g. `Pick<AccountsService, "mailContact">`); `db` parameters are the caller's
 * transaction (the read or write joins it), defaulting to the database.
 */
export interface AccountsService {
  // sign-up, verification, sign-in, password reset
  signUp(input: {
    name: string;
    email: string;
    phone?: string | null;
    password: string;
  }): Promise<SignUpResult>;
  verifyEmail(secret: string): Promise<UserRow>;
  resendVerification(email: string): Promise<void>;
  logIn(email: string, password: string): Promise<UserRow>;
  requestPasswordReset(email: string): Promise<void>;
  resetPassword(secret: string, password: string): Promise<string>;
  accountForGoogle(id: GoogleIdentity): Promise<UserRow | "unverified" | "linked_elsewhere">;
  // sessions
  startSession(
    userId: string,
    client: { previousSecret?: string; userAgent?: string; ip: string | null },
  ): Promise<string>;
  endSession(secret: string): Promise<void>;
  sessionUser(secret: string): Promise<SessionUser | null>;
  liveSessionHashes(idHashes: string[]): Promise<Set<string>>;
  // the signed-in user's profile
  updateProfile(user: UserRow, changes: { name?: string; phone?: string | null }): Promise<UserRow>;
  confirmPassword(user: UserRow, password: string): Promise<boolean>;
  requestEmailChange(
    user: UserRow,
    input: { email: string; currentPassword: string },
  ): Promise<{ jobId: string | null; delivered: boolean }>;
  changePassword(user: UserRow, input: { currentPassword: string; password: string }): Promise<void>;
  setProfileImage(
    user: UserRow,
    kind: repo.ImageKind,
    data: Buffer,
    renditions: Rendition[],
  ): Promise<UserRow>;
  // background work (jobs.ts) and administration (npm run admin:create)
  composeMail(db: Db, mail: AccountMail): Promise<MailMessage | null>;
  prune(): Promise<PruneCounts>;
  promoteToAdmin(email: string): Promise<PromoteResult>;
  setSuspended(email: string, suspended: boolean): Promise<string>;
  // what other modules read: mail and checkout contacts, public profiles, studio accounts
  mailContact(userId: string, db?: Db): Promise<MailContact | undefined>;
  checkoutContact(userId: string): Promise<{ email: string; phone: string | null } | undefined>;
  publicAccountByHandle(handle: string): Promise<PublicAccount | undefined>;
  publicAccountsByIds(ids: string[]): Promise<Map<string, PublicAccount>>;
  studioAccountIds(houseId: number, db?: Db): Promise<string[]>;
  // the studio console (modules/admin; decision 132)
  listAccounts(o: { q?: string; cursor?: string; limit: number }): Promise<{
    items: StaffView[];
    nextCursor: string | null;
  }>;
  getAccount(id: string, db?: Db): Promise<UserRow>;
  setAccountSuspended(tx: Tx, id: string, suspended: boolean): Promise<{ before: UserRow; after: UserRow }>;
  setAccountRole(
    tx: Tx,
    id: string,
    role: UserRow["role"],
    productionHouseId: number | null,
  ): Promise<{ before: UserRow; after: UserRow }>;
}

export function createAccountsService(deps: AccountsDeps): AccountsService {
  const { database, config } = deps;
  return {
    signUp: (input) => signUp(deps, input),
    verifyEmail: (secret) => verifyEmail(deps, secret),
    resendVerification: (email) => resendVerification(deps, email),
    logIn: (email, password) => logIn(deps, email, password),
    requestPasswordReset: (email) => requestPasswordReset(deps, email),
    resetPassword: (secret, password) => resetPassword(deps, secret, password),
    accountForGoogle: (id) => accountForGoogle(deps, id),
    startSession: (userId, client) => startSession(deps, userId, client),
    endSession: (secret) => endSession(deps, secret),
    sessionUser: (secret) => sessionUser(deps, secret),
    liveSessionHashes: (idHashes) => liveSessionHashes(deps, idHashes),
    updateProfile: (user, changes) => updateProfile(deps, user, changes),
    confirmPassword: (user, password) => confirmPassword(deps, user, password),
    requestEmailChange: (user, input) => requestEmailChange(deps, user, input),
    changePassword: (user, input) => changePassword(deps, user, input),
    setProfileImage: (user, kind, data, renditions) => setProfileImage(deps, user, kind, data, renditions),
    composeMail: (db, mail) => composeAccountMail(deps, db, mail),
    prune: () =>
      pruneAuthData(database.db, {
        now: deps.clock.date(),
        pubsub: deps.pubsub,
        maxSessionsPerUser: config.MAX_SESSIONS_PER_USER,
        unverifiedAccountDays: config.UNVERIFIED_ACCOUNT_DAYS,
      }),
    promoteToAdmin: (email) => promoteToAdmin(deps, email),
    setSuspended: (email, suspended) => setSuspended(deps, email, suspended),
    mailContact: (userId, db = database.db) => directory.mailContact(db, userId),
    checkoutContact: (userId) => directory.checkoutContact(database.db, userId),
    publicAccountByHandle: (handle) => directory.publicAccountByHandle(database, handle),
    publicAccountsByIds: (ids) => directory.publicAccountsByIds(database, ids),
    studioAccountIds: (houseId, db = database.db) => directory.studioAccountIds(db, houseId),
    listAccounts: (o) => directory.listAccounts(database.db, o),
    getAccount: (id, db = database.db) => directory.getAccount(db, id),
    setAccountSuspended: (tx, id, suspended) => setAccountSuspended(deps, tx, id, suspended),
    setAccountRole: (tx, id, role, house) => directory.setAccountRole(tx.db, id, role, house),
  };
}
