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
        throw new AppError("validation_failed", own, err.details);
      }
    }
    throw err;
  });
}
