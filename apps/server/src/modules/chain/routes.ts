import { BUNDLER_METHODS, type BundlerResponse, bundlerEndpoints, chainEndpoints } from "@diginoor/api/chain";
import { chainNameOf, nativeSymbolOf } from "@diginoor/api/wallets";
import type { FastifyInstance } from "fastify";
import type { ChainRuntime } from "./runtime.ts";
import { AppError } from "../../http/errors.ts";
import {
  answerJsonRpc,
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_PARAMS,
  JSON_RPC_LIMIT_EXCEEDED,
  JSON_RPC_TRANSACTION_REJECTED,
  JsonRpcError,
} from "../../http/json-rpc.ts";
import { route } from "../../http/route.ts";
import { markDocumentationOnly } from "../../http/validation.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";

/** User operations and their estimates and receipts: a passkey wallet polls receipts while it waits. */
const BUNDLER_CALLS_PER_USER: RateLimitRule = { name: "bundler:user", limit: 300, windowSeconds: 600 };

/** Public facts about the chain for the web app's wallet code. Never includes keys. */
export async function registerChain(
  app: FastifyInstance,
  ctx: {
    chain: ChainRuntime | undefined;
    walletConnectProjectId: string | undefined;
    /** Refuses what must not be relayed for this user (the wallets module's sponsorship checks, decision 186). */
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
  // only the methods a wallet needs pass (packages/api BUNDLER_METHODS), and an operation only of the caller's
  // own passkey wallet, with our paymaster or none, and gas and fees near the bundler's (decision 186). The
  // body is JSON-RPC 2.0 read by
  // http/json-rpc.ts (every problem answered as a JSON-RPC error object with the call's id), so this scope
  // takes application/json as text; other content types are 415 as everywhere.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) =>
      done(null, body),
    );
    markDocumentationOnly(bundlerEndpoints.callBundler.body);
    route(scope, bundlerEndpoints.callBundler, {
      permission: "signed-in",
      rateLimits: [{ rule: BUNDLER_CALLS_PER_USER, by: "user" }],
      handler: async ({ req, reply, user }) => {
        const url = ctx.chain?.wallets?.bundlerUrl;
        if (!url) throw new AppError("unavailable", "Passkey wallets are unavailable: no ERC-4337 bundler");
        const answer = await answerJsonRpc(typeof req.body === "string" ? req.body : "", {
          methods: PROXIED,
          maxParams: 4,
          call: async (method, params) => {
            await relayable(ctx.checkRelay, (user as { id: string }).id, method, params);
            return callBundler(url, method, params);
          },
        });
        if (answer === undefined) return reply.code(204).send();
        return answer as BundlerResponse;
      },
    });
  });
}

const PROXIED: ReadonlySet<string> = new Set(BUNDLER_METHODS);

/**
 * The wallets module's refusal of what must not be relayed, as a JSON-RPC error with the caller's id:
 * a bad operation is -32602 (invalid params), another fan's wallet -32003 (EIP-1474 transaction
 * rejected), a spent budget -32005 (limit exceeded); the message is the refusal's.
 */
async function relayable(
  checkRelay: (userId: string, method: string, params: readonly unknown[]) => Promise<void>,
  userId: string,
  method: string,
  params: readonly unknown[],
): Promise<void> {
  try {
    await checkRelay(userId, method, params);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const code =
      err.code === "forbidden"
        ? JSON_RPC_TRANSACTION_REJECTED
        : err.code === "rate_limited"
          ? JSON_RPC_LIMIT_EXCEEDED
          : err.code === "unavailable"
            ? JSON_RPC_INTERNAL_ERROR
            : JSON_RPC_INVALID_PARAMS;
    throw new JsonRpcError(code, err.message, { reason: err.code });
  }
}

/** One call to the bundler, under an id of ours (the caller's goes back in the proxy's answer). */
async function callBundler(url: string, method: string, params: unknown[]): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new JsonRpcError(JSON_RPC_INTERNAL_ERROR, "The ERC-4337 bundler did not answer");
  }
  const answer = (await res.json().catch(() => undefined)) as
    | { jsonrpc?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
    | undefined;
  if (answer?.jsonrpc !== "2.0")
    throw new JsonRpcError(JSON_RPC_INTERNAL_ERROR, "The ERC-4337 bundler answered nonsense");
  const { error } = answer;
  if (error && typeof error === "object") {
    const message =
      typeof error.message === "string" ? error.message : "The ERC-4337 bundler refused the call";
    const code = Number.isInteger(error.code) ? (error.code as number) : JSON_RPC_INTERNAL_ERROR;
    throw new JsonRpcError(code, message, error.data);
  }
  if (!Object.hasOwn(answer, "result"))
    throw new JsonRpcError(JSON_RPC_INTERNAL_ERROR, "The ERC-4337 bundler answered nonsense");
  return answer.result;
}
