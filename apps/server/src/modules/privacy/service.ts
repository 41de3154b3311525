// Data rights (issue 25 point 2, the DPDP Act 2023; decision 170): the archive of everything we hold
// about a person, and the erasure of their account. Each module contributes its own part through its
// service (this module never names another module's tables); this one puts the parts together, keeps
// the one-time links (data_requests) and mails them.
import { DELETE_LINK_HOURS, EXPORT_LINK_HOURS, privacyMessages } from "@diginoor/api/privacy";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Database, Db } from "../../db/client.ts";
import type { Query } from "../../db/query.ts";
import { AppError } from "../../http/errors.ts";
import type { PersonalDataContributor, PersonalPart, PersonalSubject } from "../../lib/personal-data.ts";
import { needlesOf } from "../../lib/personal-data.ts";
import { type RateLimiter, rowsOf } from "../../lib/rate-limit.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import type { Clock } from "../../platform/clock.ts";
import { forgetJobsMentioning, type JobRef, type Jobs } from "../../platform/jobs/jobs.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { withTransaction } from "../../platform/tx.ts";
import * as accounts from "../accounts/service.ts";
import type { AccountsService } from "../accounts/service.ts";
import * as admin from "../admin/service.ts";
import * as contact from "../contact/service.ts";
import * as events from "../events/service.ts";
import * as indexer from "../indexer/service.ts";
import * as kyc from "../kyc/service.ts";
import * as lottery from "../lottery/service.ts";
import * as mail from "../mail/service.ts";
import type { MailMessage } from "../mail/service.ts";
import * as newsletter from "../newsletter/service.ts";
import * as notifications from "../notifications/service.ts";
import * as orders from "../orders/service.ts";
import * as social from "../social/service.ts";
import * as tax from "../tax/service.ts";
import * as wallets from "../wallets/service.ts";
import { AVATAR_RENDITIONS, COVER_RENDITIONS } from "../media/service.ts";

/** An erased account's handle is held back from new accounts this long (decision 170). */
export const HANDLE_GRACE_DAYS = 90;
export const ARCHIVE_FORMAT = "diginoor-personal-data/1" as const;

export interface PrivacyDeps {
  config: Config;
  database: Database;
  jobs: Jobs;
  clock: Clock;
  storage: Storage;
  pubsub: PubSub;
  /** Where the links are mailed, and the password check before a deletion. */
  accounts: Pick<AccountsService, "mailContact" | "confirmPassword">;
  /** How the erased account's rate-limit counters are named (their keys are hashed). */
  rateLimiter: Pick<RateLimiter, "subjectKey">;
}

/**
 * Every module's part, in the archive's order. Erasure runs the `erase` of each in one transaction,
 * the account's own last (the others still find the person by id, address and email until then).
 */
export const contributors: PersonalDataContributor[] = [
  { module: "account", export: accounts.exportAccount },
  { module: "wallets", export: wallets.exportWallets, erase: wallets.eraseWallets },
  { module: "orders", export: orders.exportOrders },
  { module: "tax", export: tax.exportTax },
  { module: "lottery", export: lottery.exportLottery },
  // Kept on erasure (record keeping of verifications; decision 175): references and results, no document.
  { module: "kyc", export: kyc.exportKyc },
  { module: "chain", export: indexer.exportChainActivity },
  { module: "social", export: social.exportSocial, erase: social.eraseSocial },
  {
    module: "notifications",
    export: notifications.exportNotifications,
    erase: notifications.eraseNotifications,
  },
  { module: "liveEvents", erase: events.eraseLiveEvents },
  { module: "mail", export: mail.exportMailLog, erase: mail.eraseMailLog },
  { module: "newsletter", export: newsletter.exportNewsletter, erase: newsletter.eraseNewsletter },
  { module: "contact", export: contact.exportContactMessages, erase: contact.eraseContactMessages },
  { module: "audit", export: admin.exportAuditEntries, erase: admin.pseudonymiseAuditEntries },
];

/** The live person behind an account id, with their linked wallets; undefined for an erased or unknown one. */
async function subjectOf(q: Query, userId: string) {
  const account = await accounts.accountForRights(q, userId);
  if (!account) return undefined;
  const subject: PersonalSubject = {
    ...account.subject,
    addresses: await wallets.linkedAddresses(q, userId),
  };
  return { ...account, subject };
}

/** The archive of everything held about `userId` (undefined for an erased or unknown account). */
export async function buildArchive(q: Query, userId: string, now: Date) {
  const found = await subjectOf(q, userId);
  if (!found) return undefined;
  const parts: Record<string, PersonalPart> = {};
  for (const c of contributors) if (c.export) parts[c.module] = await c.export(q, found.subject);
  // Through JSON once: dates become ISO strings, exactly what the download will answer.
  return JSON.parse(
    JSON.stringify({ format: ARCHIVE_FORMAT, generatedAt: now.toISOString(), userId, parts }),
  ) as { format: typeof ARCHIVE_FORMAT; generatedAt: string; userId: string; parts: Record<string, unknown> };
}

// ---- jobs' payloads (the handlers are in jobs.ts): ids only, never an address or a name

const exportPayload = z.object({ userId: z.uuid() });
export const privacyExport: JobRef<z.infer<typeof exportPayload>> = {
  name: "privacy.export",
  payload: exportPayload,
};
const confirmPayload = z.object({ userId: z.uuid() });
export const privacyConfirmDeletion: JobRef<z.infer<typeof confirmPayload>> = {
  name: "privacy.confirm-deletion",
  payload: confirmPayload,
};
export const privacyPrune: JobRef<Record<string, never>> = { name: "privacy.prune", payload: z.object({}) };

/** Stores a one-time link (its hash) and answers its secret, through the mail transaction's handle. */
async function issueLink(
  db: Db,
  o: { userId: string; kind: "export" | "delete"; hours: number; now: Date; archive?: unknown },
): Promise<string> {
  const secret = accounts.newSecret();
  const expires = new Date(o.now.getTime() + o.hours * 3_600_000);
  await db.execute(sql`INSERT INTO data_requests (token_hash, user_id, kind, archive, created_at, expires_at)
    VALUES (${accounts.hashSecret(secret)}, ${o.userId}, ${o.kind}, ${o.archive === undefined ? null : JSON.stringify(o.archive)}::jsonb,
            ${o.now.toISOString()}, ${expires.toISOString()})`);
  return secret;
}

export function createPrivacyService(deps: PrivacyDeps) {
  const { database, clock } = deps;
  const q: Query = (text, params) => database.query(text, params);
  const publicUrl = deps.config.PUBLIC_URL;

  /** Erases the account `userId` (decision 170); false when it was erased already. */
  async function erase(userId: string): Promise<boolean> {
    const now = clock.date();
    const done = await withTransaction(database, async (tx) => {
      const tq: Query = (text, params) => tx.query(text, params);
      const found = await subjectOf(tq, userId);
      if (!found) return undefined;
      for (const c of contributors) await c.erase?.(tq, found.subject);
      await tq("DELETE FROM data_requests WHERE user_id = $1", [userId]);
      await accounts.eraseAccount(tq, found.subject, {
        now,
        graceDays: HANDLE_GRACE_DAYS,
        rateLimiter: deps.rateLimiter,
      });
      await forgetJobsMentioning(tq, needlesOf(found.subject));
      await deps.pubsub.publish(accounts.SESSIONS_ENDED_CHANNEL, { userId }, { tx });
      return found;
    });
    if (!done) return false;
    // The pictures' files, once nothing points at them (a failure leaves an unreachable file only).
    for (const key of done.images) {
      for (const r of [...AVATAR_RENDITIONS, ...COVER_RENDITIONS]) {
        await deps.storage.delete(`${key}${r.suffix}.webp`).catch(() => {});
      }
    }
    return true;
  }

  return {
    erase,

    /** Queues the archive of the signed-in user; its link is mailed when it is built. */
    async requestExport(userId: string): Promise<void> {
      await deps.jobs.enqueue(privacyExport, { userId }, { singletonKey: userId });
    },

    /** The mail of a built archive, or null for an erased account (run by the export job). */
    async composeExport(db: Db, userId: string, archive: unknown): Promise<MailMessage | null> {
      const contact = await deps.accounts.mailContact(userId, db);
      if (!contact || !archive) return null;
      const secret = await issueLink(db, {
        userId,
        kind: "export",
        hours: EXPORT_LINK_HOURS,
        now: clock.date(),
        archive,
      });
      const url = `${publicUrl}/api/v1/me/export/${secret}`;
      return { to: contact.email, ...mail.dataExportMail(contact.name, url, EXPORT_LINK_HOURS) };
    },

    /** Answers the archive once for a live link; the archive is dropped as it is answered. */
    async download(secret: string): Promise<unknown> {
      const [row] = await q<{ archive: unknown }>(
        `WITH r AS (SELECT token_hash, archive FROM data_requests
                     WHERE token_hash = $1 AND kind = 'export' AND used_at IS NULL AND expires_at > $2
                     FOR UPDATE)
         UPDATE data_requests d SET used_at = $2, archive = NULL FROM r
          WHERE d.token_hash = r.token_hash RETURNING r.archive`,
        [accounts.hashSecret(secret), clock.date().toISOString()],
      );
      if (!row?.archive) throw new AppError("gone", privacyMessages.exportGone);
      return typeof row.archive === "string" ? JSON.parse(row.archive) : row.archive;
    },

    /**
     * Deletes the signed-in account: at once with its password; a Google-only account (no password)
     * is mailed a confirmation link instead (answer `deleted: false`).
     */
    async deleteAccount(user: accounts.SessionUser, password: string | undefined) {
      if (user.passwordHash) {
        if (!password) {
          throw new AppError("validation_failed", privacyMessages.passwordRequired, [
            { field: "password", message: privacyMessages.passwordRequired },
          ]);
        }
        await deps.accounts.confirmPassword(user, password);
        await erase(user.id);
        return { deleted: true, message: privacyMessages.deleted };
      }
      const jobId = await deps.jobs.enqueue(privacyConfirmDeletion, { userId: user.id });
      if ((await deps.jobs.waitForAttempt(jobId, accounts.MAIL_ATTEMPT_WAIT_MS)) === "failed") {
        throw new AppError("mail_failed", "We could not send the confirmation email. Please try again.");
      }
      return { deleted: false, message: privacyMessages.deleteConfirmMailed };
    },

    /** The confirmation mail of a Google-only account's deletion (run by its job). */
    async composeConfirmDeletion(db: Db, userId: string): Promise<MailMessage | null> {
      const contact = await deps.accounts.mailContact(userId, db);
      if (!contact) return null;
      const secret = await issueLink(db, {
        userId,
        kind: "delete",
        hours: DELETE_LINK_HOURS,
        now: clock.date(),
      });
      const url = `${publicUrl}/delete-account?token=${secret}`;
      return { to: contact.email, ...mail.confirmDeletionMail(contact.name, url, DELETE_LINK_HOURS) };
    },

    /** Uses a mailed deletion link. */
    async confirmDelete(secret: string) {
      const rows = rowsOf<{ user_id: string }>(
        await database.db.execute(sql`UPDATE data_requests SET used_at = ${clock.date().toISOString()}
          WHERE token_hash = ${accounts.hashSecret(secret)} AND kind = 'delete' AND used_at IS NULL
            AND expires_at > ${clock.date().toISOString()} RETURNING user_id::text AS user_id`),
      );
      const userId = rows[0]?.user_id;
      if (!userId || !(await erase(userId)))
        throw new AppError("invalid_token", "This link has been used or has expired");
      return { deleted: true, message: privacyMessages.deleted };
    },

    /** The newsletter consent of the account's address (a recorded mail consent). */
    newsletterConsent(user: { email: string }) {
      return newsletter.newsletterConsent(q, user.email);
    },

    /** Gives or withdraws the newsletter consent of the account's address. */
    setNewsletterConsent(user: { email: string }, subscribed: boolean) {
      return newsletter.setNewsletterConsent(q, user.email, subscribed);
    },

    /** Drops expired links (and their archives) and releases handles past their grace period. */
    async prune(): Promise<{ links: number; handles: number }> {
      const now = clock.date().toISOString();
      const links = await q(
        "DELETE FROM data_requests WHERE expires_at <= $1 OR used_at IS NOT NULL RETURNING 1",
        [now],
      );
      return { links: links.length, handles: await accounts.releaseHandles(q, clock.date()) };
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
