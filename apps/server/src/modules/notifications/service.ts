import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  type EmailNotificationKind,
  emailKindLabels,
  emailNotificationKinds,
  type Notification,
  type NotificationKind,
  type NotificationList,
  type NotificationPreferences,
  type UnsubscribeState,
} from "@diginoor/api/notifications";
import { formatNative } from "@diginoor/api/money";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { JobRef, Jobs } from "../../platform/jobs/jobs.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { localSecret } from "../../lib/local-secret.ts";
import { withTransaction } from "../../platform/tx.ts";
import { publishToUser } from "../events/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import type { AccountsService } from "../accounts/service.ts";
import type { Mailer } from "../mail/service.ts";
import * as repo from "./repo.ts";

/**
 * What a job needs to tell a user of something once (the orders', refunds' and lottery's messages):
 * the bell, the user's mail contact, and the mailer with its database for deliverOnce.
 */
export interface UserMessageDeps {
  database: Database;
  mailer: Mailer;
  publicUrl: string;
  notifications?: Pick<NotificationsService, "notify">;
  accounts: Pick<AccountsService, "mailContact">;
}

export interface NotificationsDeps {
  database: Database;
  clock: Clock;
  pubsub: PubSub;
  tokens: Pick<TokenReads, "chainNotifications">;
  wallets: Pick<WalletsService, "ownerOf">;
  /** The chain whose indexer notifications are delivered; none without a chain. */
  chainId?: number;
  symbol: string;
  /** Enqueues the email of the important kinds, in the notification's transaction (none: no email). */
  jobs?: Pick<Jobs, "enqueue">;
  /** Absolute links in mail start with this (config PUBLIC_URL). */
  publicUrl?: string;
  /** Key of the unsubscribe links' HMAC (unsubscribeKey(config)). */
  unsubscribeKey?: Buffer;
  log?: (level: "info" | "warn", msg: string, extra?: object) => void;
}

const LIST_SIZE = 50;

/** Emails one stored notification (decision 152); enqueued in the transaction that stores it. */
export const notificationMail: JobRef<{ notificationId: string }> = {
  name: "notifications.mail",
  payload: z.object({ notificationId: z.string().regex(/^\d{1,18}$/) }),
};

const isEmailKind = (kind: string): kind is EmailNotificationKind =>
  (emailNotificationKinds as readonly string[]).includes(kind);

const SUBJECTS: Record<EmailNotificationKind, string> = {
  outbid: "You were outbid on Diginoor",
  auction_won: "You won an auction on Diginoor",
  nft_sold: "Your NFT sold on Diginoor",
  purchase_confirmed: "Your Diginoor NFT is in your wallet",
};

/**
 * The key of unsubscribe links: derived from SESSION_SECRET (production requires it), so links keep
 * working across restarts and every process of a deployment accepts the links of the others; without
 * it (development, staging), random and kept under DATA_DIR, never a value computable from the source.
 */
export function unsubscribeKey(config: { SESSION_SECRET?: string; paths: { secrets: string } }): Buffer {
  if (!config.SESSION_SECRET) return localSecret(config.paths.secrets, "unsubscribe-links");
  return createHmac("sha256", config.SESSION_SECRET).update("diginoor unsubscribe links v1").digest();
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString("base64url");

/** `<base64url of "userId:kind">.<base64url of its HMAC-SHA256>`: names and authorises one change. */
export function unsubscribeToken(key: Buffer, userId: string, kind: EmailNotificationKind): string {
  const payload = `${userId}:${kind}`;
  return `${b64(payload)}.${b64(createHmac("sha256", key).update(payload).digest())}`;
}

/** The user and kind of a genuine token; undefined for anything forged, altered or malformed. */
export function readUnsubscribeToken(
  key: Buffer,
  token: string,
): { userId: string; kind: EmailNotificationKind } | undefined {
  const [p, m, extra] = token.split(".");
  if (!p || !m || extra !== undefined) return undefined;
  const payload = Buffer.from(p, "base64url").toString("utf8");
  const expected = createHmac("sha256", key).update(payload).digest();
  const given = Buffer.from(m, "base64url");
  // Constant time: the comparison does not tell how much of a guessed MAC was right.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const match = /^([0-9a-f-]{36}):([a-z_]+)$/.exec(payload);
  if (!match || !isEmailKind(match[2]!)) return undefined;
  return { userId: match[1]!, kind: match[2] };
}

function toApi(r: repo.NotificationRow): Notification {
  return {
    id: r.id,
    kind: r.kind,
    text: r.text,
    link: r.link,
    read: r.read_at !== null,
    createdAt: r.created_at.toISOString(),
  };
}

const amount = (wei: string | null, symbol: string) => (wei ? formatNative(wei, symbol) : "");

/** The line and the page of a notification the indexer recorded. */
export function notificationText(
  n: {
    kind: string;
    tokenId: string;
    amountWei: string | null;
    nft: { id: string; title: string } | null;
    recipient?: string;
  },
  symbol: string,
): { kind: NotificationKind; text: string; link: string } | undefined {
  const title = n.nft?.title ?? `Token #${n.tokenId}`;
  const price = amount(n.amountWei, symbol);
  // Auctions and sales of catalogue editions are followed on the token's page; an auction of the
  // catalogue's current edition also shows on the NFT page, which the token page links to.
  const link = `/nfttransfer/${n.tokenId}`;
  switch (n.kind) {
    case "outbid":
      return {
        kind: "outbid",
        text: `You were outbid on ${title}. Bid again before the auction ends.`,
        link,
      };
    case "auction_won":
      return {
        kind: "auction_won",
        text: `You won the auction for ${title}${price ? ` at ${price}` : ""}.`,
        link,
      };
    case "auction_ended":
      return {
        kind: "auction_ended",
        text: `Your auction of ${title} has been settled${price ? ` at ${price}` : ""}.`,
        link,
      };
    case "nft_sold":
      return { kind: "nft_sold", text: `Your ${title} sold${price ? ` for ${price}` : ""}.`, link };
    case "purchase_confirmed":
      return {
        kind: "purchase_confirmed",
        text: `${title} is in your wallet.`,
        link: `/nftshowcase/${n.tokenId}`,
      };
    case "recovery_proposed":
      // Sent straight to the chain or through us, by the wallet's guardian (decision 185): the fan may not
      // know of it. The link opens the wallet page's one-tap cancel.
      return {
        kind: "wallet_recovery",
        text: `A recovery of your passkey wallet ${n.recipient ? `${n.recipient.slice(0, 6)}…${n.recipient.slice(-4)} ` : ""}was proposed: a new passkey replaces yours in 7 days. If this was not you, cancel it now.`,
        link: `/wallet?cancelRecovery=${n.recipient ?? ""}`,
      };
    default:
      return undefined;
  }
}

/**
 * Notifications stored per user, delivered live on the user's event stream (any process, through
 * pub/sub). The chain's events reach users here: the indexer records who should hear about what
 * (by address); this turns each row into a notification for the account that address is linked to,
 * exactly once (unique on its source), following a cursor so nothing is skipped after a restart.
 */
export function createNotificationsService(deps: NotificationsDeps) {
  const { database, clock } = deps;
  const q: repo.Query = (t, p) => database.query(t, p);
  const log = deps.log ?? (() => {});

  async function list(userId: string): Promise<NotificationList> {
    const [rows, unread] = await Promise.all([
      repo.newest(q, userId, LIST_SIZE),
      repo.unreadCount(q, userId),
    ]);
    return { items: rows.map(toApi), unread };
  }

  /** Stores and announces one notification (once per source). */
  async function notify(
    userId: string,
    n: { kind: NotificationKind; text: string; link: string; source: string },
    /** `always`: mailed whatever the user's settings (a notice about their wallet's safety, no unsubscribe). */
    opts: { mail?: boolean | "always" } = {},
  ): Promise<Notification | undefined> {
    return withTransaction(database, async (tx) => {
      const row = await repo.insertNotification((t, p) => tx.query(t, p), {
        ...n,
        userId,
        now: clock.date(),
      });
      if (!row) return undefined;
      const notification = toApi(row);
      // The important kinds are also mailed, unless the user turned that off; the job commits with
      // the notification, so a crash can neither lose the mail nor send it for a rolled-back row.
      if (deps.jobs && opts.mail === "always") {
        await deps.jobs.enqueue(notificationMail, { notificationId: row.id }, { tx });
      } else if (deps.jobs && opts.mail !== false && isEmailKind(row.kind)) {
        const off = await repo.emailOff((t, p) => tx.query(t, p), userId);
        if (!off.has(row.kind)) await deps.jobs.enqueue(notificationMail, { notificationId: row.id }, { tx });
      }
      await publishToUser(deps.pubsub, userId, { type: "notification", notification }, { tx }).catch((err) =>
        log("warn", "could not publish a notification", { err: String(err) }),
      );
      return notification;
    });
  }

  let delivering: Promise<number> | undefined;
  /** Turns the indexer's new notification rows into users' notifications; returns how many were stored. */
  async function deliverChainNotifications(): Promise<number> {
    const chainId = deps.chainId;
    if (chainId === undefined) return 0;
    // One delivery at a time per process (pub/sub messages can arrive in bursts).
    if (delivering) return delivering;
    delivering = (async () => {
      let stored = 0;
      for (;;) {
        const after = await repo.cursorOf(q, chainId);
        const rows = await deps.tokens.chainNotifications(after, 200);
        if (rows.length === 0) break;
        for (const r of rows) {
          const userId = await deps.wallets.ownerOf(r.recipient);
          const text = notificationText(r, deps.symbol);
          if (!userId || !text) continue;
          const mail = r.kind === "recovery_proposed" ? "always" : undefined;
          if (await notify(userId, { ...text, source: `chain:${chainId}:${r.id}` }, { mail })) stored++;
        }
        await repo.moveCursor(q, chainId, rows[rows.length - 1]!.id);
      }
      return stored;
    })().finally(() => {
      delivering = undefined;
    });
    return delivering;
  }

  // Without a configured key (tests of the service alone) links live as long as the process.
  const key = deps.unsubscribeKey ?? randomBytes(32);
  const base = (deps.publicUrl ?? "http://localhost:3000").replace(/\/+$/, "");

  async function preferences(userId: string): Promise<NotificationPreferences> {
    const off = await repo.emailOff(q, userId);
    return { items: emailNotificationKinds.map((kind) => ({ kind, email: !off.has(kind) })) };
  }

  function tokenOrRefuse(token: string) {
    const t = readUnsubscribeToken(key, token);
    if (!t)
      throw AppError.badRequest(
        "This unsubscribe link is not valid. Change your email settings in your profile.",
      );
    return t;
  }

  async function unsubscribeState(t: {
    userId: string;
    kind: EmailNotificationKind;
  }): Promise<UnsubscribeState> {
    const off = await repo.emailOff(q, t.userId);
    return { kind: t.kind, label: emailKindLabels[t.kind], email: !off.has(t.kind) };
  }

  return {
    list,
    notify,
    preferences,
    async setPreferences(
      userId: string,
      items: { kind: EmailNotificationKind; email: boolean }[],
    ): Promise<NotificationPreferences> {
      const now = clock.date();
      await withTransaction(database, async (tx) => {
        for (const i of items) await repo.setEmail((t, p) => tx.query(t, p), userId, i.kind, i.email, now);
      });
      return preferences(userId);
    },
    /** What a link's token would turn off; changes nothing (GET: mail scanners open links). */
    unsubscribeInfo: (token: string) => unsubscribeState(tokenOrRefuse(token)),
    /** Turns off the token's kind for the token's user (400 for a token that is not genuine). */
    async unsubscribe(token: string): Promise<UnsubscribeState> {
      const t = tokenOrRefuse(token);
      await repo.setEmail(q, t.userId, t.kind, false, clock.date());
      log("info", "notification email turned off by an unsubscribe link", { userId: t.userId, kind: t.kind });
      return unsubscribeState(t);
    },
    /**
     * What the mail of a notification says, or undefined when there is nothing to send (not an email
     * kind, the user turned it off since, or the notification is gone).
     */
    async mailFacts(notificationId: string) {
      const n = await repo.notificationById(q, notificationId);
      // A recovery of the user's wallet: a safety notice, mailed to any address and never unsubscribable.
      if (n?.kind === "wallet_recovery") {
        return {
          userId: n.user_id,
          notice: true as const,
          subject: "A recovery of your Diginoor wallet was proposed",
          text: n.text,
          url: `${base}${n.link}`,
        };
      }
      if (!n || !isEmailKind(n.kind)) return undefined;
      if ((await repo.emailOff(q, n.user_id)).has(n.kind)) return undefined;
      const token = unsubscribeToken(key, n.user_id, n.kind);
      return {
        userId: n.user_id,
        subject: SUBJECTS[n.kind],
        text: n.text,
        what: emailKindLabels[n.kind],
        url: `${base}${n.link}`,
        unsubscribeUrl: `${base}/unsubscribe?token=${token}`,
        settingsUrl: `${base}/profile/edit_profile#notifications`,
        /** RFC 8058: one POST to this URL (no cookies, no page) turns the kind off. */
        headers: {
          "List-Unsubscribe": `<${base}/api/v1/unsubscribe?token=${token}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      };
    },
    deliverChainNotifications,
    async markRead(userId: string, id: string): Promise<NotificationList> {
      if (!(await repo.markRead(q, userId, id, clock.date()))) throw AppError.notFound("Notification");
      return list(userId);
    },
    async markAllRead(userId: string): Promise<NotificationList> {
      await repo.markAllRead(q, userId, clock.date());
      return list(userId);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { eraseNotifications, exportNotifications } from "./personal-data.ts";
