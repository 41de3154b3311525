// Architectural boundaries, checked by `npm run lint` (its `lint:boundaries` script runs
// dependency-cruiser with this file and --ignore-known, i.e. .dependency-cruiser-known-violations.json).
// SQL naming another module's table is checked separately by scripts/check-tables.mjs.
// Proved by apps/server/test/boundaries.test.ts. See docs/architecture.md and decision 061.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "module-through-service",
      comment:
        "A server module reaches another module only through that module's service.ts (its public surface), " +
        "never its repo.ts, tables.ts, routes or other internals.",
      severity: "error",
      from: { path: "^apps/server/src/modules/([^/]+)/" },
      to: {
        path: "^apps/server/src/modules/[^/]+/",
        pathNot: [
          "^apps/server/src/modules/$1/",
          "^apps/server/src/modules/[^/]+/service\\.ts$",
          // The signed-in-user guard (requireUser) until the HTTP layer enforces declared permissions.
          "^apps/server/src/modules/accounts/session\\.ts$",
        ],
      },
    },
    {
      name: "no-import-cycle",
      comment:
        "No import cycle (type-only imports count): a cycle means two files cannot be understood, built or " +
        "tested apart. Break it by moving the shared type or function to a file both import.",
      severity: "error",
      from: { path: "^(apps|packages)/" },
      to: { circular: true },
    },
    {
      name: "routes-register-no-jobs",
      comment:
        "A route file (modules/<m>/routes.ts or *-routes.ts) only maps HTTP to its service: it does not " +
        "define background jobs (platform/jobs) nor import the module's jobs.ts to register them; jobs live in jobs.ts and are " +
        "attached by bootstrap/main, so a worker does not need the HTTP app.",
      severity: "error",
      from: { path: "^apps/server/src/modules/[^/]+/[a-z-]*routes\\.ts$" },
      // Defining a job (platform/jobs) or bringing in the module's job definitions (jobs.ts) to register them.
      // orders, notifications and accounts still do the latter: baselined in
      // .dependency-cruiser-known-violations.json until their wiring moves out (issue 21 point 1).
      to: { path: ["^apps/server/src/platform/jobs/", "^apps/server/src/modules/[^/]+/jobs\\.ts$"] },
    },
    {
      name: "routes-not-repos",
      comment:
        "A route file goes through a service, never straight to a repo or tables (its own module's or another's).",
      severity: "error",
      from: { path: "^apps/server/src/modules/[^/]+/[a-z-]*routes\\.ts$" },
      to: { path: "^apps/server/src/modules/[^/]+/(repo|tables)\\.ts$" },
    },
    {
      name: "feature-isolation",
      comment: "A web feature does not import another feature; shared pieces live in lib/ and ui/.",
      severity: "error",
      from: { path: "^apps/web/src/features/([^/]+)/" },
      to: { path: "^apps/web/src/features/[^/]+/", pathNot: "^apps/web/src/features/$1/" },
    },
    {
      name: "web-not-server",
      comment: "The web app never imports server code (shapes come from packages/api).",
      severity: "error",
      from: { path: "^apps/web/" },
      to: { path: "^apps/server/" },
    },
    {
      name: "api-not-apps",
      comment: "packages/api is the contract both apps use: it imports nothing from apps/.",
      severity: "error",
      from: { path: "^packages/api/" },
      to: { path: "^apps/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|dist-ssr|coverage|\\.data)/" },
    // Type-only imports count: a type import of another module's tables is still a dependency on them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
