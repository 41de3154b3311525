import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { ApiError, apiFetch } from "./api.ts";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  avatarUrl: string | null;
  coverUrl: string | null;
  role: string;
}

export const sessionQueryKey = ["session", "me"] as const;

/** GET /api/v1/me; a 401 means "signed out" and resolves to null. */
export async function fetchCurrentUser(signal?: AbortSignal): Promise<SessionUser | null> {
  try {
    const body = await apiFetch<{ user?: SessionUser | null } | SessionUser>("/api/v1/me", { signal });
    if (body && typeof body === "object" && "user" in body) return body.user ?? null;
    return (body as SessionUser | undefined) ?? null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
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
    mutationFn: () => apiFetch<unknown>("/api/v1/auth/logout", { method: "POST", body: {} }),
    onSettled: async () => {
      queryClient.setQueryData(sessionQueryKey, null);
      await queryClient.resetQueries({ queryKey: sessionQueryKey });
      navigate("/");
    },
  });
}
