import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";

/**
 * Installs pg-boss's schema and creates the queue of every job the server defines, as a server's
 * first start does, in a test database template (pglite-template.ts, pg-server.ts). A queue is a
 * table partition with its indexes: creating the twenty of them was about 0.4 s of each test app's
 * start on PGlite. A start on the copy finds them and only updates their options, and creates any
 * queue the template lacks, so an older template is never wrong, only slower. Nothing else is
 * written: the schedules an API-role start records are removed again.
 */
export async function createJobQueues(database: Database): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-job-queues-"));
  try {
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PUBLIC_URL: "http://localhost:3000",
      SESSION_SECRET: "job-queues-secret-job-queues-secret-01",
      CHAIN_DISABLED: "1",
    });
    const ctx = await bootstrap(config, { database, chain: null });
    try {
      await ctx.startWork("api");
    } finally {
      await ctx.close();
    }
    await database.query("DELETE FROM pgboss.schedule");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
