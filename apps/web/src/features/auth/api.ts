import type { User } from "@diginoor/api/auth";
import type { authEndpoints as api } from "@diginoor/api/auth-endpoints";
import { ApiError, callApi } from "../../lib/api.ts";

/** The user as the accounts API returns it (GET /api/v1/me and the auth endpoints). */
export type AccountUser = User;

export type SignupInput = Parameters<typeof signUp>[0];

/** `verificationEmailSent: false`: the account exists but the mail failed; a new link can be asked for. */
export const signUp = (body: {
  name: string;
  phone?: string;
  email: string;
  password: string;
  confirmPassword: string;
}) => callApi<typeof api.signup>("POST /api/v1/auth/signup", { body });

export const signIn = (body: { email: string; password: string }) =>
  callApi<typeof api.login>("POST /api/v1/auth/login", { body });

export const verifyEmail = (token: string) =>
  callApi<typeof api.verifyEmail>("POST /api/v1/auth/verify-email", { body: { token } });

export const resendVerification = (email: string) =>
  callApi<typeof api.resendVerification>("POST /api/v1/auth/resend-verification", { body: { email } });

export const requestPasswordReset = (email: string) =>
  callApi<typeof api.passwordReset>("POST /api/v1/auth/password-reset", { body: { email } });

export const confirmPasswordReset = (body: { token: string; password: string; confirmPassword: string }) =>
  callApi<typeof api.passwordResetConfirm>("POST /api/v1/auth/password-reset/confirm", { body });

export const fetchProviders = (signal?: AbortSignal) =>
  callApi<typeof api.providers>("GET /api/v1/auth/providers", { signal });

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
