// Bundles the server, the workspace packages it imports as TypeScript and its npm dependencies into
// `<outdir>/main.js`, with the migrations beside it. Used by build.mjs (dist/) and by the tests that
// start server processes (.test-build/). Decision 177: with the dependencies external, Node resolved,
// read and compiled about 2,000 files at every start (2.4-2.8 s to ready, 2.9-3.4 s of CPU on this
// machine); in one file, 1.6-1.8 s and 1.8-2.0 s.
import fs from "node:fs";
import { build } from "esbuild";

const here = new URL(".", import.meta.url);

/**
 * npm packages that load from node_modules rather than from the bundle: native addons and WebAssembly
 * (argon2, sharp, PGlite), packages that read their own files beside their modules (pdfkit's fonts, the
 * Swagger UI's assets and the swagger plugin's package.json, pino's transport workers), and the
 * payment SDKs, which only a configured provider imports (a lazy import of a bundled module still
 * costs its compile at every start).
 */
const STAY_EXTERNAL = new Set([
  "@electric-sql/pglite",
  "@node-rs/argon2",
  "sharp",
  "pdfkit",
  "@fastify/swagger",
  "@fastify/swagger-ui",
  "pino",
  "stripe",
  "cashfree-pg",
]);

/** `@scope/name` or `name` of an import path (`viem/accounts` → `viem`; `node:fs` stays itself). */
function packageName(spec) {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** @param {string} outdir a directory directly inside apps/server (the web app is found at ../../web/dist). */
export async function bundleServer(outdir) {
  const out = new URL(`${outdir}/`, here);
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: { main: new URL("src/main.ts", here).pathname },
    outdir: out.pathname,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    plugins: [
      {
        name: "external-packages",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = packageName(args.path);
            return STAY_EXTERNAL.has(name) ? { path: args.path, external: true } : undefined;
          });
        },
      },
    ],
  });
  fs.cpSync(new URL("src/db/migrations/", here), new URL("migrations/", out), { recursive: true });
  return new URL("main.js", out).pathname;
}
