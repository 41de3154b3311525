import type { FastifyInstance } from "fastify";
import { AppError } from "../../http/errors.ts";
import { type Storage, isSafeKey } from "../../lib/storage/storage.ts";

/** Cached for a year and never revalidated: an object never changes under its key (decision 160). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * GET /media/* from whichever storage is configured, with the content hash as a strong ETag
 * (If-None-Match answers 304) and immutable caching.
 */
export function registerMedia(app: FastifyInstance, storage: Pick<Storage, "get">): void {
  app.get("/media/*", async (req, reply) => {
    const key = (req.params as { "*": string })["*"];
    const obj = isSafeKey(key) ? await storage.get(key) : null;
    if (!obj) throw new AppError(404, "not_found", "No such file");
    const etag = `"${obj.sha256}"`;
    reply.header("etag", etag).header("cache-control", IMMUTABLE).header("x-content-type-options", "nosniff");
    const match = req.headers["if-none-match"];
    if (match?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
      return reply.code(304).send();
    }
    return reply.type(obj.contentType).header("content-length", obj.data.length).send(obj.data);
  });
}
