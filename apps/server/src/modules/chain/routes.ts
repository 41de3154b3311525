import { chainEndpoints } from "@diginoor/api/chain";
import { chainNameOf, nativeSymbolOf } from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../http/route.ts";

/** Public facts about the chain for the web app's wallet code. Never includes keys. */
export async function registerChain(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, chainEndpoints.getChain, {
    permission: "public",
    handler: () => {
      const c = ctx.chain;
      return {
        enabled: !!c,
        chainId: c?.chainId ?? null,
        rpcUrl: c?.local ? c.rpcUrl : null,
        collectible: c?.deployment.collectible ?? null,
        marketplace: c?.deployment.marketplace ?? null,
        chainName: c ? chainNameOf(c.chainId) : null,
        nativeSymbol: c ? nativeSymbolOf(c.chainId) : null,
        walletConnectProjectId: ctx.config.WALLETCONNECT_PROJECT_ID ?? null,
      };
    },
  });
}
