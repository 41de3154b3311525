import { blogEndpoints as api } from "@diginoor/api/blog";
import type { FastifyInstance } from "fastify";
import { etagOf, notModified } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import { isSafeKey, type Storage } from "../../lib/storage/storage.ts";
import { rssFeed } from "./rss.ts";
import type { BlogService } from "./service.ts";

/** GET /api/v1/posts, GET /api/v1/posts/:slug and the RSS feed /blog/rss.xml. */
export async function registerBlog(
  app: FastifyInstance,
  ctx: { blog: BlogService; storage: Storage; publicUrl: string },
): Promise<void> {
  const service = ctx.blog;

  route(app, api.listPosts, { permission: "public", handler: ({ query }) => service.listPosts(query) });
  route(app, api.getPost, { permission: "public", handler: ({ params }) => service.getPost(params.slug) });

  // Byte lengths of covers in our media storage, by storage key: an object never changes under its
  // key (decision 162), so a length once read stays true. Bounded: cleared when it grows large.
  const lengthByKey = new Map<string, number>();
  async function coverLength(url: string): Promise<number | undefined> {
    const key = url.startsWith("/media/") ? url.slice("/media/".length) : undefined;
    if (!key || !isSafeKey(key)) return undefined;
    const known = lengthByKey.get(key);
    if (known !== undefined) return known;
    const obj = await ctx.storage.get(key);
    if (!obj) return undefined;
    if (lengthByKey.size >= 10_000) lengthByKey.clear();
    lengthByKey.set(key, obj.data.length);
    return obj.data.length;
  }

  app.get("/blog/rss.xml", async (req, reply) => {
    const posts = await service.allPosts(50);
    const lengths = new Map<string, number>();
    for (const p of posts) {
      const length = p.coverImageUrl ? await coverLength(p.coverImageUrl) : undefined;
      if (p.coverImageUrl && length !== undefined) lengths.set(p.coverImageUrl, length);
    }
    const xml = rssFeed(ctx.publicUrl, posts, lengths);
    reply.type("application/rss+xml; charset=utf-8").header("cache-control", "public, max-age=300");
    if (notModified(req, reply, etagOf(xml))) return reply;
    return reply.send(xml);
  });
}
