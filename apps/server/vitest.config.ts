import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    root: import.meta.dirname,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test" },
    globalSetup: ["test/global-setup.ts"],
    // Test files share their worker's module graph (viem, the AWS SDK, PGlite, Fastify… are loaded once
    // per worker, not once per file): importing them was about 3 s per file on this 2-core machine.
    // Every test builds its own app, database and servers, and nothing registers process-wide state.
    isolate: false,
  },
});
