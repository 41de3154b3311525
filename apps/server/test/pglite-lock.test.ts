import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { DatabaseInUseError, openDatabase } from "../src/db/client.ts";
import { postgresPass } from "./passes.ts";

/**
 * `npm run admin:create` (or `npm run seed`) beside a running server on the embedded database (issue
 * 28): PGlite serves one process, so the command used to report "is now an administrator" while
 * changing a copy that the server then overwrote. The process holding the data directory now keeps its
 * pid beside it; another opener is refused with a clear message while that process lives, and a pid
 * file left by a process that died is taken over.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-pglite-lock-"));
const dir = path.join(dataDir, "pglite");
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// PGlite's own: the PGlite pass runs it (passes.ts).
it.skipIf(postgresPass)(
  "refuses a second opener while the holder lives, and takes over from one that died",
  async () => {
    const holder = await openDatabase({ dataDir: dir });
    expect(fs.readFileSync(`${dir}.pid`, "utf8")).toBe(String(process.pid));
    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
    await expect(second).rejects.toThrow(
      `The embedded database in ${dir} is in use by process ${process.pid} (a running server)`,
    );
    await holder.query("CREATE TABLE kept (n int)");
    await holder.query("INSERT INTO kept VALUES (1)");
    await holder.close();
    expect(fs.existsSync(`${dir}.pid`)).toBe(false);

    // A holder killed without closing leaves its pid file; that process is gone, so the file is taken over.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    fs.writeFileSync(`${dir}.pid`, dead.stdout);
    const next = await openDatabase({ dataDir: dir });
    try {
      expect(await next.query("SELECT n FROM kept")).toEqual([{ n: 1 }]);
      expect(fs.readFileSync(`${dir}.pid`, "utf8")).toBe(String(process.pid));
    } finally {
      await next.close();
    }
  },
  120_000,
);
