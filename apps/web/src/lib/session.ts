import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { User } from "@diginoor/api/auth";
import type { authEndpoints, profileEndpoints } from "@diginoor/api/auth-endpoints";
import { callApi } from "./api.ts";
import { closeLiveEvents } from "./live-streams.ts";

/** The signed-in user (packages/api's User). */
export type SessionUser = User;

export const sessionQueryKey = ["session", "me"] as const;

/**
 * GET /api/v1/session: 200 `{ user }` with `null` for visitors, so signed-out pages make no failed
 * request (GET /api/v1/me stays 401 for API clients).
 */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<SessionUser | null> {
  const body = await callApi<typeof profileEndpoints.session>("GET /api/v1/session", { signal });
  return body.user ?? null;
}

/** The signed-in user, or null for visitors. */
export function useCurrentUser(): { user: SessionUser | null; isLoading: boolean } {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    retry: false,
    staleTime: 60_000,
  });
  return { user: query.data ?? null, isLoading: query.isLoading };
}

/** Signs out (POST /api/v1/auth/logout), forgets the session and goes home. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => {
      // The live event stream goes first, so none is still connecting when the session ends.
      closeLiveEvents();
      return callApi<typeof authEndpoints.logout>("POST /api/v1/auth/logout", {});
    },
    onSettled: async () => {
      queryClient.setQueryData(sessionQueryKey, null);
      await queryClient.resetQueries({ queryKey: sessionQueryKey });
      navigate("/");
    },
  });
}
