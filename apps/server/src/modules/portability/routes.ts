import { tokenEndpoints, tokenLocationEndpoints as api } from "@diginoor/api/chain";
import type { FastifyInstance } from "fastify";
import { etagOf, notModified } from "../../http/etag.ts";
import { route } from "../../http/route.ts";
import type { PortabilityService } from "./service.ts";

/**
 * Where a minted token lives (issue 25): public, for the token page's panel and anyone else. And the
 * collection's metadata (ERC-7572), what the collectible's contractURI() names beside the tokens' metadata.
 */
export function registerPortability(
  app: FastifyInstance,
  portability: Pick<PortabilityService, "whereItLives" | "collectionMetadata">,
): void {
  route(app, api.getTokenLocation, {
    permission: "public",
    handler: ({ params }) => portability.whereItLives(params.tokenId),
  });
  route(app, tokenEndpoints.getCollectionMetadata, {
    permission: "public",
    handler: async ({ req, reply }) => {
      const body = await portability.collectionMetadata();
      reply.header("cache-control", "public, max-age=300");
      if (notModified(req, reply, etagOf(JSON.stringify(body)))) return reply;
      return body;
    },
  });
}
