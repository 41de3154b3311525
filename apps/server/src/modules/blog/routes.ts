import { listPostsQuerySchema, postDetailSchema, postListResponseSchema } from "@diginoor/api/blog";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";
import { rssFeed } from "./rss.ts";
import { blogServiceFor } from "./service.ts";

const slugParams = z.object({ slug: z.string().min(1).max(200) }).strict();

/** GET /api/v1/posts, GET /api/v1/posts/:slug and the RSS feed /blog/rss.xml. */
export async function registerBlog(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = blogServiceFor(ctx, app.log);
  const tags = ["blog"];

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/posts",
    summary: "Blog posts: the featured ones and a page of all, newest first (cursor pagination)",
    tags,
    query: listPostsQuerySchema,
    response: postListResponseSchema,
    handler: ({ query }) => service.listPosts(query),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/posts/:slug",
    summary: "One blog post with its body as sanitized HTML",
    tags,
    params: slugParams,
    response: postDetailSchema,
    errors: [404],
    handler: ({ params }) => service.getPost(params.slug),
  });

  app.get("/blog/rss.xml", async (_req, reply) => {
    const posts = await service.allPosts(50);
    return reply
      .type("application/rss+xml; charset=utf-8")
      .header("cache-control", "public, max-age=300")
      .send(rssFeed(ctx.config.PUBLIC_URL, posts));
  });
}
