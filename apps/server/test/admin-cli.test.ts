import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { killAllServers, startServerProcess } from "./server-process.ts";

/**
 * `npm run admin:create` beside a running server on the embedded database (issue 28): PGlite serves
 * one process, so the command used to report "is now an administrator" while changing a copy that the
 * server then overwrote. Now it refuses with a clear message while the server runs, and works once the
 * server is gone (even one that was killed and left its pid file behind).
 */
const root = path.resolve(import.meta.dirname, "../../..");
const cli = path.join(root, "apps/server/src/modules/accounts/admin-cli.ts");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-admin-cli-"));
afterAll(() => {
  killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function adminCreate(email: string) {
  return spawnSync(process.execPath, ["--import", "tsx", cli, email], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      CHAIN_DISABLED: "1",
      LOG_LEVEL: "warn",
      NODE_ENV: "development",
    },
    encoding: "utf8",
    timeout: 60_000,
  });
}

it("refuses while a server holds the embedded database, and works once it is gone", async () => {
  const server = await startServerProcess(
    { DATA_DIR: dataDir, CHAIN_DISABLED: "1", LOG_LEVEL: "warn" },
    { waitReady: true },
  );
  const refused = adminCreate("boss@example.com");
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/in use by process \d+ \(a running server\)/);
  expect(refused.stdout).not.toMatch(/administrator/);

  await server.kill(); // SIGKILL: its pid file stays, naming a process that no longer exists
  const made = adminCreate("boss@example.com");
  expect(made.stderr).toBe("");
  expect(made.status).toBe(0);
  expect(made.stdout).toMatch(/Created administrator boss@example\.com/);

  const db = await openDatabase({ dataDir: path.join(dataDir, "pglite") });
  try {
    const rows = await db.query<{ role: string }>("SELECT role FROM users WHERE email = $1", [
      "boss@example.com",
    ]);
    expect(rows).toEqual([{ role: "admin" }]);
  } finally {
    await db.close();
  }
}, 180_000);
