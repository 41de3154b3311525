import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** Options of {@link startAnvil}. */
export interface StartAnvilOptions {
  /** Port to listen on (127.0.0.1). A free port is picked when omitted. */
  port?: number;
  /** Chain id (anvil's default 31337 when omitted). */
  chainId?: number;
  /** Seconds between blocks; omitted = automine (a block per transaction). */
  blockTime?: number;
  /** Load chain state from this file at start and dump it there periodically and on exit (`--state`). */
  statePath?: string;
  /**
   * EVM hardfork (`--hardfork`; anvil's latest when omitted, which has the P-256 precompile at 0x100 of
   * EIP-7951). `prague` is a chain without it: OpenZeppelin's P256 falls back to Solidity.
   */
  hardfork?: string;
}

/** A running anvil started by {@link startAnvil}. */
export interface AnvilInstance {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string;
  port: number;
  chainId: number;
  /** Kill the process and wait for it to exit. Idempotent. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of running) child.kill("SIGKILL");
    for (const release of [...claims]) release();
  });
}

/** Path of the platform anvil binary shipped by the npm package `@foundry-rs/anvil`. */
export function anvilBinaryPath(): string {
  const os = process.platform === "win32" ? "win32" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  const pkg = `@foundry-rs/anvil-${os}-${arch}`;
  try {
    const candidate = join(dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
    if (existsSync(candidate)) return candidate;
  } catch {
    // fall through
  }
  throw new Error(
    `anvil binary not found: install the npm package ${pkg} (optional dependency of @foundry-rs/anvil)`,
  );
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

async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", (e) => reject(new Error(`port ${port} is not available: ${(e as Error).message}`)));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve()));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Releases of this process's port claims (the exit hook runs them). */
const claims = new Set<() => void>();

/** The file holding a port's claim: the claiming process's pid. */
export const anvilPortClaimFile = (port: number) => join(tmpdir(), `diginoor-anvil-port-${port}.lock`);

/**
 * Claims `port` for an anvil of this process, across processes, until `release()`: two processes that
 * started anvil on one port together both found it free, and the one whose anvil could not bind took
 * the other's for its own (a rolling-restart test's servers then deployed with one key: nonce too low).
 * A claim left by a process that has died is taken over. Undefined when another live process holds it.
 */
function claimPort(port: number): (() => void) | undefined {
  const file = anvilPortClaimFile(port);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        claims.delete(release);
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      };
      claims.add(release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      let holder = 0;
      try {
        holder = Number(readFileSync(file, "utf8"));
      } catch {
        // removed meanwhile: try again
      }
      if (holder && alive(holder)) return undefined;
      try {
        unlinkSync(file);
      } catch {
        // another process took it over first
      }
    }
  }
  return undefined;
}

async function rpcChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number(BigInt(body.result)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Spawn the npm anvil binary on `opts.port` (or a free port), wait until it answers JSON-RPC
 * (`eth_chainId`), and return its URL. The process is killed by `stop()` or when this process exits.
 */
export async function startAnvil(
  opts: StartAnvilOptions = {},
): Promise<{ rpcUrl: string; port: number; chainId: number; stop(): Promise<void> }> {
  const bin = anvilBinaryPath();
  installExitHook();
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = opts.port ?? (await freePort());
    // Never mistake another process listening on the port, or another process's anvil starting on it
    // at the same moment, for our anvil.
    const release = claimPort(port);
    if (!release) {
      lastError = new Error(`port ${port} is not available: an anvil of ours is starting or running on it`);
      if (opts.port !== undefined) break;
      continue;
    }
    try {
      await assertPortFree(port);
    } catch (e) {
      release();
      lastError = e;
      if (opts.port !== undefined) break;
      continue;
    }
    const args = ["--host", "127.0.0.1", "--port", String(port), "--silent"];
    if (opts.chainId !== undefined) args.push("--chain-id", String(opts.chainId));
    if (opts.blockTime !== undefined) args.push("--block-time", String(opts.blockTime));
    if (opts.statePath !== undefined) args.push("--state", opts.statePath, "--state-interval", "5");
    if (opts.hardfork !== undefined) args.push("--hardfork", opts.hardfork);
    const child = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
    running.add(child);
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    let exited = false;
    const exitPromise = new Promise<void>((resolve) => {
      child.once("exit", () => {
        release();
        exited = true;
        running.delete(child);
        resolve();
      });
    });
    const rpcUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20_000;
    let chainId: number | undefined;
    while (!exited && Date.now() < deadline) {
      chainId = await rpcChainId(rpcUrl);
      if (chainId !== undefined) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (chainId !== undefined && !exited) {
      if (opts.chainId !== undefined && chainId !== opts.chainId) {
        // Something else answered on this port.
        child.kill("SIGKILL");
        await exitPromise;
        lastError = new Error(`port ${port} answered with chain id ${chainId}`);
        if (opts.port !== undefined) break;
        continue;
      }
      child.stderr?.removeAllListeners("data");
      child.stderr?.resume();
      const id = chainId;
      return {
        rpcUrl,
        port,
        chainId: id,
        async stop() {
          if (!exited) child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
          await exitPromise;
          clearTimeout(timer);
        },
      };
    }
    child.kill("SIGKILL");
    await exitPromise;
    lastError = new Error(`anvil did not start on port ${port}: ${stderr.trim() || "timeout"}`);
    if (opts.port !== undefined) break;
  }
  throw lastError;
}
