import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { type ChainFixture, startChainFixture } from "./chain-fixture.ts";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";

/** Real server processes (src/main.ts, bundled once per run by global-setup.ts) for crash and restart tests. */
const root = path.resolve(import.meta.dirname, "../../..");

const running = new Set<ChildProcess>();

/** Kills every server process still running (call in afterAll). */
export function killAllServers(): void {
  for (const child of running) child.kill("SIGKILL");
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  base: string;
  /** The process id (benchmarks read its CPU time). */
  pid: number;
  stderr(): string;
  /** Whether the process has exited (crashed, or been stopped). */
  exited(): boolean;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), then wait for the exit; its exit code. */
  terminate(): Promise<number | null>;
}

/**
 * Starts a server on a free port with `env` (plus NODE_ENV=development, HOST, PORT, PUBLIC_URL);
 * with `waitReady`, resolves once /readyz answers.
 */
export async function startServerProcess(
  env: Record<string, string>,
  opts: { waitReady?: boolean } = {},
): Promise<ServerProcess> {
  // A free port can be taken by another process (a parallel test file's server or chain) between
  // freePort() closing it and the server listening: a server that exits with EADDRINUSE before it is
  // ready is started again on another port (rolling-restart met it once in a full suite).
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(env, opts);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error) || !err.message.includes("EADDRINUSE")) throw err;
    }
  }
}

async function startOnFreePort(
  env: Record<string, string>,
  opts: { waitReady?: boolean },
): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Node itself running the bundle as production runs dist/main.js (no --enable-source-maps: with it,
  // the first error stack read, which fetch makes, parsed the 17 MB map, 0.8 s at every start), not a
  // CLI wrapper: the tsx CLI ran the script in a grandchild, so a SIGKILL to it left the real server
  // running after a "crash".
  const child = spawn(process.execPath, [inject("serverBundle")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: base,
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server: ServerProcess = {
    base,
    pid: child.pid ?? 0,
    stderr: () => stderr,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
      running.delete(child);
    },
    terminate: async () => {
      child.kill("SIGTERM");
      await exited;
      running.delete(child);
      return child.exitCode;
    },
  };
  if (opts.waitReady) {
    // Generous: a loaded 2-core machine has taken over 100 s to start one.
    const until = Date.now() + 180_000;
    for (;;) {
      if (child.exitCode !== null) {
        running.delete(child);
        throw new Error(`server exited: ${stderr}`);
      }
      const ok = await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error(`server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return server;
}

/**
 * For a test file of server processes: a chain fixture and a fresh PostgreSQL database, made before
 * its tests (unless `enabled` is false) and removed, with every server process still running, after.
 */
export function serverProcessFixture(name: string, o: { enabled?: boolean } = {}) {
  const f = {
    chain: undefined as unknown as ChainFixture,
    server: undefined as unknown as ServerDatabase,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `diginoor-${name}-`)),
  };
  beforeAll(async () => {
    if (o.enabled === false) return;
    [f.chain, f.server] = await Promise.all([startChainFixture(), createServerDatabase()]);
  }, 60_000);
  afterAll(async () => {
    killAllServers();
    await f.chain?.stop();
    await f.server?.dispose();
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });
  return f;
}

/**
 * For a describe block: a fresh PostgreSQL database and two server processes on it (no chain, no
 * seed), started before its tests and killed after them: what the cross-process stream tests share.
 */
export function twoServerProcesses(name: string) {
  const f = {
    db: undefined as unknown as ServerDatabase,
    servers: [] as ServerProcess[],
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), `diginoor-${name}-`)),
  };
  beforeAll(async () => {
    f.db = await createServerDatabase();
    const env = {
      DATABASE_URL: f.db.url,
      DATA_DIR: f.dataDir,
      CHAIN_DISABLED: "1",
      SEED_ON_START: "0",
      LOG_LEVEL: "warn",
      SSE_HEARTBEAT_MS: "5000",
    };
    const start = () => startServerProcess(env, { waitReady: true });
    f.servers.push(...(await Promise.all([start(), start()])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(f.servers.map((s) => s.kill()));
    // Servers still starting when a slow beforeAll timed out are not in `servers`.
    killAllServers();
    await f.db?.dispose();
    fs.rmSync(f.dataDir, { recursive: true, force: true });
  });
  return f;
}
