import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerDatabase, createServerDatabase } from "./pg-server.ts";

/**
 * The must-show crash test of decision 060: a real server process (src/main.ts) is killed with
 * SIGKILL right after a sign-up has committed; after a restart the verification mail is delivered
 * exactly once.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const main = path.join(root, "apps/server/src/main.ts");

let server: ServerDatabase;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-crash-"));
const running = new Set<ChildProcess>();

beforeAll(async () => {
  server = await createServerDatabase();
});
afterAll(async () => {
  for (const child of running) child.kill("SIGKILL");
  await server?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startServer(workers: "on" | "off") {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(tsx, [main], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: base,
      DATABASE_URL: server.url,
      DATA_DIR: dataDir,
      CHAIN_DISABLED: "1",
      SEED_ON_START: "0",
      LOG_LEVEL: "warn",
      WORKERS: workers,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const until = Date.now() + 60_000;
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
  return {
    base,
    child,
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
      running.delete(child);
    },
  };
}

async function signUp(base: string, email: string) {
  const res = await fetch(`${base}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({
      name: "Crash Fan",
      email,
      password: "crash-password-1",
      confirmPassword: "crash-password-1",
    }),
  });
  expect(res.status).toBe(201);
}

const mailsTo = async (email: string) =>
  Number(
    (
      await server.database.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM dev_mail WHERE to_address = $1",
        [email],
      )
    )[0]?.n,
  );

async function deliveredOnce(email: string) {
  const until = Date.now() + 30_000;
  while ((await mailsTo(email)) === 0) {
    if (Date.now() > until) throw new Error(`no mail to ${email}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // The job is completed (no retry pending that could send it again), and there is one mail.
  const jobs = await server.database.query<{ state: string }>(
    "SELECT state FROM pgboss.job WHERE name = 'accounts.mail' AND data->>'email' = $1",
    [email],
  );
  const until2 = Date.now() + 10_000;
  while (!jobs.every((j) => j.state === "completed")) {
    if (Date.now() > until2) throw new Error(`job not completed: ${JSON.stringify(jobs)}`);
    await new Promise((r) => setTimeout(r, 100));
    jobs.splice(
      0,
      jobs.length,
      ...(await server.database.query<{ state: string }>(
        "SELECT state FROM pgboss.job WHERE name = 'accounts.mail' AND data->>'email' = $1",
        [email],
      )),
    );
  }
  expect(jobs).toHaveLength(1);
  expect(await mailsTo(email)).toBe(1);
}

describe("crash right after sign-up", () => {
  it("an API process killed after the commit: the restarted worker delivers the mail exactly once", async () => {
    const api = await startServer("off");
    await signUp(api.base, "crash-api@example.com");
    await api.kill();
    // Committed: the account and its queued mail survived the kill; nothing was sent yet.
    expect(
      await server.database.query("SELECT 1 FROM users WHERE email = 'crash-api@example.com'"),
    ).toHaveLength(1);
    expect(await mailsTo("crash-api@example.com")).toBe(0);

    const restarted = await startServer("on");
    await deliveredOnce("crash-api@example.com");
    await restarted.kill();
  }, 120_000);

  it("a worker process killed right after the sign-up answer: after restart there is still exactly one mail", async () => {
    const worker = await startServer("on");
    await signUp(worker.base, "crash-worker@example.com");
    await worker.kill();
    const restarted = await startServer("on");
    await deliveredOnce("crash-worker@example.com");
    await restarted.kill();
  }, 120_000);
});
