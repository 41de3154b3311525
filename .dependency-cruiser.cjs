// Architectural boundaries, checked by `npm run lint` (scripts/check-boundaries.mjs runs
// dependency-cruiser with this file). See docs/architecture.md and decision 061.
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
    exclude: { path: "(^|/)(node_modules|dist|coverage|\\.data)/" },
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
