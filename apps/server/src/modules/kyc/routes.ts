import { kycEndpoints as api } from "@diginoor/api/kyc";
import type { FastifyInstance } from "fastify";
import { rawBodyRoutes } from "../../http/raw-body.ts";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import { outboxThroughApp } from "../../lib/webhook-outbox.ts";
import { KYC_SIGNATURE_HEADER } from "./sandbox.ts";
import type { KycService } from "./service.ts";

const startPerUser: RateLimitRule = { name: "kyc-start:user", limit: 10, windowSeconds: 3600 };

/** Identity verification (decision 175): the user's state, starting an attempt, the sandbox's page and webhook. */
export async function registerKyc(app: FastifyInstance, kyc: KycService): Promise<void> {
  const userId = (u: { id: string } | null) => (u as { id: string }).id;
  route(app, api.getKyc, {
    permission: "signed-in",
    handler: ({ user, reply }) => {
      reply.header("cache-control", "no-store");
      return kyc.status(userId(user));
    },
  });
  route(app, api.startKyc, {
    permission: "signed-in",
    rateLimits: [{ rule: startPerUser, by: "user" }],
    handler: async ({ user, reply }) => {
      reply.code(201);
      return kyc.start(userId(user));
    },
  });
  route(app, api.sandboxKycPage, {
    permission: "public",
    handler: async ({ params, reply }) =>
      reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header(
          "content-security-policy",
          "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'",
        )
        .send(await kyc.sandboxPage(params.sessionId)),
  });
  await rawBodyRoutes(
    app,
    (scope) => {
      route(scope, api.sandboxKycWebhook, {
        permission: "public",
        handler: ({ req }) => kyc.handleWebhook("sandbox", req.body as Buffer, req.headers),
      });
      route(scope, api.sandboxKycAction, {
        permission: "public",
        handler: async ({ params, reply }) => {
          const { redirect, deliveries } = await kyc.sandboxAction(params.sessionId, params.action);
          // The applicant is sent back at once; the result's webhook follows (its failure is logged).
          for (const d of deliveries) void outbox.deliver(d).catch(() => {});
          return reply.redirect(redirect, 302);
        },
      });
    },
    { bodyLimit: 64 * 1024 },
  );
  // The sandbox's outbox posts through the whole HTTP stack (raw body, signature check).
  const outbox = outboxThroughApp(app, api.sandboxKycWebhook.path, KYC_SIGNATURE_HEADER, kyc.useSandboxPost);
}
