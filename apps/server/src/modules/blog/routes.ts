import { blogEndpoints as api } from "@diginoor/api/blog";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../http/route.ts";
import { rssFeed } from "./rss.ts";
import { blogServiceFor } from "./service.ts";

/** GET /api/v1/posts, GET /api/v1/posts/:slug and the RSS feed /blog/rss.xml. */
export async function registerBlog(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = blogServiceFor(ctx, app.log);

  route(app, api.listPosts, { permission: "public", handler: ({ query }) => service.listPosts(query) });
  route(app, api.getPost, { permission: "public", handler: ({ params }) => service.getPost(params.slug) });

  app.get("/blog/rss.xml", async (_req, reply) => {
    const posts = await service.allPosts(50);
    return reply
      .type("application/rss+xml; charset=utf-8")
      .header("cache-control", "public, max-age=300")
      .send(rssFeed(ctx.config.PUBLIC_URL, posts));
  });
}
