import { catalogueEndpoints } from "@diginoor/api/catalogue";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { ContactService } from "./service.ts";

/** Per client address (IPv6 per /64), a sliding minute. */
const RATE_LIMIT = { name: "contact:ip", limit: 10, windowSeconds: 60 };
/** The form is small; anything larger is refused with 413 before it is read. */
const BODY_LIMIT = 64 * 1024;

/** POST /api/v1/contact. */
export async function registerContact(app: FastifyInstance, service: ContactService): Promise<void> {
  // JSON only: without Fastify's default text/plain parser a text body is a 415 instead of a
  // confusing validation error. Content-type parsers are scoped to this plugin.
  await app.register(async (forms) => {
    forms.removeContentTypeParser("text/plain");

    route(forms, catalogueEndpoints.sendContactMessage, {
      permission: "public",
      rateLimits: [{ rule: RATE_LIMIT, by: "ip" }],
      bodyLimit: BODY_LIMIT,
      handler: async ({ body, req }) => {
        await service.submit(body, req.ip ?? null);
        return { ok: true as const };
      },
    });
  });
}
