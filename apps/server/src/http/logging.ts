import type { FastifyRequest } from "fastify";
import type { LoggerOptions } from "pino";
import type { Config } from "../config.ts";

/**
 * Query parameters whose values are secrets: the verification and reset `token`, OAuth's `code`,
 * `state` and `nonce`, and anything named like a password, key, signature or session. Matched
 * against the decoded parameter name, case-insensitively.
 */
const SECRET_PARAM =
  /token|secret|passw|(^|[_.-])(code|state|nonce|pass|key|sig|signature|session|otp|jwt|ticket|auth|credentials?)$/i;

export const REDACTED = "[REDACTED]";

/** The URL with the values of secret query parameters replaced by [REDACTED]; the rest unchanged. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      const rawName = eq < 0 ? part : part.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // Badly encoded names are judged as written.
      }
      return SECRET_PARAM.test(name) && eq >= 0 ? `${rawName}=${REDACTED}` : part;
    })
    .join("&");
  return `${url.slice(0, q)}?${query}`;
}

/** How a request appears in the log: Fastify's default fields, with secrets taken out of the URL. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The server's pino options: off in tests unless a stream is given (tests of the log itself). */
export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): false | (LoggerOptions & { stream?: NodeJS.WritableStream }) {
  if (config.NODE_ENV === "test" && !stream) return false;
  return {
    level: config.LOG_LEVEL,
    serializers: { req: serializeRequest as (req: unknown) => unknown },
    // Headers are not logged by default; should anyone add them, these never reach the log.
    redact: {
      paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    ...(stream ? { stream } : {}),
  };
}
