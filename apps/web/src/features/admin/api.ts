// The studio console's calls to /api/v1/admin (shapes from packages/api/src/admin.ts).
import type {
  AdminFilm,
  AdminNft,
  AdminPost,
  AdminUser,
  AuditEntry,
  Celebrity,
  ConsoleMe,
  HiddenToken,
  Studio,
  UploadPurpose,
  UploadResponse,
} from "@diginoor/api/admin";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiFetch } from "../../lib/api.ts";

export type { AdminFilm, AdminNft, AdminPost, AdminUser, AuditEntry, Celebrity, HiddenToken, Studio };

export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  createdAt: string;
}
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
    queryFn: ({ signal }) => apiFetch<ConsoleMe>(`${base}/me`, { signal }),
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

export const adminCall = <T>(path: string, method: "POST" | "PUT" | "DELETE", body?: unknown) =>
  apiFetch<T>(`${base}${path}`, { method, body });

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
