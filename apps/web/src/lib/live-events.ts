import type { LiveEvent, MarketEvent } from "@diginoor/api/events";
import type { Notification, NotificationList } from "@diginoor/api/notifications";
import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { follow, useMarketWanted } from "./live-streams.ts";
import { notificationsKey } from "./notifications.ts";
import { sessionQueryKey, useCurrentUser } from "./session.ts";

/**
 * Live, not polled (issue 21 point 5). The web app holds at most two Server-Sent Events streams:
 * the signed-in user's (GET /api/v1/events: orders, notifications, profile; ids and Last-Event-ID
 * replay, decision 164) and, while a page shows tokens, auctions or the market, the public market
 * stream (GET /api/v1/market/events: what the indexer applied). `useLiveEvents()`, mounted once in
 * the layout, turns their events into TanStack Query invalidations; queries the streams keep fresh
 * take `useLiveFallback()` as their refetchInterval: no polling while the stream is open, a slow poll
 * while it is down.
 */

/** What the market stream's events make pages read again (only mounted queries are fetched). */
const CHAIN_KEYS: QueryKey[] = [
  ["nft-auction"],
  ["nft-activity"],
  ["market"],
  ["account-tokens"],
  ["my-bids"],
  ["showcase"],
];
/** What a user stream's notification of each kind makes pages read again, besides the bell. */
const NOTIFICATION_KEYS: Record<Notification["kind"], QueryKey[]> = {
  outbid: [["my-bids"]],
  auction_won: [["my-bids"], ["account-tokens"]],
  auction_ended: [["my-bids"]],
  nft_sold: [["account-tokens"], ["showcase"]],
  purchase_confirmed: [["orders"], ["account-tokens"]],
  new_follower: [["profile"]],
  order_refunded: [["orders"]],
  lottery_won: [["my-lottery-tickets"], ["lottery"]],
  lottery_result: [["my-lottery-tickets"], ["lottery"]],
  wallet_recovery: [["wallets"], ["wallet-recoveries"]],
};

const invalidate = (client: QueryClient, keys: QueryKey[]) => {
  for (const queryKey of keys) void client.invalidateQueries({ queryKey });
};

/** Applies one event of the user stream to the query cache. */
export function applyLiveEvent(client: QueryClient, event: LiveEvent): void {
  switch (event.type) {
    case "notification": {
      const n = event.notification;
      client.setQueryData<NotificationList>(notificationsKey, (old) =>
        old && !old.items.some((i) => i.id === n.id)
          ? { items: [n, ...old.items].slice(0, 50), unread: old.unread + 1 }
          : old,
      );
      invalidate(client, [notificationsKey, ...NOTIFICATION_KEYS[n.kind]]);
      return;
    }
    case "order.updated":
      // Its page, My orders and lottery tickets read it again, even once it looked final (a fulfilled
      // order can still be refunded, decision 144); a minted one is in the profile's tokens.
      invalidate(client, [["order", event.orderId], ["orders"], ["my-lottery-tickets"]]);
      if (event.state === "fulfilled") invalidate(client, [["account-tokens"]]);
      return;
    case "profile.updated":
      // Changed in another tab or device: the header and the profile follow.
      client.setQueryData(sessionQueryKey, event.user);
      invalidate(client, [["profile"]]);
      return;
  }
}

/** Applies one event of the market stream: the tokens it names and the lists that show tokens. */
export function applyMarketEvent(client: QueryClient, event: MarketEvent): void {
  if (event.more) invalidate(client, [["token"]]);
  else
    invalidate(
      client,
      event.tokenIds.map((id) => ["token", id]),
    );
  invalidate(client, CHAIN_KEYS);
}

const USER_KEYS: QueryKey[] = [notificationsKey, ["order"], ["orders"], ["my-lottery-tickets"], ["profile"]];

function parsed<T>(e: MessageEvent<string>): T | undefined {
  try {
    return JSON.parse(e.data) as T;
  } catch {
    return undefined;
  }
}

/**
 * Mounted once (the layout): holds the signed-in user's event stream and, while a page needs it, the
 * market stream, and applies their events to the query cache.
 */
export function useLiveEvents(): void {
  const client = useQueryClient();
  const { user } = useCurrentUser();
  const signedIn = !!user;
  const wantMarket = useMarketWanted();

  useEffect(() => {
    if (!signedIn || typeof EventSource === "undefined") return;
    return follow(
      "/api/v1/events",
      "user",
      (s, seen) => {
        for (const type of ["notification", "order.updated", "profile.updated"] as const)
          s.addEventListener(type, (e) => {
            seen(e);
            const event = parsed<LiveEvent>(e);
            if (event) applyLiveEvent(client, event);
          });
      },
      () => invalidate(client, USER_KEYS),
    );
  }, [signedIn, client]);

  useEffect(() => {
    if (!wantMarket || typeof EventSource === "undefined") return;
    return follow(
      "/api/v1/market/events",
      "market",
      (s) =>
        s.addEventListener("chain.updated", (e) => {
          const event = parsed<MarketEvent>(e);
          if (event) applyMarketEvent(client, event);
        }),
      () => invalidate(client, [["token"], ...CHAIN_KEYS]),
    );
  }, [wantMarket, client]);
}
