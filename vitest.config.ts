import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One project per workspace; each workspace owns its vitest.config.ts.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"],
    // Vitest's default leaves a core free (one worker on this 2-core machine). Most server test files
    // wait on PostgreSQL, anvil and server processes rather than compute, so two files at once on two
    // cores halve the suite's time (PGlite: 325 → 250 s; PostgreSQL: 713 → about 300 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
