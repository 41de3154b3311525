import { defineConfig } from "vitest/config";

// One project per workspace; each workspace owns its vitest.config.ts.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"],
  },
});
