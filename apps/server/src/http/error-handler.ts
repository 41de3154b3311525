import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrorCode } from "@diginoor/api/errors";
import { AppError } from "./errors.ts";
import { isChainUnavailable, isDatabaseUnavailable } from "./unavailable.ts";

/** Fixed messages for Fastify's own client errors: never the framework's text, which echoes input. */
const frameworkMessages: Record<number, { code: ErrorCode; message: string }> = {
  400: { code: "bad_request", message: "The request is not valid" },
  403: { code: "forbidden", message: "You are not allowed to do that" },
  404: { code: "not_found", message: "Not found" },
  405: { code: "bad_request", message: "Method not allowed" },
  406: { code: "bad_request", message: "Not acceptable" },
  413: { code: "payload_too_large", message: "Request body is too large" },
  414: { code: "uri_too_long", message: "The URL is too long" },
  415: { code: "unsupported_media_type", message: "Send the body as application/json" },
  416: { code: "bad_request", message: "Range not satisfiable" },
};

declare module "fastify" {
  interface FastifyInstance {
    /** "fail" in tests: an error answer whose code its endpoint did not declare becomes a 500. */
    undeclaredErrorCodes: "fail" | "allow";
  }
}

function send(reply: FastifyReply, status: number, code: ErrorCode, message: string, details?: unknown) {
  const declared = reply.request.routeOptions.config?.errorCodes;
  if (declared && !declared.has(code) && reply.server.undeclaredErrorCodes === "fail") {
    const { method, routeOptions } = reply.request;
    const problem = `${method} ${routeOptions.url} answered error code "${code}" (${status}), which its endpoint does not declare: add it to the endpoint's errors in packages/api`;
    reply.request.log.error({ code, status, message }, problem);
    return reply.code(500).send({ error: { code: "internal", message: problem } });
  }
  return reply.code(status).send({ error: { code, message, ...(details === undefined ? {} : { details }) } });
}

/**
 * Every error leaves in the one error shape `{ error: { code, message, details? } }`: our AppErrors
 * as they are, Fastify's and its plugins' client errors with fixed messages (no echo of the URL or
 * the body), anything else as a 500 whose cause is logged, not sent.
 */
export function handleError(err: FastifyError | AppError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    if (err.status === 429) {
      const retry = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
      if (retry) reply.header("retry-after", String(retry));
    }
    return send(reply, err.status, err.code, err.message, err.details);
  }
  const e = err as FastifyError & { status?: number };
  const status = e.statusCode ?? e.status ?? 500;
  if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE")
    return send(reply, 413, "payload_too_large", "Request body is too large");
  if (e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return send(reply, 415, "unsupported_media_type", "Send the body as application/json");
  }
  if (e.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError) {
    return send(reply, 400, "bad_request", "Body is not valid JSON");
  }
  if (e.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
    return send(reply, 400, "bad_request", "Body must not be empty");
  if (status >= 400 && status < 500) {
    const known = frameworkMessages[status] ?? { code: "bad_request", message: "The request is not valid" };
    req.log.info({ code: e.code, status }, "client error");
    return send(reply, status, known.code, known.message);
  }
  if (isChainUnavailable(err)) {
    req.log.warn({ err: { message: err.message, name: err.name } }, "chain RPC unavailable");
    reply.header("retry-after", "10");
    return send(reply, 503, "unavailable", "Crypto payments are paused, try again shortly");
  }
  if (isDatabaseUnavailable(err)) {
    req.log.warn({ err: { message: err.message, code: e.code } }, "database unavailable");
    reply.header("retry-after", "2");
    return send(reply, 503, "unavailable", "The service is briefly unavailable; try again in a few seconds");
  }
  req.log.error({ err }, "unhandled error");
  return send(reply, 500, "internal", "Something Went Wrong");
}

/** Errors Fastify raises before routing (a URL that is not valid %-encoding, for one). */
export function handleFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.code === "FST_ERR_BAD_URL") return send(reply, 400, "bad_request", "The URL is not valid");
  return handleError(err, req, reply);
}

/** 404 for API paths and files in the one error shape; the path is not echoed back. */
export function sendNotFound(reply: FastifyReply, message = "No such API route") {
  return send(reply, 404, "not_found", message);
}

/**
 * Errors Node's HTTP parser meets before there is a request to answer (Fastify's clientErrorHandler):
 * headers over the size limit (431), a request not complete in time (408), anything else that is not
 * HTTP (400). Answered in the one error shape, like every other error, and the connection closed.
 */
export function handleClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "headers_too_large", "The request's headers are too large"]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request_timeout", "The request did not arrive in time"]
        : [400, "bad_request", "The request is not valid HTTP"];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * `undeclaredErrorCodes: "fail"` (tests) turns an error answer whose code the route's endpoint does not
 * declare into a 500 naming the code, so a test meets it; in production the answer goes out as it is.
 */
export function installErrorHandler(
  app: FastifyInstance,
  { undeclaredErrorCodes }: { undeclaredErrorCodes: "fail" | "allow" },
): void {
  app.decorate("undeclaredErrorCodes", undeclaredErrorCodes);
  app.setErrorHandler(handleError);
}
