import { bundlerEndpoints, chainEndpoints } from "@diginoor/api/chain";
import { chainNameOf, nativeSymbolOf } from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import type { ChainRuntime } from "./runtime.ts";
import { AppError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";

/** User operations and their estimates and receipts: a passkey wallet polls receipts while it waits. */
const BUNDLER_CALLS_PER_USER: RateLimitRule = { name: "bundler:user", limit: 300, windowSeconds: 600 };

/** Public facts about the chain for the web app's wallet code. Never includes keys. */
export async function registerChain(
  app: FastifyInstance,
  ctx: {
    chain: ChainRuntime | undefined;
    walletConnectProjectId: string | undefined;
    /** Refuses what must not be relayed for this user (the wallets module's sponsorship checks, decision 180). */
    checkRelay: (userId: string, method: string, params: readonly unknown[]) => Promise<void>;
  },
): Promise<void> {
  route(app, chainEndpoints.getChain, {
    permission: "public",
    handler: () => {
      const c = ctx.chain;
      const w = c?.wallets;
      return {
        enabled: !!c,
        chainId: c?.chainId ?? null,
        rpcUrl: c?.local ? c.rpcUrl : null,
        collectible: c?.deployment.collectible ?? null,
        marketplace: c?.deployment.marketplace ?? null,
        chainName: c ? chainNameOf(c.chainId) : null,
        nativeSymbol: c ? nativeSymbolOf(c.chainId) : null,
        walletConnectProjectId: ctx.walletConnectProjectId ?? null,
        entryPoint: w?.entryPoint ?? null,
        accountFactory: w?.accountFactory ?? null,
        paymaster: w?.paymaster ?? null,
        bundlerUrl: w?.bundlerUrl ? bundlerEndpoints.callBundler.path : null,
      };
    },
  });

  // The bundler behind a proxy: its URL (a hosted bundler's carries an API key) stays on the server, and
  // only the methods a wallet needs pass (packages/api BUNDLER_METHODS); an operation only of the caller's
  // own passkey wallet, with our paymaster or none, and gas and fees near the bundler's (decision 180).
  route(app, bundlerEndpoints.callBundler, {
    permission: "signed-in",
    rateLimits: [{ rule: BUNDLER_CALLS_PER_USER, by: "user" }],
    handler: async ({ body, user }) => {
      const url = ctx.chain?.wallets?.bundlerUrl;
      if (!url) throw new AppError("unavailable", "Passkey wallets are unavailable: no ERC-4337 bundler");
      await ctx.checkRelay((user as { id: string }).id, body.method, body.params);
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
      } catch {
        throw new AppError("unavailable", "The ERC-4337 bundler did not answer");
      }
      const answer = (await res.json().catch(() => undefined)) as
        | {
            jsonrpc: "2.0";
            id: number | string;
            result?: unknown;
            error?: { code: number; message: string; data?: unknown };
          }
        | undefined;
      if (answer?.jsonrpc !== "2.0")
        throw new AppError("unavailable", "The ERC-4337 bundler answered nonsense");
      return answer;
    },
  });
}
