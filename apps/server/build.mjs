// Bundles the server (and the workspace packages it imports as TypeScript) into dist/main.js.
// npm dependencies stay external and load from node_modules.
import fs from "node:fs";
import { build } from "esbuild";

const here = new URL(".", import.meta.url);
fs.rmSync(new URL("dist/", here), { recursive: true, force: true });
await build({
  entryPoints: { main: new URL("src/main.ts", here).pathname },
  outdir: new URL("dist/", here).pathname,
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
fs.cpSync(new URL("src/db/migrations/", here), new URL("dist/migrations/", here), { recursive: true });
console.log("server built: apps/server/dist/main.js");
