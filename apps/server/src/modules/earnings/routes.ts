import { earningsEndpoints as api } from "@diginoor/api/earnings";
import type { FastifyInstance } from "fastify";
import type { AuthUser } from "../../http/access.ts";
import { AppError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type AdminService, houseScope } from "../admin/service.ts";
import type { EarningsService } from "./service.ts";

/** The studio earnings (decision 174): statement and CSV (a studio account: its own house), payouts (administrators). */
export function registerEarnings(
  app: FastifyInstance,
  d: { earnings: EarningsService; admin: Pick<AdminService, "recordStudioPayout"> },
): void {
  const actor = (u: AuthUser | null) => u as AuthUser;
  const ownHouse = (u: AuthUser | null, id: number) => {
    const scope = houseScope(actor(u));
    if (scope !== undefined && scope !== id)
      throw AppError.forbidden("This studio is another production house");
  };
  route(app, api.statement, {
    permission: "studio",
    handler: ({ user, params, reply }) => {
      ownHouse(user, params.id);
      reply.header("cache-control", "no-store");
      return d.earnings.statement(params.id);
    },
  });
  route(app, api.statementCsv, {
    permission: "studio",
    handler: async ({ user, params, reply }) => {
      ownHouse(user, params.id);
      return reply
        .type("text/csv; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-disposition", `attachment; filename="earnings-studio-${params.id}.csv"`)
        .send(await d.earnings.statementCsv(params.id));
    },
  });
  route(app, api.recordPayout, {
    permission: "admin",
    handler: async ({ user, params, body, reply }) => {
      reply.code(201);
      return d.admin.recordStudioPayout(actor(user), params.id, body);
    },
  });
}
