// Bundles the server (and the workspace packages it imports as TypeScript) into `<outdir>/main.js`,
// with the migrations beside it. npm dependencies stay external and load from node_modules.
// Used by build.mjs (dist/) and by the tests that start server processes (.test-build/).
import fs from "node:fs";
import { build } from "esbuild";

const here = new URL(".", import.meta.url);

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
        name: "externalize-npm",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith("@diginoor/")) return undefined;
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  fs.cpSync(new URL("src/db/migrations/", here), new URL("migrations/", out), { recursive: true });
  return new URL("main.js", out).pathname;
}
