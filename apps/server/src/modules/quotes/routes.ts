import { quoteEndpoints as api } from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import type { QuotesService } from "./service.ts";

const QUOTES_PER_USER: RateLimitRule = { name: "quote:user", limit: 60, windowSeconds: 600 };

const userId = (u: { id: string } | null) => (u as { id: string }).id;

/** GET /api/v1/rates (public), POST /api/v1/quotes and GET /api/v1/quotes/:quoteId (signed in). */
export function registerQuoteRoutes(app: FastifyInstance, service: QuotesService): void {
  route(app, api.getRates, { permission: "public", handler: () => service.currentRates() });
  route(app, api.createQuote, {
    permission: "signed-in",
    rateLimits: [{ rule: QUOTES_PER_USER, by: "user" }],
    handler: ({ user, body }) => service.quote(userId(user), body.nftId),
  });
  route(app, api.getQuote, {
    permission: "signed-in",
    handler: ({ user, params }) => service.validQuote(userId(user), params.quoteId),
  });
}
