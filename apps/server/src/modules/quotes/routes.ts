import {
  quoteParamsSchema,
  quoteRequestSchema,
  quoteResponseSchema,
  ratesResponseSchema,
} from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";
import { hitRateLimit } from "../../lib/rate-limit.ts";
import { requireUser } from "../accounts/session.ts";
import type { QuotesService } from "./service.ts";

const QUOTES_PER_USER = { name: "quote:user", limit: 60, windowSeconds: 600 };

/** GET /api/v1/rates (public), POST /api/v1/quotes and GET /api/v1/quotes/:quoteId (signed in). */
export function registerQuoteRoutes(app: FastifyInstance, ctx: AppContext, service: QuotesService): void {
  const tags = ["quotes"];
  defineRoute(app, {
    method: "GET",
    url: "/api/v1/rates",
    summary: "Current exchange rates: USD per native token and INR per USD (micro-units)",
    tags,
    response: ratesResponseSchema,
    handler: () => service.currentRates(),
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/quotes",
    summary: "Quote a fixed-price NFT in the chain's native token (held for QUOTE_TTL_SECONDS)",
    tags,
    auth: true,
    body: quoteRequestSchema,
    status: 201,
    errors: [404, 409, 503],
    response: quoteResponseSchema,
    handler: async ({ req, body }) => {
      const user = await requireUser(ctx, req);
      await hitRateLimit(ctx.db, QUOTES_PER_USER, user.id);
      return service.quote(user.id, body.nftId);
    },
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/quotes/:quoteId",
    summary: "One of the signed-in user's quotes while it holds (410 once expired)",
    tags,
    auth: true,
    params: quoteParamsSchema,
    errors: [404, 410],
    response: quoteResponseSchema,
    handler: async ({ req, params }) => service.validQuote((await requireUser(ctx, req)).id, params.quoteId),
  });
}
