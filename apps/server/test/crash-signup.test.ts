import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresPass } from "./passes.ts";
import { type ServerDatabase, createServerDatabase } from "./pg-server.ts";
import { killAllServers, startServerProcess } from "./server-process.ts";

/**
 * The must-show crash test of decision 060: a real server process (src/main.ts) is killed with
 * SIGKILL right after a sign-up has committed; after a restart the verification mail is delivered
 * exactly once.
 */
let server: ServerDatabase;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-crash-"));

beforeAll(async () => {
  server = await createServerDatabase();
});
afterAll(async () => {
  killAllServers();
  await server?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const startServer = (workers: "on" | "off") =>
  startServerProcess(
    {
      DATABASE_URL: server.url,
      DATA_DIR: dataDir,
      CHAIN_DISABLED: "1",
      SEED_ON_START: "0",
      LOG_LEVEL: "warn",
      WORKERS: workers,
    },
    { waitReady: true },
  );

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

// Server processes share the database only on a PostgreSQL server (passes.ts).
describe.runIf(postgresPass)("crash right after sign-up", () => {
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
