import type { LiveEvent } from "@diginoor/api/events";
import type { notificationEndpoints as api, NotificationList } from "@diginoor/api/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { callApi } from "./api.ts";

export const notificationsKey = ["notifications"] as const;

/** The event streams this page has open (one per mounted bell). */
const openStreams = new Set<EventSource>();

/**
 * Closes the page's event streams now. Signing out calls it before its request: a stream still
 * connecting would otherwise reach the server after the session ended and be answered 401.
 */
export function closeLiveEvents(): void {
  for (const source of openStreams) source.close();
  openStreams.clear();
}

/** The signed-in user's notifications, kept live by the user's event stream (Server-Sent Events). */
export function useNotifications(signedIn: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => callApi<typeof api.list>("GET /api/v1/notifications", { signal }),
    enabled: signedIn,
    staleTime: 30_000,
  });
  useEffect(() => {
    if (!signedIn || typeof EventSource === "undefined") return;
    const source = new EventSource("/api/v1/events");
    openStreams.add(source);
    const onNotification = (event: MessageEvent<string>) => {
      const data = JSON.parse(event.data) as Extract<LiveEvent, { type: "notification" }>;
      queryClient.setQueryData<NotificationList>(notificationsKey, (old) =>
        old && !old.items.some((n) => n.id === data.notification.id)
          ? { items: [data.notification, ...old.items].slice(0, 50), unread: old.unread + 1 }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: notificationsKey });
    };
    source.addEventListener("notification", onNotification);
    // An order moved (paid, minted, refunded…): its page and My orders read it again, even once it
    // looked final (a fulfilled order can still be refunded, decision 144).
    const onOrder = (event: MessageEvent<string>) => {
      const data = JSON.parse(event.data) as Extract<LiveEvent, { type: "order.updated" }>;
      void queryClient.invalidateQueries({ queryKey: ["order", data.orderId] });
      void queryClient.invalidateQueries({ queryKey: ["orders"] });
    };
    source.addEventListener("order.updated", onOrder);
    return () => {
      source.removeEventListener("order.updated", onOrder);
      source.removeEventListener("notification", onNotification);
      source.close();
      openStreams.delete(source);
    };
  }, [signedIn, queryClient]);
  return query;
}

/** Mark one (by id) or all notifications read; the list and count come back from the server. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | "all") =>
      id === "all"
        ? callApi<typeof api.markAllRead>("POST /api/v1/notifications/read-all", {})
        : callApi<typeof api.markRead>("POST /api/v1/notifications/{id}/read", { params: { id } }),
    onSuccess: (list) => queryClient.setQueryData(notificationsKey, list),
  });
}
