import fastifyMultipart from "@fastify/multipart";
import {
  IMAGE_MAX_BYTES,
  authMessages,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  okResponseSchema,
  sessionResponseSchema,
  updateMeRequestSchema,
  userResponseSchema,
} from "@diginoor/api/auth";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";
import { readSingleFile } from "../../http/multipart.ts";
import { defineRoute, route } from "../../http/route.ts";
import { profileImageEndpoints } from "@diginoor/api/auth-endpoints";
import { publishToUser } from "../events/service.ts";
import { useFriendlyValidationMessages } from "./http.ts";
import * as accounts from "./service.ts";
import { clearSessionCookie, optionalUser, requireUser, toApiUser } from "./session.ts";
import { AVATAR_RENDITIONS, COVER_RENDITIONS, type Rendition } from "../media/service.ts";
import { limits } from "./limits.ts";

/** The signed-in user's own profile: read, edit, change email and password, avatar and cover. */
export async function registerUsers(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    useFriendlyValidationMessages(scope);
    // Multipart only in this scope; one file, at most 5 MiB (the part stream is cut one byte over → 413).
    await scope.register(fastifyMultipart, {
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
    });
    registerRoutes(scope, ctx);
  });
}

function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ["profile"];

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/session",
    summary: "The signed-in user, or null for a visitor (200 either way; the web app's session probe)",
    tags,
    response: sessionResponseSchema,
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      const user = await optionalUser(ctx, req);
      return { user: user ? toApiUser(user) : null };
    },
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/me",
    summary: "The signed-in user",
    tags,
    auth: true,
    response: userResponseSchema,
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return { user: toApiUser(await requireUser(ctx, req)) };
    },
  });

  defineRoute(app, {
    method: "PATCH",
    url: "/api/v1/me",
    summary: "Change the signed-in user's name or phone",
    tags,
    auth: true,
    body: updateMeRequestSchema,
    response: userResponseSchema,
    handler: async ({ req, body }) => {
      const user = toApiUser(await accounts.updateProfile(ctx, await requireUser(ctx, req), body));
      // The user's other tabs and devices see the change at once (GET /api/v1/events).
      await publishToUser(ctx.pubsub, user.id, { type: "profile.updated", user });
      return { user };
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/me/email",
    summary: "Ask to change the email address; the new address receives a verification link",
    tags,
    auth: true,
    body: changeEmailRequestSchema,
    status: 202,
    errors: [409],
    response: okResponseSchema,
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

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/me/password",
    summary: "Change the password (current password required); ends every session, including this one",
    tags,
    auth: true,
    body: changePasswordRequestSchema,
    response: okResponseSchema,
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
