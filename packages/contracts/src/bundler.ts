/**
 * A real ERC-4337 bundler for development and tests: Pimlico's Alto (npm `@pimlico/alto`) started beside
 * anvil. It deploys its simulation contracts on start (through the deterministic deployer, paid by the
 * utility key) and bundles user operations for EntryPoint v0.8. Production points BUNDLER_URL at a
 * hosted bundler instead.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import type { Hex } from "viem";
import { ENTRYPOINT_ADDRESS } from "./wallets.js";

const require = createRequire(import.meta.url);

export interface StartBundlerOptions {
  rpcUrl: string;
  /** Key that sends the bundles (pays gas up front; the EntryPoint repays it from the paymaster's deposit). */
  executorPrivateKey: Hex;
  /** Key that deploys Alto's simulation contracts at start. */
  utilityPrivateKey: Hex;
  /** Port on 127.0.0.1 (the only address it listens on); a free one when omitted. */
  port?: number;
  /** Alto's log level (default "warn"). */
  logLevel?: "trace" | "debug" | "info" | "warn" | "error";
}

export interface BundlerInstance {
  /** `http://127.0.0.1:<port>/rpc?key=<this start's key>`: requests without the key are refused (401). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * The JSON-RPC methods the local bundler answers: those our bundler proxy passes on (packages/api
 * BUNDLER_METHODS). Alto answers every other method it has (`boost_sendUserOperation`, which bundles an
 * unsponsored operation at the executor's cost, the `debug_bundler_*` ones) unless told this list.
 */
export const LOCAL_BUNDLER_METHODS = [
  "eth_chainId",
  "eth_supportedEntryPoints",
  "eth_estimateUserOperationGas",
  "eth_sendUserOperation",
  "eth_getUserOperationReceipt",
  "eth_getUserOperationByHash",
  "pimlico_getUserOperationGasPrice",
] as const;

/** Path of Alto's command-line entry in node_modules. */
export function altoCliPath(): string {
  return join(dirname(require.resolve("@pimlico/alto")), "cli", "alto.js");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function supportedEntryPoints(url: string): Promise<string[] | undefined> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: string[] };
    return body.result;
  } catch {
    return undefined;
  }
}

/**
 * Alto's clock follows the chain's. Alto refuses an operation whose validity starts after its own
 * Date.now(), while the EntryPoint judges it by the block's time; our paymaster makes each operation valid
 * on one UTC day of the chain (decision 160). A development chain whose time was moved forward (the
 * auction tests do) then had no day both accepted: every passkey operation was refused. Loaded into
 * Alto's process (`node --import`), this moves its Date.now() forward to the next block's time, read from
 * the node every 200 ms; it never moves it back. Only this development bundler runs it.
 */
const CHAIN_CLOCK_PRELOAD = `data:text/javascript,${encodeURIComponent(`
const rpc = process.env.DIGINOOR_CHAIN_CLOCK_RPC;
if (rpc) {
  const wall = Date.now.bind(Date);
  let ahead = 0;
  const tick = async () => {
    try {
      const res = await fetch(rpc, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["pending", false] }),
        signal: AbortSignal.timeout(1000),
      });
      const block = (await res.json()).result;
      if (block) ahead = Math.max(0, Number(BigInt(block.timestamp)) * 1000 - wall());
    } catch {}
  };
  await tick();
  setInterval(tick, 200).unref();
  Date.now = () => wall() + ahead;
}
`)}`;

/**
 * Alto 0.0.20 listens on 0.0.0.0 whatever it is told (`fastify.listen({ host: "0.0.0.0" })`, no option) and
 * asks no credentials: anyone who reached the port could spend its executor's ETH and skip our proxy's
 * sign-in and rate limit. Loaded into Alto's process (`node --import`), this makes every TCP listen of the
 * process use DIGINOOR_BUNDLER_HOST (127.0.0.1) and refuses any other kind of listen (a path, a handle), and
 * answers 401 to every HTTP request (and closes every upgrade) whose URL lacks `key=<DIGINOOR_BUNDLER_KEY>`,
 * a random key of this start: on loopback, other local users and web pages reaching 127.0.0.1 by DNS
 * rebinding cannot use it either. Proven from another address in a network namespace
 * (test/bundler-bind.test.ts).
 */
const LOOPBACK_PRELOAD = `data:text/javascript,${encodeURIComponent(`
import http from "node:http";
import net from "node:net";
import { timingSafeEqual } from "node:crypto";
const host = process.env.DIGINOOR_BUNDLER_HOST;
const key = Buffer.from(process.env.DIGINOOR_BUNDLER_KEY ?? "");
if (!host || key.length < 32) throw new Error("the local bundler needs DIGINOOR_BUNDLER_HOST and DIGINOOR_BUNDLER_KEY");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === "number") return listen.call(this, { port: first, host }, ...args.filter((a) => typeof a === "function"));
  if (first && typeof first === "object" && first.port !== undefined && first.path === undefined && first.fd === undefined && first.handle === undefined && first._handle === undefined)
    return listen.call(this, { ...first, host, ipv6Only: false }, ...args.slice(1));
  throw new Error("the local bundler listens only on a TCP port of " + host);
};
const authorised = (url) => {
  const q = (url ?? "").indexOf("?");
  const given = Buffer.from(q < 0 ? "" : (new URLSearchParams(url.slice(q + 1)).get("key") ?? ""));
  return given.length === key.length && timingSafeEqual(given, key);
};
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event === "request" && !authorised(args[0].url)) {
    args[1].writeHead(401, { "content-type": "application/json" });
    args[1].end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "unauthorized: the bundler's key is missing or wrong" } }));
    return true;
  }
  if (event === "upgrade" && !authorised(args[0].url)) {
    args[1].destroy();
    return true;
  }
  return emit.call(this, event, ...args);
};
`)}`;

/** Start Alto on `rpcUrl` for EntryPoint v0.8 and wait until it answers `eth_supportedEntryPoints`. */
export async function startBundler(opts: StartBundlerOptions): Promise<BundlerInstance> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const child of running) child.kill("SIGKILL");
    });
  }
  const port = opts.port ?? (await freePort());
  const args = [
    altoCliPath(),
    "--entrypoints",
    ENTRYPOINT_ADDRESS,
    "--executor-private-keys",
    opts.executorPrivateKey,
    "--utility-private-key",
    opts.utilityPrivateKey,
    "--rpc-url",
    opts.rpcUrl,
    "--port",
    String(port),
    // anvil has no debug_traceCall JavaScript tracer: ERC-7562 tracing is off here (it is a hosted bundler's job).
    "--safe-mode",
    "false",
    "--min-balance",
    "0",
    "--utility-wallet-monitor",
    "false",
    "--refilling-wallets",
    "false",
    // Tips from a fixed 1 gwei, not from the node: on a chain whose only transactions are this bundler's,
    // the node's suggested tip is the last bundle's and fees would double from one operation to the next.
    "--static-max-priority-fee-per-gas",
    "1",
    "--block-time",
    "250",
    "--max-bundle-interval",
    "200",
    "--log-level",
    opts.logLevel ?? "warn",
    "--rpc-methods",
    LOCAL_BUNDLER_METHODS.join(","),
  ];
  const key = randomBytes(32).toString("hex");
  const child = spawn(
    process.execPath,
    ["--import", LOOPBACK_PRELOAD, "--import", CHAIN_CLOCK_PRELOAD, ...args],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DIGINOOR_CHAIN_CLOCK_RPC: opts.rpcUrl,
        DIGINOOR_BUNDLER_HOST: "127.0.0.1",
        DIGINOOR_BUNDLER_KEY: key,
      },
    },
  );
  running.add(child);
  let output = "";
  const collect = (d: Buffer) => {
    if (output.length < 20_000) output += d.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      running.delete(child);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}/rpc?key=${key}`;
  const deadline = Date.now() + 180_000;
  while (!exited && Date.now() < deadline) {
    const eps = await supportedEntryPoints(url);
    if (eps?.some((e) => e.toLowerCase() === ENTRYPOINT_ADDRESS.toLowerCase())) {
      child.stdout?.removeAllListeners("data");
      child.stderr?.removeAllListeners("data");
      child.stdout?.resume();
      child.stderr?.resume();
      return {
        url,
        port,
        async stop() {
          if (!exited) child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
          await exitPromise;
          clearTimeout(timer);
        },
      };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  await exitPromise;
  throw new Error(`bundler (alto) did not start on port ${port}: ${output.trim().slice(-2000) || "timeout"}`);
}
