import { tokenLocationEndpoints as api } from "@diginoor/api/chain";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { PortabilityService } from "./service.ts";

/** Where a minted token lives (issue 25): public, for the token page's panel and anyone else. */
export function registerPortability(
  app: FastifyInstance,
  portability: Pick<PortabilityService, "whereItLives">,
): void {
  route(app, api.getTokenLocation, {
    permission: "public",
    handler: ({ params }) => portability.whereItLives(params.tokenId),
  });
}
