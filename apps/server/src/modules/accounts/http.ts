import type { FastifyInstance } from "fastify";
import { AppError } from "../../http/errors.ts";

/**
 * In this scope, a 400 validation_failed carries the first field's own message (the spec's texts,
 * e.g. 'Invalid email address' or 'OMG..! Confirm Password Not Matched !') as its `message`, so
 * forms can show it as is. Other errors go to the app's error handler unchanged.
 */
export function useFriendlyValidationMessages(scope: FastifyInstance): void {
  scope.setErrorHandler((err, _req, _reply) => {
    if (err instanceof AppError && err.code === "validation_failed" && Array.isArray(err.details)) {
      const first = err.details[0] as { field?: string; message?: string } | undefined;
      if (first?.message) {
        const own = /^[A-Z]/.test(first.message) ? first.message : `${first.field} ${first.message}`;
        throw new AppError(400, "validation_failed", own, err.details);
      }
    }
    throw err;
  });
}

/** Rate limits of the accounts routes (fixed windows shared in PostgreSQL). */
export const limits = {
  loginPerIp: { name: "login:ip", limit: 20, windowSeconds: 60 },
  loginPerAccount: { name: "login:account", limit: 10, windowSeconds: 60 },
  signupPerIp: { name: "signup:ip", limit: 10, windowSeconds: 600 },
  resetPerIp: { name: "reset:ip", limit: 10, windowSeconds: 600 },
  resetPerEmail: { name: "reset:email", limit: 3, windowSeconds: 600 },
  resendPerIp: { name: "resend:ip", limit: 10, windowSeconds: 600 },
  resendPerEmail: { name: "resend:email", limit: 3, windowSeconds: 600 },
  verifyPerIp: { name: "verify:ip", limit: 30, windowSeconds: 600 },
  resetConfirmPerIp: { name: "reset-confirm:ip", limit: 30, windowSeconds: 600 },
  passwordCheckPerUser: { name: "password-check:user", limit: 10, windowSeconds: 600 },
  emailChangePerUser: { name: "email-change:user", limit: 5, windowSeconds: 3600 },
  uploadPerUser: { name: "upload:user", limit: 30, windowSeconds: 600 },
  googlePerIp: { name: "google:ip", limit: 30, windowSeconds: 600 },
} as const;
