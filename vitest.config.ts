import fs from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's order (longest first by the last run's times, else largest file first), except that the
 * files starting real server processes (the crash, fault and restart tests: the longest, 15 to 70 s
 * each) go first. The times cannot place them: CI runs the PGlite pass first, where they are skipped
 * (passes.ts), so the PostgreSQL pass read them as the shortest and ran them last, and the last
 * minute of the pass was one worker finishing a crash test while the other had nothing left.
 */
class ServerProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const startsServers = (f: TestSpecification) =>
      /\b(startServerProcess|serverProcessFixture)\(/.test(fs.readFileSync(f.moduleId, "utf8"));
    const first = sorted.filter(startsServers);
    return [...first, ...sorted.filter((f) => !first.includes(f))];
  }
}

// One project per workspace; each workspace owns its vitest.config.ts.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"],
    // Vitest's default leaves a core free (one worker on this 2-core machine). Most server test files
    // wait on PostgreSQL, anvil and server processes rather than compute, so two files at once on two
    // cores halve the suite's time (PGlite: 325 → 250 s; PostgreSQL: 713 → about 300 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: ServerProcessesFirst },
  },
});
