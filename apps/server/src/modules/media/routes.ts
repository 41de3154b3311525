import fs from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { notModified } from "../../http/etag.ts";
import { AppError } from "../../http/errors.ts";
import { type Storage, isSafeKey } from "../../lib/storage/storage.ts";
import { isRenditionWidth, type Renditions } from "./renditions.ts";

/**
 * GET /media/_r/:width/<path>: the WebP rendition of the picture served at /media/<path>, `width`
 * pixels wide (one of RENDITION_WIDTHS). Made on the first request and kept; "_r" can never be a
 * storage key (keys start with a letter or digit), so no uploaded file is shadowed.
 *
 * A first request waits at most `waitMs` for the rendition (renders queue two at a time): past that
 * it gets the original picture, marked not to be cached, and the rendition is still made for the
 * next request. A page full of new pictures on a busy server shows them all at once instead of
 * one after another (0 = always wait).
 */
export function registerMediaRenditions(
  app: FastifyInstance,
  renditions: Renditions,
  opts: { waitMs: number },
): void {
  app.route({
    method: ["GET", "HEAD"],
    url: "/media/_r/:width/*",
    schema: { hide: true },
    handler: async (req, reply) => {
      const { width, "*": rest } = req.params as { width: string; "*": string };
      const w = Number(width);
      if (String(w) !== width || !isRenditionWidth(w)) throw AppError.notFound("Picture");
      const found = await renditions.get(rest, w, { waitMs: opts.waitMs });
      if (!found) throw AppError.notFound("Picture");
      if ("late" in found) {
        reply.header("cache-control", "no-store").header("x-content-type-options", "nosniff");
        return reply.type(found.contentType).send(found.data);
      }
      reply.header("cache-control", "public, max-age=86400").header("vary", "Accept-Encoding");
      if (notModified(req, reply, found.etag)) return reply;
      return reply.type("image/webp").send(await fs.readFile(found.file));
    },
  });
}

/** Cached for a year and never revalidated: an object never changes under its key (decision 162). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * GET /media/* from whichever storage is configured, with the content hash as a strong ETag
 * (If-None-Match answers 304) and immutable caching.
 */
export function registerMedia(app: FastifyInstance, storage: Pick<Storage, "get">): void {
  app.get("/media/*", async (req, reply) => {
    const key = (req.params as { "*": string })["*"];
    const obj = isSafeKey(key) ? await storage.get(key) : null;
    if (!obj) throw new AppError("not_found", "No such file");
    reply.header("cache-control", IMMUTABLE).header("x-content-type-options", "nosniff");
    if (notModified(req, reply, `"${obj.sha256}"`)) return reply;
    return reply.type(obj.contentType).header("content-length", obj.data.length).send(obj.data);
  });
}
