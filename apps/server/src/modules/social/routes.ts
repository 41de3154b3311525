import { socialEndpoints as api } from "@diginoor/api/social";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SocialService } from "./service.ts";
import type { AuthUser } from "../../http/access.ts";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import { optionalUser, type SessionReader } from "../accounts/session.ts";

/** Likes and follows a user may give in a minute (a script liking everything is stopped). */
const SOCIAL_WRITES: RateLimitRule = { name: "social:user", limit: 120, windowSeconds: 60 };

/** Likes, follows, public profiles, showcases, bids and activity (decision 151). */
export async function registerSocial(
  app: FastifyInstance,
  ctx: { social: SocialService; accounts: SessionReader },
): Promise<void> {
  const { social } = ctx;
  const id = (u: AuthUser | null) => (u as AuthUser).id;
  const viewer = async (req: FastifyRequest) => (await optionalUser(ctx.accounts, req))?.id ?? null;
  const writes = [{ rule: SOCIAL_WRITES, by: "user" as const }];

  route(app, api.likeNft, {
    permission: "signed-in",
    rateLimits: writes,
    handler: ({ user, params }) => social.like(id(user), params.id),
  });
  route(app, api.unlikeNft, {
    permission: "signed-in",
    rateLimits: writes,
    handler: ({ user, params }) => social.unlike(id(user), params.id),
  });
  route(app, api.listLikes, {
    permission: "public",
    handler: async ({ query, req, reply }) => {
      reply.header("cache-control", "no-store");
      return social.likes(query.nfts, await viewer(req));
    },
  });

  route(app, api.getProfile, {
    permission: "public",
    handler: async ({ params, req }) => social.profile(params.handle, await viewer(req)),
  });
  route(app, api.follow, {
    permission: "signed-in",
    rateLimits: writes,
    handler: ({ user, params }) => social.follow(id(user), params.handle),
  });
  route(app, api.unfollow, {
    permission: "signed-in",
    rateLimits: writes,
    handler: ({ user, params }) => social.unfollow(id(user), params.handle),
  });
  route(app, api.followers, {
    permission: "public",
    handler: ({ params }) => social.followList(params.handle, "followers"),
  });
  route(app, api.following, {
    permission: "public",
    handler: ({ params }) => social.followList(params.handle, "following"),
  });
  route(app, api.showcase, { permission: "public", handler: ({ params }) => social.showcase(params.handle) });
  route(app, api.activity, {
    permission: "public",
    handler: ({ params, query }) => social.activity(params.handle, query.tag),
  });

  route(app, api.myShowcase, { permission: "signed-in", handler: ({ user }) => social.myShowcase(id(user)) });
  route(app, api.arrangeShowcase, {
    permission: "signed-in",
    rateLimits: writes,
    handler: ({ user, body }) => social.arrangeShowcase(id(user), body),
  });
  route(app, api.myBids, { permission: "signed-in", handler: ({ user }) => social.myBids(id(user)) });
}
