import {
  accountTokensSchema,
  addressParamSchema,
  nftActivityQuerySchema,
  nftActivitySchema,
  tokenIdParamSchema,
  tokenMetadataSchema,
  tokenSchema,
} from "@diginoor/api/chain";
import { marketEndpoints } from "@diginoor/api/chain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { defineRoute, route } from "../../http/route.ts";

/** The token read API and ERC-721 metadata, served from the indexer's tables. */
export async function registerTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const reads = ctx.services.tokens;
  route(app, marketEndpoints.listMarket, { permission: "public", handler: () => reads.market() });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/tokens/:tokenId",
    summary: "A token: its NFT and edition, owner, live listing and current auction (wei as decimal strings)",
    tags: ["chain"],
    params: tokenIdParamSchema,
    response: tokenSchema,
    errors: [404],
    handler: ({ params }) => reads.getToken(params.tokenId),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/accounts/:address/tokens",
    summary: "Tokens an address holds or has put up for auction",
    tags: ["chain"],
    params: addressParamSchema,
    response: accountTokensSchema,
    handler: ({ params }) => reads.accountTokens(params.address),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/nfts/:id/activity",
    summary: "Mints, transfers, bids and sales of an NFT's tokens, newest first",
    tags: ["chain"],
    params: z.object({ id: z.string().max(200) }),
    query: nftActivityQuerySchema,
    response: nftActivitySchema,
    errors: [404],
    handler: ({ params, query }) => reads.nftActivity(params.id, query.limit),
  });

  defineRoute(app, {
    method: "GET",
    url: "/api/v1/metadata/:tokenId",
    summary: "ERC-721 metadata of a minted token",
    tags: ["chain"],
    params: tokenIdParamSchema,
    response: tokenMetadataSchema,
    errors: [404],
    handler: async ({ params, reply }) => {
      const body = await reads.metadata(params.tokenId);
      // Metadata of a minted token never changes; let marketplaces cache it.
      reply.header("cache-control", "public, max-age=300");
      return body;
    },
  });
}
