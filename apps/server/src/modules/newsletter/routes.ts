import { createdResponseSchema, newsletterRequestSchema } from "@diginoor/api/catalogue";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";
import { hitRateLimit } from "../../lib/rate-limit.ts";
import { createNewsletterService } from "./service.ts";

/** Per client address, per minute. */
const RATE_LIMIT = { limit: 10, windowSeconds: 60 };
/** The form is small; anything larger is refused with 413 before it is read. */
const BODY_LIMIT = 64 * 1024;

/** POST /api/v1/newsletter. */
export async function registerNewsletter(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = createNewsletterService(ctx.db);
  // JSON only: without Fastify's default text/plain parser a text body is a 415 instead of a
  // confusing validation error. Content-type parsers are scoped to this plugin.
  await app.register(async (forms) => {
    forms.removeContentTypeParser("text/plain");

    defineRoute(forms, {
      method: "POST",
      url: "/api/v1/newsletter",
      summary: "Subscribe an email address to the newsletter (subscribing twice is fine)",
      tags: ["catalogue"],
      body: newsletterRequestSchema,
      status: 201,
      bodyLimit: BODY_LIMIT,
      response: createdResponseSchema,
      errors: [413, 415],
      handler: async ({ body, req }) => {
        await hitRateLimit(ctx.db, { name: "newsletter:ip", ...RATE_LIMIT }, req.ip);
        await service.subscribe(body.email);
        return { ok: true as const };
      },
    });
  });
}
