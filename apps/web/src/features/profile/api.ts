import type { User } from "@diginoor/api/auth";
import type { profileEndpoints as api } from "@diginoor/api/auth-endpoints";
import type { privacyEndpoints as privacyApi } from "@diginoor/api/privacy";
import { ApiError, callApi } from "../../lib/api.ts";

export const updateProfile = (body: { name?: string; phone?: string | null }) =>
  callApi<typeof api.updateMe>("PATCH /api/v1/me", { body });

export const requestEmailChange = (body: { email: string; currentPassword: string }) =>
  callApi<typeof api.changeEmail>("POST /api/v1/me/email", { body });

export const changePassword = (body: {
  currentPassword: string;
  password: string;
  confirmPassword: string;
}) => callApi<typeof api.changePassword>("POST /api/v1/me/password", { body });

export type ProfileImageKind = "avatar" | "cover";

/**
 * POST /api/v1/me/avatar or /api/v1/me/cover as multipart/form-data with one field `file`.
 * (apiFetch speaks JSON only; this is its multipart sibling with the same error handling.)
 */
export async function uploadProfileImage(kind: ProfileImageKind, file: File): Promise<User> {
  const form = new FormData();
  form.append("file", file, file.name || `${kind}.png`);
  let response: Response;
  try {
    response = await fetch(`/api/v1/me/${kind}`, {
      method: "POST",
      body: form,
      credentials: "same-origin",
      headers: { accept: "application/json" },
    });
  } catch {
    throw new ApiError(0, "network_error", "Network error, please retry");
  }
  const data = (await response.json().catch(() => undefined)) as
    | { user?: User; error?: { code?: string; message?: string; details?: unknown } }
    | undefined;
  if (!response.ok || !data?.user) {
    const error = data?.error;
    throw new ApiError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message || (response.status === 413 ? "The image must be at most 5 MB" : "Something Went Wrong"),
      error?.details,
    );
  }
  return data.user;
}

export const requestDataExport = () => callApi<typeof privacyApi.requestExport>("POST /api/v1/me/export", {});

export const deleteAccount = (body: { password?: string }) =>
  callApi<typeof privacyApi.deleteAccount>("POST /api/v1/me/delete", { body });

export const confirmAccountDeletion = (body: { token: string }) =>
  callApi<typeof privacyApi.confirmDelete>("POST /api/v1/me/delete/confirm", { body });
