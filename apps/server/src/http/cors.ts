import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * The public read-only files any site may read (issue 23 point 12): token metadata (what `tokenURI`
 * names, read by wallets and dApps in the browser) and media (the pictures the metadata names). Only
 * these: the rest of the API works with our session cookie and stays same-origin (no CORS headers,
 * so a browser keeps other sites from reading it).
 */
const PUBLIC_READ_ONLY = /^\/(?:media\/|api\/v1\/metadata\/)/;

/** Request headers a reader may send (conditional and range requests); the rest are safelisted. */
const ALLOWED_HEADERS = "If-None-Match, If-Modified-Since, Range, Cache-Control";

export function isPublicReadOnly(url: string): boolean {
  return PUBLIC_READ_ONLY.test(url);
}

/**
 * `Access-Control-Allow-Origin: *` on every answer of those paths (errors and 304s too, so a reader
 * can tell a missing token from a network failure), and their preflights answered 204 with GET and
 * HEAD. No credentials: `*` never carries cookies.
 */
export function installPublicCors(app: FastifyInstance, routes: readonly string[]): void {
  app.addHook("onSend", async (req, reply) => {
    if (!isPublicReadOnly(req.url)) return;
    reply.header("access-control-allow-origin", "*");
    reply.header("access-control-expose-headers", "ETag");
  });
  const preflight = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .header("access-control-allow-methods", "GET, HEAD")
      .header("access-control-allow-headers", ALLOWED_HEADERS)
      .header("access-control-max-age", "86400")
      .send();
  for (const url of routes) {
    app.route({
      method: "OPTIONS",
      url,
      schema: { hide: true },
      config: { permission: "public" },
      handler: preflight,
    });
  }
}
