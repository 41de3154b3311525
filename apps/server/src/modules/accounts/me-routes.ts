import path from "node:path";
import fastifyMultipart from "@fastify/multipart";
import {
  IMAGE_MAX_BYTES,
  authMessages,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  okResponseSchema,
  updateMeRequestSchema,
  userResponseSchema,
} from "@diginoor/api/auth";
import { and, eq, ne, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context.ts";
import { type UserRow, users } from "./tables.ts";
import { AppError } from "../../http/errors.ts";
import { defineRoute } from "../../http/route.ts";
import { localStorage } from "../../lib/storage/local.ts";
import type { Storage } from "../../lib/storage/storage.ts";
import { newSecret } from "./tokens.ts";
import { withTransaction } from "../../platform/tx.ts";
import { MAIL_ATTEMPT_WAIT_MS, accountMail, revokeTokens } from "./accounts.ts";
import { limits, useFriendlyValidationMessages } from "./http.ts";
import { hitSlidingLimit } from "./limits.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { endAllSessions, clearSessionCookie, requireUser, toApiUser } from "./session.ts";
import {
  AVATAR_RENDITIONS,
  COVER_RENDITIONS,
  type Rendition,
  checkImage,
  renderImage,
} from "../media/images.ts";

/** The signed-in user's own profile: read, edit, change email and password, avatar and cover. */
export async function registerUsers(app: FastifyInstance, ctx: AppContext, storage?: Storage): Promise<void> {
  const store = storage ?? localStorage(path.join(ctx.config.DATA_DIR, "media"));
  await app.register(async (scope) => {
    useFriendlyValidationMessages(scope);
    // Multipart only in this scope; one file, at most 5 MiB (the part stream is cut one byte over → 413).
    await scope.register(fastifyMultipart, {
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
    });
    registerRoutes(scope, ctx, store);
  });
}

async function checkCurrentPassword(ctx: AppContext, user: UserRow, password: string): Promise<void> {
  await hitSlidingLimit(ctx.db, limits.passwordCheckPerUser, user.id);
  if (!user.passwordHash) {
    throw new AppError(
      400,
      "no_password",
      "Your account signs in with Google. Set a password first with 'Forgot password?'.",
    );
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError(400, "validation_failed", authMessages.wrongCurrentPassword, [
      { field: "currentPassword", message: authMessages.wrongCurrentPassword },
    ]);
  }
}

function registerRoutes(app: FastifyInstance, ctx: AppContext, store: Storage): void {
  const tags = ["profile"];

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/me",
    summary: "The signed-in user",
    tags,
    auth: true,
    response: userResponseSchema,
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return { user: toApiUser(await requireUser(req)) };
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
      const user = await requireUser(req);
      const changes: Partial<typeof users.$inferInsert> = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.phone !== undefined) changes.phone = body.phone;
      if (Object.keys(changes).length === 0) return { user: toApiUser(user) };
      const updated = await ctx.db
        .update(users)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(users.id, user.id))
        .returning();
      return { user: toApiUser(updated[0] ?? user) };
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
      const user = await requireUser(req);
      await checkCurrentPassword(ctx, user, body.currentPassword);
      if (body.email === user.email) {
        throw new AppError(400, "validation_failed", "This is already your email address", [
          { field: "email", message: "This is already your email address" },
        ]);
      }
      await hitSlidingLimit(ctx.db, limits.emailChangePerUser, user.id);
      const taken = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${body.email}`, ne(users.id, user.id)))
        .limit(1);
      if (taken.length) throw new AppError(409, "email_taken", authMessages.emailTaken);
      // Only the newest link works: older links die in the transaction that queues the new one.
      const jobId = await withTransaction(ctx.database, async (tx) => {
        await revokeTokens({ ...ctx, db: tx.db }, user.id, "verify_email");
        const mail = { kind: "verify_email" as const, userId: user.id, email: body.email };
        return ctx.jobs.enqueue(accountMail, mail, { tx });
      });
      if ((await ctx.jobs.waitForAttempt(jobId, MAIL_ATTEMPT_WAIT_MS)) === "failed") {
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
      const user = await requireUser(req);
      await checkCurrentPassword(ctx, user, body.currentPassword);
      const passwordHash = await hashPassword(body.password);
      // The new password, the revoked links and the ended sessions commit together.
      await withTransaction(ctx.database, async (tx) => {
        const at = { ...ctx, db: tx.db };
        await tx.db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await revokeTokens(at, user.id, "password_reset");
        // A pending email change asked for by whoever had the old password must not survive it.
        await revokeTokens(at, user.id, "verify_email");
        await endAllSessions(tx.db, user.id);
      });
      clearSessionCookie(ctx.config, reply);
      return { ok: true as const };
    },
  });

  const upload = (kind: "avatar" | "cover", renditions: Rendition[]) =>
    defineRoute(app, {
      method: "POST",
      url: `/api/v1/me/${kind}`,
      summary: `Upload a new ${kind} (multipart/form-data, one field "file": JPEG or PNG, at most 5 MiB)`,
      tags,
      auth: true,
      errors: [413, 415],
      response: userResponseSchema,
      handler: async ({ req }) => {
        const user = await requireUser(req);
        await hitSlidingLimit(ctx.db, limits.uploadPerUser, user.id);
        const data = await readSingleFile(req);
        await checkImage(data);
        const rendered = await renderImage(data, renditions);
        // A fresh random key per upload: nobody can overwrite another user's (or an older) file.
        const base = `${kind}s/${user.id}/${newSecret().slice(0, 22)}`;
        for (const r of rendered) await store.put(`${base}${r.suffix}.webp`, r.data, "image/webp");
        const keyColumn = kind === "avatar" ? users.avatarKey : users.coverKey;
        const previous = await ctx.db
          .select({ key: keyColumn })
          .from(users)
          .where(eq(users.id, user.id))
          .limit(1);
        const url = store.url(`${base}.webp`);
        const updated = await ctx.db
          .update(users)
          .set(
            kind === "avatar"
              ? { avatarKey: base, avatarUrl: url, updatedAt: sql`now()` }
              : { coverKey: base, coverUrl: url, updatedAt: sql`now()` },
          )
          .where(eq(users.id, user.id))
          .returning();
        const old = previous[0]?.key;
        if (old && old !== base) {
          for (const r of renditions) await store.delete(`${old}${r.suffix}.webp`).catch(() => {});
        }
        return { user: toApiUser(updated[0] ?? user) };
      },
    });
  upload("avatar", AVATAR_RENDITIONS);
  upload("cover", COVER_RENDITIONS);
}

/** The one `file` part of a multipart request, fully read (413 above the limit, 415 if not multipart). */
async function readSingleFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) {
    throw new AppError(
      415,
      "unsupported_media_type",
      'Send the image as multipart/form-data in the field "file"',
    );
  }
  const oneFile = () =>
    new AppError(400, "validation_failed", 'Send exactly one image in the field "file"', [
      { field: "file", message: 'Send exactly one image in the field "file"' },
    ]);
  let data: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== "file") continue;
      if (data !== undefined || part.fieldname !== "file") throw oneFile();
      data = await part.toBuffer();
      if (part.file.truncated) throw new AppError(413, "payload_too_large", authMessages.imageTooLarge);
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError(413, "payload_too_large", authMessages.imageTooLarge);
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw oneFile();
    throw err;
  }
  if (data === undefined) throw oneFile();
  return data;
}
