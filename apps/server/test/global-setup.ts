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
 * Bundles src/main.ts once per run, as `npm run build` does: the crash, fault and restart tests start
 * server processes dozens of times, and the bundle starts about 1.6 s sooner than the sources under
 * tsx (which transpile each module at every start).
 */
export default async function setup(project: TestProject) {
  project.provide("serverBundle", (await bundleServer(".test-build")) as string);
}
