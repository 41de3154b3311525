// The studio console's HTTP side: /api/v1/admin/... (decision 132). Routes parse, declare who may
// call them (administrators, or staff: administrators and studio accounts, whom the service limits
// to their own production house) and call the service.
import { adminEndpoints } from "@diginoor/api/admin";
import { IMAGE_MAX_BYTES } from "@diginoor/api/auth";
import fastifyMultipart from "@fastify/multipart";
import { orderEndpoints } from "@diginoor/api/orders";
import { lotteryEndpoints } from "@diginoor/api/lottery";
import type { FastifyInstance } from "fastify";
import type { AuthUser } from "../../http/access.ts";
import { AppError } from "../../http/errors.ts";
import { readSingleFile } from "../../http/multipart.ts";
import { route } from "../../http/route.ts";
import type { AdminService } from "./service.ts";

/** Uploads per staff member, a sliding hour. */
const UPLOAD_LIMIT = { name: "admin-upload:user", limit: 120, windowSeconds: 3600 };
/** A post's Markdown may be up to 200,000 characters. */
const POST_BODY_LIMIT = 1024 * 1024;

function actorOf(user: AuthUser | null): AuthUser {
  if (!user) throw AppError.unauthorized();
  return user;
}

export async function registerAdmin(app: FastifyInstance, service: AdminService): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
    });
    registerRoutes(scope, service);
  });
}

function registerRoutes(app: FastifyInstance, service: AdminService): void {
  const e = adminEndpoints;
  const staff = "studio" as const;
  const admin = "admin" as const;

  route(app, e.me, { permission: staff, handler: ({ user }) => service.me(actorOf(user)) });
  route(app, lotteryEndpoints.admin.list, {
    permission: staff,
    handler: ({ user }) => service.listLotteries(actorOf(user)),
  });
  route(app, lotteryEndpoints.admin.create, {
    permission: staff,
    handler: async ({ user, body, reply }) => {
      reply.code(201);
      return service.createLottery(actorOf(user), body);
    },
  });
  route(app, lotteryEndpoints.admin.update, {
    permission: staff,
    handler: ({ user, params, body }) => service.updateLottery(actorOf(user), params.id, body),
  });
  route(app, lotteryEndpoints.admin.payPrize, {
    permission: admin,
    handler: ({ user, params, body }) => service.payLotteryPrize(actorOf(user), params.id, body.reference),
  });
  route(app, orderEndpoints.adminRetryFulfilment, {
    permission: admin,
    handler: ({ user, params }) => service.retryOrderFulfilment(actorOf(user), params.orderId),
  });
  route(app, orderEndpoints.adminRefundOrder, {
    permission: admin,
    handler: ({ user, params }) => service.refundOrder(actorOf(user), params.orderId),
  });

  route(app, e.studios.list, {
    permission: staff,
    handler: ({ user }) => service.listStudios(actorOf(user)),
  });
  route(app, e.studios.create, {
    permission: admin,
    handler: ({ user, body }) => service.createStudio(actorOf(user), body),
  });
  route(app, e.studios.update, {
    permission: admin,
    handler: ({ user, params, body }) => service.updateStudio(actorOf(user), params.id, body),
  });

  route(app, e.celebrities.list, {
    permission: staff,
    handler: ({ user }) => service.listCelebrities(actorOf(user)),
  });
  route(app, e.celebrities.create, {
    permission: admin,
    handler: ({ user, body }) => service.createCelebrity(actorOf(user), body),
  });
  route(app, e.celebrities.update, {
    permission: admin,
    handler: ({ user, params, body }) => service.updateCelebrity(actorOf(user), params.id, body),
  });

  route(app, e.films.list, { permission: staff, handler: ({ user }) => service.listFilms(actorOf(user)) });
  route(app, e.films.create, {
    permission: staff,
    handler: ({ user, body }) => service.createFilm(actorOf(user), body),
  });
  route(app, e.films.update, {
    permission: staff,
    handler: ({ user, params, body }) => service.updateFilm(actorOf(user), params.id, body),
  });

  route(app, e.nfts.list, { permission: staff, handler: ({ user }) => service.listNfts(actorOf(user)) });
  route(app, e.nfts.create, {
    permission: staff,
    handler: ({ user, body }) => service.createNft(actorOf(user), body),
  });
  route(app, e.nfts.update, {
    permission: staff,
    handler: ({ user, params, body }) => service.updateNft(actorOf(user), params.id, body),
  });

  route(app, e.posts.list, { permission: admin, handler: ({ user }) => service.listPosts(actorOf(user)) });
  route(app, e.posts.create, {
    permission: admin,
    bodyLimit: POST_BODY_LIMIT,
    handler: ({ user, body }) => service.createPost(actorOf(user), body),
  });
  route(app, e.posts.update, {
    permission: admin,
    bodyLimit: POST_BODY_LIMIT,
    handler: ({ user, params, body }) => service.updatePost(actorOf(user), params.slug, body),
  });

  route(app, e.upload, {
    permission: staff,
    rateLimits: [{ rule: UPLOAD_LIMIT, by: "user" }],
    handler: async ({ user, query, req }) => ({
      images: await service.uploadImage(actorOf(user), query.purpose, await readSingleFile(req)),
    }),
  });

  route(app, e.listUsers, {
    permission: admin,
    handler: ({ user, query }) => service.listUsers(actorOf(user), query),
  });
  route(app, e.suspendUser, {
    permission: admin,
    handler: ({ user, params }) => service.setSuspended(actorOf(user), params.id, true),
  });
  route(app, e.unsuspendUser, {
    permission: admin,
    handler: ({ user, params }) => service.setSuspended(actorOf(user), params.id, false),
  });
  route(app, e.setUserRole, {
    permission: admin,
    handler: ({ user, params, body }) => service.setRole(actorOf(user), params.id, body),
  });

  route(app, e.contactMessages, {
    permission: admin,
    handler: ({ user, query }) => service.contactMessages(actorOf(user), query),
  });
  route(app, e.newsletterCsv, {
    permission: admin,
    handler: async ({ user, reply }) => {
      const csv = await service.newsletterCsv(actorOf(user));
      return reply
        .code(200)
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="newsletter-subscribers.csv"')
        .header("cache-control", "no-store")
        .send(csv);
    },
  });
  route(app, e.auditLog, {
    permission: admin,
    handler: ({ user, query }) => service.auditLog(actorOf(user), query),
  });

  route(app, e.hiddenTokens, {
    permission: admin,
    handler: ({ user }) => service.hiddenTokens(actorOf(user)),
  });
  route(app, e.hideToken, {
    permission: admin,
    handler: ({ user, params, body }) => service.hideToken(actorOf(user), params.tokenId, body),
  });
  route(app, e.chainMetadata, {
    permission: admin,
    handler: ({ user }) => service.chainMetadata(actorOf(user)),
  });
  route(app, e.ipfsExit, {
    permission: admin,
    handler: ({ user, body }) => service.exitToIpfs(actorOf(user), body.rootCid),
  });
  route(app, e.unhideToken, {
    permission: admin,
    handler: async ({ user, params }) => {
      await service.unhideToken(actorOf(user), params.tokenId);
      return undefined;
    },
  });
}
