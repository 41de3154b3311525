import type { Notification, NotificationKind, NotificationList } from "@diginoor/api/notifications";
import { formatUnits } from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { withTransaction } from "../../platform/tx.ts";
import { publishToUser } from "../events/service.ts";
import type { TokenReads } from "../indexer/service.ts";
import type { WalletsService } from "../wallets/service.ts";
import * as repo from "./repo.ts";

export interface NotificationsDeps {
  database: Database;
  clock: Clock;
  pubsub: PubSub;
  tokens: Pick<TokenReads, "chainNotifications">;
  wallets: Pick<WalletsService, "ownerOf">;
  /** The chain whose indexer notifications are delivered; none without a chain. */
  chainId?: number;
  symbol: string;
  log?: (level: "info" | "warn", msg: string, extra?: object) => void;
}

const LIST_SIZE = 50;

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

const amount = (wei: string | null, symbol: string) => {
  if (!wei) return "";
  const [w, f = ""] = formatUnits(BigInt(wei), 18).split(".");
  const d = f.slice(0, 4).replace(/0+$/, "");
  return `${w}${d ? `.${d}` : ""} ${symbol}`;
};

/** The line and the page of a notification the indexer recorded. */
export function notificationText(
  n: { kind: string; tokenId: string; amountWei: string | null; nft: { id: string; title: string } | null },
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
  ): Promise<Notification | undefined> {
    return withTransaction(database, async (tx) => {
      const row = await repo.insertNotification((t, p) => tx.query(t, p), {
        ...n,
        userId,
        now: clock.date(),
      });
      if (!row) return undefined;
      const notification = toApi(row);
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
          if (await notify(userId, { ...text, source: `chain:${chainId}:${r.id}` })) stored++;
        }
        await repo.moveCursor(q, chainId, rows[rows.length - 1]!.id);
      }
      return stored;
    })().finally(() => {
      delivering = undefined;
    });
    return delivering;
  }

  return {
    list,
    notify,
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
