import { marketEndpoints, tokenEndpoints as api } from "@diginoor/api/chain";
import type { FastifyInstance } from "fastify";
import type { TokenReads } from "./service.ts";
import { etagOf, notModified } from "../../http/etag.ts";
import { route } from "../../http/route.ts";

/** The token read API and ERC-721 metadata, served from the indexer's tables. */
export async function registerTokenRoutes(app: FastifyInstance, reads: TokenReads): Promise<void> {
  route(app, marketEndpoints.listMarket, { permission: "public", handler: () => reads.market() });
  route(app, api.getToken, { permission: "public", handler: ({ params }) => reads.getToken(params.tokenId) });
  route(app, api.listAccountTokens, {
    permission: "public",
    handler: ({ params }) => reads.accountTokens(params.address),
  });
  route(app, api.listNftActivity, {
    permission: "public",
    handler: ({ params, query }) => reads.nftActivity(params.id, query.limit),
  });
  route(app, api.getTokenMetadata, {
    permission: "public",
    handler: async ({ params, req, reply }) => {
      const body = await reads.metadata(params.tokenId);
      // Metadata of a minted token rarely changes; let marketplaces cache it, and revalidate cheaply
      // (the ETag is the hash of the JSON the serialiser sends: JSON.stringify of this body).
      reply.header("cache-control", "public, max-age=300");
      if (notModified(req, reply, etagOf(JSON.stringify(body)))) return reply;
      return body;
    },
  });
}
