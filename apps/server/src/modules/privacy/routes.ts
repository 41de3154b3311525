import { privacyEndpoints as api } from "@diginoor/api/privacy";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import type { Config } from "../../config.ts";
import { clearSessionCookie, requireUser, type SessionReader } from "../accounts/session.ts";
import type { PrivacyService } from "./service.ts";

const exportPerUser: RateLimitRule = { name: "data-export:user", limit: 3, windowSeconds: 86_400 };
const downloadPerIp: RateLimitRule = { name: "data-download:ip", limit: 30, windowSeconds: 600 };
const deletePerUser: RateLimitRule = { name: "delete-account:user", limit: 10, windowSeconds: 3600 };
const consentPerUser: RateLimitRule = { name: "newsletter-consent:user", limit: 30, windowSeconds: 600 };
const confirmPerIp: RateLimitRule = { name: "delete-confirm:ip", limit: 30, windowSeconds: 600 };

/** Data rights (decision 170): Download my data, Delete my account, the newsletter consent. */
export function registerPrivacy(
  app: FastifyInstance,
  d: { privacy: PrivacyService; accounts: SessionReader; config: Config },
) {
  const { privacy, accounts } = d;
  route(app, api.requestExport, {
    permission: "signed-in",
    rateLimits: [{ rule: exportPerUser, by: "user" }],
    handler: async ({ req }) => {
      await privacy.requestExport((await requireUser(accounts, req)).id);
      return { ok: true as const };
    },
  });

  route(app, api.downloadExport, {
    permission: "public",
    rateLimits: [{ rule: downloadPerIp, by: "ip" }],
    handler: async ({ params, reply }) => {
      const archive = await privacy.download(params.token);
      reply.header("cache-control", "no-store");
      reply.header("content-disposition", 'attachment; filename="diginoor-my-data.json"');
      return archive as never;
    },
  });

  route(app, api.deleteAccount, {
    permission: "signed-in",
    rateLimits: [{ rule: deletePerUser, by: "user" }],
    handler: async ({ req, reply, body }) => {
      const result = await privacy.deleteAccount(await requireUser(accounts, req), body.password);
      if (result.deleted) clearSessionCookie(d.config, reply);
      return result;
    },
  });

  route(app, api.getNewsletterConsent, {
    permission: "signed-in",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return privacy.newsletterConsent(await requireUser(accounts, req));
    },
  });

  route(app, api.setNewsletterConsent, {
    permission: "signed-in",
    rateLimits: [{ rule: consentPerUser, by: "user" }],
    handler: async ({ req, body }) =>
      privacy.setNewsletterConsent(await requireUser(accounts, req), body.subscribed),
  });

  route(app, api.confirmDelete, {
    permission: "public",
    rateLimits: [{ rule: confirmPerIp, by: "ip" }],
    handler: async ({ body, reply }) => {
      const result = await privacy.confirmDelete(body.token);
      clearSessionCookie(d.config, reply);
      return result;
    },
  });
}
