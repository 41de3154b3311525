import type { authEndpoints as api } from "@diginoor/api/auth-endpoints";
import { callApi } from "../../lib/api.ts";

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
