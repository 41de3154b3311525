import type { User } from "@diginoor/api/auth";
import type { Notification, NotificationList } from "@diginoor/api/notifications";
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { applyLiveEvent, applyMarketEvent } from "./live-events.ts";
import { notificationsKey } from "./notifications.ts";
import { sessionQueryKey } from "./session.ts";

/** A client holding `keys` (each with data), reporting which of them events made stale. */
function cacheWith(keys: QueryKey[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of keys) client.setQueryData(key, { held: JSON.stringify(key) });
  const stale = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => JSON.stringify(q.queryKey))
      .sort();
  return { client, stale };
}
const names = (keys: QueryKey[]) => keys.map((k) => JSON.stringify(k)).sort();

const notification = (over: Partial<Notification> = {}): Notification => ({
  id: "41",
  kind: "outbid",
  text: "You were outbid on Vijayapuram Palace",
  link: "/nftdetail/n1",
  read: false,
  createdAt: "2026-11-26T12:00:00.000Z",
  ...over,
});

describe("applyLiveEvent (the user stream)", () => {
  it("order.updated makes that order, My orders and lottery tickets stale, and nothing else", () => {
    const { client, stale } = cacheWith([
      ["order", "o1"],
      ["order", "o2"],
      ["orders"],
      ["my-lottery-tickets"],
      ["account-tokens", "0xabc"],
      notificationsKey,
    ]);
    applyLiveEvent(client, { type: "order.updated", orderId: "o1", state: "paid" });
    expect(stale()).toEqual(names([["order", "o1"], ["orders"], ["my-lottery-tickets"]]));
  });

  it("a fulfilled order also makes the profile's tokens stale (the mint landed in a wallet)", () => {
    const { client, stale } = cacheWith([
      ["order", "o1"],
      ["account-tokens", "0xabc"],
    ]);
    applyLiveEvent(client, { type: "order.updated", orderId: "o1", state: "fulfilled" });
    expect(stale()).toEqual(
      names([
        ["order", "o1"],
        ["account-tokens", "0xabc"],
      ]),
    );
  });

  it("a notification is counted in the bell at once, once, and makes what its kind concerns stale", () => {
    const { client, stale } = cacheWith([["my-bids"], ["profile", "fan"], ["orders"]]);
    client.setQueryData<NotificationList>(notificationsKey, { items: [], unread: 0 });
    const n = notification();
    applyLiveEvent(client, { type: "notification", notification: n });
    applyLiveEvent(client, { type: "notification", notification: n }); // replayed after a reconnect
    expect(client.getQueryData(notificationsKey)).toEqual({ items: [n], unread: 1 });
    expect(stale()).toEqual(names([notificationsKey, ["my-bids"]]));

    const follower = cacheWith([["my-bids"], ["profile", "fan"]]);
    applyLiveEvent(follower.client, {
      type: "notification",
      notification: notification({ id: "42", kind: "new_follower" }),
    });
    expect(follower.stale()).toEqual(names([["profile", "fan"]]));
  });

  it("profile.updated replaces the signed-in user and makes profiles stale", () => {
    const { client, stale } = cacheWith([["profile", "fan"], ["orders"]]);
    const user = { id: "u1", name: "Renamed Fan" } as User;
    applyLiveEvent(client, { type: "profile.updated", user });
    expect(client.getQueryData(sessionQueryKey)).toEqual(user);
    expect(stale()).toEqual(names([["profile", "fan"]]));
  });
});

describe("applyMarketEvent (the market stream)", () => {
  const chainKeys: QueryKey[] = [
    ["nft-auction", "n1"],
    ["nft-activity", "n1"],
    ["market"],
    ["account-tokens", "0xabc"],
    ["my-bids"],
    ["showcase", "me"],
  ];

  it("makes the tokens it names and the lists of tokens stale, not other tokens nor orders", () => {
    const { client, stale } = cacheWith([["token", "7"], ["token", "8"], ["orders"], ...chainKeys]);
    applyMarketEvent(client, { type: "chain.updated", tokenIds: ["7"], more: false });
    expect(stale()).toEqual(names([["token", "7"], ...chainKeys]));
  });

  it("with more (or a rollback) makes every token stale", () => {
    const { client, stale } = cacheWith([["token", "7"], ["token", "8"], ["orders"]]);
    applyMarketEvent(client, { type: "chain.updated", tokenIds: [], more: true });
    expect(stale()).toEqual(
      names([
        ["token", "7"],
        ["token", "8"],
      ]),
    );
  });
});
