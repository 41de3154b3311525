import { contactRequestSchema, createdResponseSchema } from "@diginoor/api/catalogue";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";
import { hitRateLimit } from "../../lib/rate-limit.ts";
import { createContactService } from "./service.ts";

/** Per client address, per minute. */
const RATE_LIMIT = { limit: 10, windowSeconds: 60 };
/** The form is small; anything larger is refused with 413 before it is read. */
const BODY_LIMIT = 64 * 1024;

/** POST /api/v1/contact. */
export async function registerContact(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = createContactService(ctx.db);
  // JSON only: without Fastify's default text/plain parser a text body is a 415 instead of a
  // confusing validation error. Content-type parsers are scoped to this plugin.
  await app.register(async (forms) => {
    forms.removeContentTypeParser("text/plain");

    defineRoute(forms, {
      method: "POST",
      url: "/api/v1/contact",
      summary: "Send a message to the team",
      tags: ["catalogue"],
      body: contactRequestSchema,
      status: 201,
      bodyLimit: BODY_LIMIT,
      response: createdResponseSchema,
      errors: [413, 415],
      handler: async ({ body, req }) => {
        await hitRateLimit(ctx.db, { name: "contact:ip", ...RATE_LIMIT }, req.ip);
        await service.submit(body, req.ip ?? null);
        return { ok: true as const };
      },
    });
  });
}
