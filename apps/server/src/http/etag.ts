import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A strong ETag: the SHA-256 of the exact bytes sent (base64url, quoted). */
export function etagOf(body: string | Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url")}"`;
}

/** Whether an If-None-Match header names `etag` (a list, weak forms and `*` included; RFC 9110 13.1.2). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strong = etag.replace(/^W\//, "");
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === strong;
  });
}

/**
 * Sets the ETag of a body about to be sent and answers 304 without it when the client holds that
 * version already. Returns true when the 304 was sent.
 */
export function notModified(req: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header("etag", etag);
  if (!ifNoneMatch(req.headers["if-none-match"], etag)) return false;
  reply.code(304).send();
  return true;
}
