import {
  linkWalletRequestSchema,
  nonceResponseSchema,
  updateWalletRequestSchema,
  walletListResponseSchema,
  walletParamsSchema,
  walletSchema,
} from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";
import { hitRateLimit } from "../../lib/rate-limit.ts";
import { requireUser } from "../accounts/session.ts";
import type { WalletsService } from "./service.ts";

const NONCES_PER_USER = { name: "wallet-nonce:user", limit: 30, windowSeconds: 600 };
const LINKS_PER_USER = { name: "wallet-link:user", limit: 30, windowSeconds: 600 };

/** /api/v1/wallets: link (SIWE), list, choose the receiving wallet, unlink. Signed-in users only. */
export function registerWalletRoutes(app: FastifyInstance, ctx: AppContext, service: WalletsService): void {
  const tags = ["wallets"];
  defineRoute(app, {
    method: "POST",
    url: "/api/v1/wallets/nonce",
    summary: "A single-use nonce for a Sign-In with Ethereum message (valid 10 minutes)",
    tags,
    auth: true,
    status: 201,
    errors: [503],
    response: nonceResponseSchema,
    handler: async ({ req }) => {
      const user = await requireUser(ctx, req);
      await hitRateLimit(ctx.db, NONCES_PER_USER, user.id);
      return service.issueNonce(user.id);
    },
  });

  defineRoute(app, {
    method: "POST",
    url: "/api/v1/wallets",
    summary: "Link the wallet that signed this EIP-4361 message to the signed-in account",
    tags,
    auth: true,
    body: linkWalletRequestSchema,
    status: 201,
    errors: [409, 503],
    response: walletSchema,
    handler: async ({ req, body }) => {
      const user = await requireUser(ctx, req);
      await hitRateLimit(ctx.db, LINKS_PER_USER, user.id);
      return service.link(user.id, body);
    },
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/wallets",
    summary: "The signed-in user's linked wallets and which one receives purchases",
    tags,
    auth: true,
    response: walletListResponseSchema,
    handler: async ({ req }) => ({ items: await service.list((await requireUser(ctx, req)).id) }),
  });

  defineRoute(app, {
    method: "PATCH",
    url: "/api/v1/wallets/:address",
    summary: "Make this linked wallet the one that receives purchases",
    tags,
    auth: true,
    params: walletParamsSchema,
    body: updateWalletRequestSchema,
    errors: [404],
    response: walletSchema,
    handler: async ({ req, params }) =>
      service.makeReceiving((await requireUser(ctx, req)).id, params.address),
  });

  defineRoute(app, {
    method: "DELETE",
    url: "/api/v1/wallets/:address",
    summary: "Unlink one of the signed-in user's wallets",
    tags,
    auth: true,
    params: walletParamsSchema,
    status: 204,
    errors: [404],
    response: z.undefined(),
    handler: async ({ req, params }) => {
      await service.unlink((await requireUser(ctx, req)).id, params.address);
      return undefined;
    },
  });
}
