import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { defineRoute } from "../../http/route.ts";

const chainInfoSchema = z.object({
  enabled: z.boolean(),
  chainId: z.number().int().nullable(),
  /** Public RPC endpoint for wallets; only given for the local development chain. */
  rpcUrl: z.string().nullable(),
  collectible: z.string().nullable(),
  marketplace: z.string().nullable(),
});

/** Public facts about the chain for the web app's wallet code. Never includes keys. */
export async function registerChain(app: FastifyInstance, ctx: AppContext): Promise<void> {
  defineRoute(app, {
    method: "GET",
    url: "/api/v1/chain",
    summary: "The chain and contract addresses the marketplace uses",
    tags: ["chain"],
    response: chainInfoSchema,
    handler: () => {
      const c = ctx.chain;
      return {
        enabled: !!c,
        chainId: c?.chainId ?? null,
        rpcUrl: c?.local ? c.rpcUrl : null,
        collectible: c?.deployment.collectible ?? null,
        marketplace: c?.deployment.marketplace ?? null,
      };
    },
  });
}
