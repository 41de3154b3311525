import { taxEndpoints as api } from "@diginoor/api/tax";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import { requireUser, type SessionReader } from "../accounts/session.ts";
import type { TaxService } from "./service.ts";

const statementsPerUser: RateLimitRule = { name: "tax-statement:user", limit: 60, windowSeconds: 3600 };
const previewPerUser: RateLimitRule = { name: "tds-preview:user", limit: 300, windowSeconds: 600 };

/** Tax residence, the TDS shown before a sale, and the yearly statements (decision 176). */
export function registerTax(
  app: FastifyInstance,
  d: { tax: TaxService; accounts: SessionReader; chainId: number | undefined },
) {
  const { tax, accounts } = d;
  route(app, api.getTaxProfile, {
    permission: "signed-in",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return tax.profileOf((await requireUser(accounts, req)).id);
    },
  });

  route(app, api.updateTaxProfile, {
    permission: "signed-in",
    handler: async ({ req, body }) => tax.updateProfile((await requireUser(accounts, req)).id, body),
  });

  route(app, api.tdsPreview, {
    permission: "signed-in",
    rateLimits: [{ rule: previewPerUser, by: "user" }],
    handler: async ({ req, reply, query }) => {
      reply.header("cache-control", "no-store");
      return tax.tdsPreview((await requireUser(accounts, req)).id, BigInt(query.priceWei), d.chainId);
    },
  });

  route(app, api.listStatements, {
    permission: "signed-in",
    handler: async ({ req, reply }) => {
      reply.header("cache-control", "no-store");
      return { items: await tax.statementYears((await requireUser(accounts, req)).id) };
    },
  });

  route(app, api.downloadStatement, {
    permission: "signed-in",
    rateLimits: [{ rule: statementsPerUser, by: "user" }],
    handler: async ({ req, reply, params }) => {
      const user = await requireUser(accounts, req);
      const bytes = await tax.statement(user, params.financialYear, params.format);
      const name = `diginoor-tax-statement-${params.financialYear}.${params.format}`;
      return reply
        .code(200)
        .type(params.format === "csv" ? "text/csv; charset=utf-8" : "application/pdf")
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "no-store")
        .send(bytes);
    },
  });
}
