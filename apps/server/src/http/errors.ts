import { type ErrorCode, type FieldIssue, MAX_REPORTED_ISSUES, statusOf } from "@diginoor/api/errors";
import type { ZodError } from "zod";

/**
 * The one error type of the server: a code of packages/api's closed list (its HTTP status follows
 * from the code) and a `message` safe to show to users; 500s never expose their cause (it is
 * logged instead).
 */
export class AppError extends Error {
  /** The HTTP status of `code` (packages/api `errorStatuses`). */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AppError";
    this.status = statusOf(code);
  }

  static badRequest(message: string, details?: unknown) {
    return new AppError("bad_request", message, details);
  }
  static validation(where: string, issues: FieldIssue[]) {
    const first = issues[0];
    const message = first ? `Invalid ${where}: ${first.field} ${first.message}` : `Invalid ${where}`;
    return new AppError("validation_failed", message, issues);
  }
  static unauthorized(message = "Please Login to Continue") {
    return new AppError("unauthorized", message);
  }
  static forbidden(message = "You are not allowed to do that") {
    return new AppError("forbidden", message);
  }
  static notFound(what = "Resource") {
    return new AppError("not_found", `${what} not found`);
  }
  static conflict(message: string, details?: unknown) {
    return new AppError("conflict", message, details);
  }
  static rateLimited(retryAfterSeconds: number) {
    return new AppError("rate_limited", "Too many requests, please try again later", {
      retryAfterSeconds,
    });
  }
}

/** Longest field name or message reported back (input can name fields of any length). */
const MAX_TEXT = 200;
const clip = (text: string, max = MAX_TEXT) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Turns zod issues into `{ field, message }` pairs naming the bad field. The reply stays small
 * whatever the input: at most MAX_REPORTED_ISSUES issues (a last entry counts the rest), unknown
 * keys listed up to the same number, names and messages clipped.
 */
export function zodIssues(error: ZodError): FieldIssue[] {
  const issues = error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    let field = issue.path.map(String).join(".");
    let message = issue.message;
    if (issue.code === "unrecognized_keys") {
      const shown = issue.keys.slice(0, MAX_REPORTED_ISSUES).map((k) => clip(k, 40));
      const more = issue.keys.length - shown.length;
      field = shown.join(", ") + (more > 0 ? ` and ${more} more` : "");
      message = "is not a known field";
    }
    if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) message = "is required";
    if (issue.code === "invalid_value" && "values" in issue) {
      message = `must be one of: ${(issue.values as unknown[]).map(String).join(", ")}`;
    }
    return { field: clip(field || "(root)", 1000), message: clip(message) };
  });
  const rest = error.issues.length - issues.length;
  if (rest > 0) issues.push({ field: "(more)", message: `${rest} more problems not listed` });
  return issues;
}
