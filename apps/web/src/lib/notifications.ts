import type { notificationEndpoints as api } from "@diginoor/api/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "./api.ts";
import { useLiveFallback } from "./live-streams.ts";

export const notificationsKey = ["notifications"] as const;

/**
 * The signed-in user's notifications, kept live by the user's event stream (lib/live-events.ts adds
 * each new one), read again now and then only while the stream is down.
 */
export function useNotifications(signedIn: boolean) {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => callApi<typeof api.list>("GET /api/v1/notifications", { signal }),
    enabled: signedIn,
    staleTime: 30_000,
    refetchInterval: useLiveFallback("user"),
  });
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
