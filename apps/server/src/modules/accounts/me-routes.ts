import fastifyMultipart from "@fastify/multipart";
import { IMAGE_MAX_BYTES, authMessages } from "@diginoor/api/auth";
import type { FastifyInstance } from "fastify";
import { AppError } from "../../http/errors.ts";
import { readSingleFile } from "../../http/multipart.ts";
import { route } from "../../http/route.ts";
import { profileEndpoints as api, profileImageEndpoints } from "@diginoor/api/auth-endpoints";
import { publishToUser } from "../events/service.ts";
import { useFriendlyValidationMessages } from "./http.ts";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { AccountsService } from "./service.ts";
import { clearSessionCookie, optionalUser, requireUser, toApiUser } from "./session.ts";
import { AVATAR_RENDITIONS, COVER_RENDITIONS, type Rendition } from "../media/service.ts";
import { limits } from "./limits.ts";

/** What the profile routes use: the accounts service, and where a changed profile is announced. */
export interface UsersRoutesDeps {
  accounts: AccountsService;
  config: Config;
  pubsub: PubSub;
  database: Database;
}

/** The signed-in user's own profile: read, edit, change email and password, avatar and cover. */
export async function registerUsers(app: FastifyInstance, ctx: UsersRoutesDeps): Promise<void> {
  await app.register(async (scope) => {
    useFriendlyValidationMessages(scope);
    // Multipart only in this scope; one file, at most 5 MiB (the part stream is cut one byte over → 413).
    await scope.register(fastifyMultipart, {
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
    });
    registerRoutes(scope, ctx);
  });
}

function registerRoutes(app: FastifyInstance, ctx: UsersRoutesDeps): void {
  const { accounts } = ctx;
  route(app, api.session, {
    permission: "public",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      const user = await optionalUser(accounts, req);
      return { user: user ? toApiUser(user) : null };
    },
  });

  route(app, api.me, {
    permission: "signed-in",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return { user: toApiUser(await requireUser(accounts, req)) };
    },
  });

  route(app, api.updateMe, {
    permission: "signed-in",
    handler: async ({ req, body }) => {
      const user = toApiUser(await accounts.updateProfile(await requireUser(accounts, req), body));
      // The user's other tabs and devices see the change at once (GET /api/v1/events).
      await publishToUser(ctx.pubsub, user.id, { type: "profile.updated", user }, { database: ctx.database });
      return { user };
    },
  });

  route(app, api.changeEmail, {
    permission: "signed-in",
    handler: async ({ req, body }) => {
      const user = await requireUser(accounts, req);
      const { jobId, delivered } = await accounts.requestEmailChange(user, body);
      if (!delivered) {
        req.log.error({ jobId }, "email change verification failed; it will be retried");
        throw new AppError("mail_failed", authMessages.verificationSendFailed);
      }
      return { ok: true as const };
    },
  });

  route(app, api.changePassword, {
    permission: "signed-in",
    handler: async ({ req, reply, body }) => {
      const user = await requireUser(accounts, req);
      await accounts.changePassword(user, body);
      clearSessionCookie(ctx.config, reply);
      return { ok: true as const };
    },
  });

  const upload = (kind: "avatar" | "cover", renditions: Rendition[]) =>
    route(app, profileImageEndpoints[kind], {
      permission: "signed-in",
      rateLimits: [{ rule: limits.uploadPerUser, by: "user" }],
      handler: async ({ req }) => {
        const user = await requireUser(accounts, req);
        const data = await readSingleFile(req);
        const updated = await accounts.setProfileImage(user, kind, data, renditions);
        return { user: toApiUser(updated) };
      },
    });
  upload("avatar", AVATAR_RENDITIONS);
  upload("cover", COVER_RENDITIONS);
}
