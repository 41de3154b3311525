import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

/** Real server processes (src/main.ts under tsx) for crash and restart tests. */
const root = path.resolve(import.meta.dirname, "../../..");
const main = path.join(root, "apps/server/src/main.ts");

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
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Node itself with tsx's loader, not the tsx CLI: the CLI runs the script in a grandchild, so a
  // SIGKILL to it left the real server running (orphaned, still serving) after each "crash".
  const child = spawn(process.execPath, ["--import", "tsx", main], {
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
    const until = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
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
