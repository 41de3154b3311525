import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "contracts",
    root: import.meta.dirname,
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
