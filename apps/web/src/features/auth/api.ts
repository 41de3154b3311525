import { ApiError, apiFetch } from "../../lib/api.ts";

/** The user as the accounts API returns it (GET /api/v1/me and the auth endpoints). */
export interface AccountUser {
  id: string;
  name: string;
  /** Public handle: the profile at /u/{handle}. */
  handle: string;
  email: string;
  phone: string | null;
  emailVerified: boolean;
  avatarUrl: string | null;
  coverUrl: string | null;
  role: "user" | "admin" | "studio";
  createdAt: string;
}

interface UserBody {
  user: AccountUser;
}
interface OkBody {
  ok: true;
}

export interface SignupInput {
  name: string;
  phone?: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/** `verificationEmailSent: false`: the account exists but the mail failed; a new link can be asked for. */
export const signUp = (input: SignupInput) =>
  apiFetch<UserBody & { verificationEmailSent: boolean }>("/api/v1/auth/signup", {
    method: "POST",
    body: input,
  });

export const signIn = (input: { email: string; password: string }) =>
  apiFetch<UserBody>("/api/v1/auth/login", { method: "POST", body: input });

export const verifyEmail = (token: string) =>
  apiFetch<UserBody>("/api/v1/auth/verify-email", { method: "POST", body: { token } });

export const resendVerification = (email: string) =>
  apiFetch<OkBody>("/api/v1/auth/resend-verification", { method: "POST", body: { email } });

export const requestPasswordReset = (email: string) =>
  apiFetch<OkBody>("/api/v1/auth/password-reset", { method: "POST", body: { email } });

export const confirmPasswordReset = (input: { token: string; password: string; confirmPassword: string }) =>
  apiFetch<OkBody>("/api/v1/auth/password-reset/confirm", { method: "POST", body: input });

export const fetchProviders = (signal?: AbortSignal) =>
  apiFetch<{ google: boolean }>("/api/v1/auth/providers", { signal });

export const providersQueryKey = ["auth", "providers"] as const;

/** Field errors of a failed request (validation_failed details), or {} for other errors. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError ? err.fieldErrors() : {};
}

/** A message people can act on: the server's own message for 4xx, a generic one otherwise. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    if (err.status === 429 && !err.message) return "Too many attempts. Please wait a moment and try again.";
    if (err.status === 0) return "Network error, please check your connection and retry";
    if (err.status >= 400 && err.status < 500 && err.message) return err.message;
  }
  return fallback;
}
