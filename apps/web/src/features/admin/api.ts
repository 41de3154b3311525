// The studio console's calls to /api/v1/admin (shapes from packages/api/src/admin.ts).
import type {
  AdminFilm,
  AdminNft,
  AdminPost,
  AdminUser,
  AuditEntry,
  Celebrity,
  ConsoleMe,
  ContactMessage,
  HiddenToken,
  Studio,
  UploadPurpose,
  UploadResponse,
} from "@diginoor/api/admin";
import type { adminEndpoints as api } from "@diginoor/api/admin";
import type { orderEndpoints } from "@diginoor/api/orders";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, type ApiCallInput, apiFetch, callApi } from "../../lib/api.ts";

export type {
  AdminFilm,
  AdminNft,
  AdminPost,
  AdminUser,
  AuditEntry,
  Celebrity,
  ContactMessage,
  HiddenToken,
  Studio,
};

interface Items<T> {
  items: T[];
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const base = "/api/v1/admin";
export const adminKeys = {
  all: ["admin"] as const,
  me: ["admin", "me"] as const,
  list: (what: string, q = "") => ["admin", what, q] as const,
};

/** The console's own session probe: 401 signed out, 403 for accounts that are not staff. */
export function useConsoleMe(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.me,
    queryFn: ({ signal }): Promise<ConsoleMe> => callApi<typeof api.me>("GET /api/v1/admin/me", { signal }),
    enabled,
    retry: false,
  });
}

export function useAdminList<T>(what: string, enabled = true) {
  return useQuery({
    queryKey: adminKeys.list(what),
    queryFn: ({ signal }) => apiFetch<Items<T>>(`${base}/${what}`, { signal }),
    enabled,
  });
}

export function useAdminPage<T>(what: string, query = "") {
  return useQuery({
    queryKey: adminKeys.list(what, query),
    queryFn: ({ signal }) => apiFetch<Page<T>>(`${base}/${what}${query ? `?${query}` : ""}`, { signal }),
  });
}

/** A console write; every console list is refetched after it (the audit log too). */
export function useAdminWrite<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const save = <T>(what: string, id: string | number | null, body: unknown) =>
  apiFetch<T>(id === null ? `${base}/${what}` : `${base}/${what}/${encodeURIComponent(String(id))}`, {
    method: id === null ? "POST" : "PATCH",
    body,
  });

/** The console's actions on one user, token or order, typed by their packages/api endpoints. */
export const consoleActions = {
  suspendUser: (id: string, suspend: boolean) =>
    suspend
      ? callApi<typeof api.suspendUser>("POST /api/v1/admin/users/{id}/suspend", { params: { id } })
      : callApi<typeof api.unsuspendUser>("POST /api/v1/admin/users/{id}/unsuspend", { params: { id } }),
  setUserRole: (id: string, body: ApiCallInput<typeof api.setUserRole>["body"]) =>
    callApi<typeof api.setUserRole>("PUT /api/v1/admin/users/{id}/role", { params: { id }, body }),
  hideToken: (tokenId: string, body: ApiCallInput<typeof api.hideToken>["body"]) =>
    callApi<typeof api.hideToken>("PUT /api/v1/admin/hidden-tokens/{tokenId}", { params: { tokenId }, body }),
  unhideToken: (tokenId: string) =>
    callApi<typeof api.unhideToken>("DELETE /api/v1/admin/hidden-tokens/{tokenId}", { params: { tokenId } }),
  retryFulfilment: (orderId: string) =>
    callApi<typeof orderEndpoints.adminRetryFulfilment>("POST /api/v1/admin/orders/{orderId}/retry", {
      params: { orderId },
    }),
};

/** Uploads one image (multipart, field "file"); answers the URLs of its renditions by name. */
export async function uploadImage(purpose: UploadPurpose, file: File): Promise<Record<string, string>> {
  const form = new FormData();
  form.append("file", file);
  let res: Response;
  try {
    res = await fetch(`${base}/images?purpose=${purpose}`, {
      method: "POST",
      body: form,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network_error", "Network error, please retry");
  }
  const data = (await res.json().catch(() => undefined)) as
    | UploadResponse
    | { error?: { code?: string; message?: string } }
    | undefined;
  if (!res.ok || !data || !("images" in data)) {
    const err = data && "error" in data ? data.error : undefined;
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? "The upload failed");
  }
  return data.images;
}
