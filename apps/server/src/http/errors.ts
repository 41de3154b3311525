import type { ErrorCode, FieldIssue } from "@diginoor/api/errors";
import type { ZodError } from "zod";

/**
 * The one error type of the server. `message` is safe to show to users; 500s never expose
 * their cause (it is logged instead).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AppError";
  }

  static badRequest(message: string, details?: unknown) {
    return new AppError(400, "bad_request", message, details);
  }
  static validation(where: string, issues: FieldIssue[]) {
    const first = issues[0];
    const message = first ? `Invalid ${where}: ${first.field} ${first.message}` : `Invalid ${where}`;
    return new AppError(400, "validation_failed", message, issues);
  }
  static unauthorized(message = "Please Login to Continue") {
    return new AppError(401, "unauthorized", message);
  }
  static forbidden(message = "You are not allowed to do that") {
    return new AppError(403, "forbidden", message);
  }
  static notFound(what = "Resource") {
    return new AppError(404, "not_found", `${what} not found`);
  }
  static conflict(message: string, details?: unknown) {
    return new AppError(409, "conflict", message, details);
  }
  static rateLimited(retryAfterSeconds: number) {
    return new AppError(429, "rate_limited", "Too many requests, please try again later", {
      retryAfterSeconds,
    });
  }
}

/** Turns zod issues into `{ field, message }` pairs naming the bad field. */
export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => {
    let field = issue.path.map(String).join(".");
    let message = issue.message;
    if (issue.code === "unrecognized_keys") {
      field = issue.keys.join(", ");
      message = "is not a known field";
    }
    if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) message = "is required";
    if (issue.code === "invalid_value" && "values" in issue) {
      message = `must be one of: ${(issue.values as unknown[]).map(String).join(", ")}`;
    }
    return { field: field || "(root)", message };
  });
}
