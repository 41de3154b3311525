import fastifyMultipart from "@fastify/multipart";
import { IMAGE_MAX_BYTES, authMessages } from "@diginoor/api/auth";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../http/errors.ts";
import { readSingleFile } from "../../http/multipart.ts";
import { route } from "../../http/route.ts";
import { profileEndpoints as api, profileImageEndpoints } from "@diginoor/api/auth-endpoints";
import { publishToUser } from "../events/service.ts";
import { useFriendlyValidationMessages } from "./http.ts";
import * as accounts from "./service.ts";
import { clearSessionCookie, optionalUser, requireUser, toApiUser } from "./session.ts";
import { AVATAR_RENDITIONS, COVER_RENDITIONS, type Rendition } from "../media/service.ts";
import { limits } from "./limits.ts";

/** The signed-in user's own profile: read, edit, change email and password, avatar and cover. */
export async function registerUsers(app: FastifyInstance, ctx: accounts.AccountsDeps): Promise<void> {
  await app.register(async (scope) => {
    useFriendlyValidationMessages(scope);
    // Multipart only in this scope; one file, at most 5 MiB (the part stream is cut one byte over → 413).
    await scope.register(fastifyMultipart, {
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
    });
    registerRoutes(scope, ctx);
  });
}

function registerRoutes(app: FastifyInstance, ctx: accounts.AccountsDeps): void {
  route(app, api.session, {
    permission: "public",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      const user = await optionalUser(ctx, req);
      return { user: user ? toApiUser(user) : null };
    },
  });

  route(app, api.me, {
    permission: "signed-in",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return { user: toApiUser(await requireUser(ctx, req)) };
    },
  });

  route(app, api.updateMe, {
    permission: "signed-in",
    handler: async ({ req, body }) => {
      const user = toApiUser(await accounts.updateProfile(ctx, await requireUser(ctx, req), body));
      // The user's other tabs and devices see the change at once (GET /api/v1/events).
      await publishToUser(ctx.pubsub, user.id, { type: "profile.updated", user }, { database: ctx.database });
      return { user };
    },
  });

  route(app, api.changeEmail, {
    permission: "signed-in",
    handler: async ({ req, body }) => {
      const user = await requireUser(ctx, req);
      const { jobId, delivered } = await accounts.requestEmailChange(ctx, user, body);
      if (!delivered) {
        req.log.error({ jobId }, "email change verification failed; it will be retried");
        throw new AppError(503, "mail_failed", authMessages.verificationSendFailed);
      }
      return { ok: true as const };
    },
  });

  route(app, api.changePassword, {
    permission: "signed-in",
    handler: async ({ req, reply, body }) => {
      const user = await requireUser(ctx, req);
      await accounts.changePassword(ctx, user, body);
      clearSessionCookie(ctx.config, reply);
      return { ok: true as const };
    },
  });

  const upload = (kind: "avatar" | "cover", renditions: Rendition[]) =>
    route(app, profileImageEndpoints[kind], {
      permission: "signed-in",
      rateLimits: [{ rule: limits.uploadPerUser, by: "user" }],
      handler: async ({ req }) => {
        const user = await requireUser(ctx, req);
        const data = await readSingleFile(req);
        const updated = await accounts.setProfileImage(ctx, user, kind, data, renditions);
        return { user: toApiUser(updated) };
      },
    });
  upload("avatar", AVATAR_RENDITIONS);
  upload("cover", COVER_RENDITIONS);
}
