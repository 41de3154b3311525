/**
 * `npm run admin:create` while the server runs on PGlite (issue 35 item 6, decision 193): the command
 * cannot open the data directory the server holds, so the running server (the real bundle, started as
 * production starts it) runs it over its local socket; with no such server listening, the command says
 * exactly what to do. PGlite only: on PostgreSQL both processes open the database as they always did.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllServers, startServerProcess } from "./server-process.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-admin-cli-"));
const env = {
  DATA_DIR: dataDir,
  CHAIN_DISABLED: "1",
  SEED_ON_START: "0",
  SESSION_SECRET: "admin-cli-test-secret-admin-cli-test-secret",
};

afterAll(() => {
  killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The command `npm run admin:create` runs, with the server's settings; its exit code and output. */
function adminCreate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "apps/server/src/modules/accounts/admin-cli.ts", "--", ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH, NODE_ENV: "development", PUBLIC_URL: "http://127.0.0.1:1", ...env },
        timeout: 120_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("admin:create beside a server on PGlite", () => {
  it("is run by the running server, and what it did is kept", async () => {
    const server = await startServerProcess(env, { waitReady: true });
    const first = await adminCreate("boss@admin-cli.test");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/run by the server using .*pglite, process \d+/);
    expect(first.stdout).toMatch(/Created administrator boss@admin-cli\.test\./);
    expect(first.stdout).toMatch(/set-password|reset-password|token=/i);
    // The server's own answers: refusals come back as the command's error.
    const suspendNobody = await adminCreate("--suspend", "nobody@admin-cli.test");
    expect(suspendNobody.code).toBe(1);
    expect(suspendNobody.stderr.trim()).not.toBe("");
    expect(suspendNobody.stderr).not.toMatch(/in use by process/);

    // Stopped: the command opens the database itself and finds the administrator the server made.
    expect(await server.terminate()).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "pglite.admin.sock"))).toBe(false);
    const again = await adminCreate("boss@admin-cli.test");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe("boss@admin-cli.test is now an administrator.");
  }, 300_000);

  it("says exactly what to do when the process holding the database takes no commands", async () => {
    // A process (this test's) holds the data directory's lock, and no server socket answers.
    const lock = path.join(dataDir, "pglite.pid");
    fs.writeFileSync(lock, String(process.pid));
    try {
      const res = await adminCreate("late@admin-cli.test");
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/in use by process \d+/);
      expect(res.stderr).toMatch(/stop it \(Ctrl-C\), run this command again, then start it/);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }, 120_000);
});
