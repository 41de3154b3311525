import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
// @ts-expect-error: a plain ES module script (the build's), without types
import { bundleServer } from "../bundle.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The server bundled as production runs it (dist/main.js's build), for server-process tests. */
    serverBundle: string;
  }
}

/**
 * Bundles src/main.ts once per run (or reuses the last run's bundle if none of its inputs changed),
 * as `npm run build` does: the crash, fault and restart tests start
 * server processes dozens of times, and the bundle starts about 1.6 s sooner than the sources under
 * tsx (which transpile each module at every start).
 */
export default async function setup(project: TestProject) {
  project.provide("serverBundle", (await bundleServer(".test-build", { reuse: true })) as string);
  // Names the databases this run lends its tests on a PostgreSQL server (pg-server.ts
  // leaseDatabaseOn); the workers inherit it, and the run drops them when it ends.
  const run = randomBytes(4).toString("hex");
  process.env.DIGINOOR_TEST_RUN = run;
  return async () => {
    if (!process.env.DATABASE_URL) return;
    const { dropLentDatabases, TEST_POSTGRES_URL } = await import("./pg-server.ts");
    await dropLentDatabases(TEST_POSTGRES_URL, run);
  };
}
