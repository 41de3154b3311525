// Bundles the server, the workspace packages it imports as TypeScript and its npm dependencies into
// `<outdir>/main.js`, with the migrations beside it. Used by build.mjs (dist/) and by the tests that
// start server processes (.test-build/). Decision 177: with the dependencies external, Node resolved,
// read and compiled about 2,000 files at every start (2.4-2.8 s to ready, 2.9-3.4 s of CPU on this
// machine); in one file, 1.6-1.8 s and 1.8-2.0 s.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
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

/**
 * A digest of what a bundle was built from: every file esbuild read (absolute paths, from its
 * metafile), this script, esbuild's version and the migrations.
 * @param {string[]} inputs
 */
function inputsDigest(inputs) {
  const h = createHash("sha256");
  h.update(fs.readFileSync(new URL(import.meta.url)));
  h.update(fs.readFileSync(new URL("../../node_modules/esbuild/package.json", here)));
  for (const f of [...inputs].sort()) {
    h.update(f);
    h.update(fs.existsSync(f) ? fs.readFileSync(f) : "(gone)");
  }
  const migrations = new URL("src/db/migrations/", here);
  for (const f of fs.readdirSync(migrations).sort())
    h.update(f).update(fs.readFileSync(new URL(f, migrations)));
  return h.digest("hex");
}

/**
 * @param {string} outdir a directory directly inside apps/server (the web app is found at ../../web/dist).
 * @param {{ reuse?: boolean }} [opts] reuse: keep `<outdir>/main.js` when none of its inputs changed
 *   since it was built (the tests' bundle: CI's second test pass, a developer's next run).
 */
export async function bundleServer(outdir, opts = {}) {
  const out = new URL(`${outdir}/`, here);
  const stamp = new URL("inputs.json", out);
  if (opts.reuse && fs.existsSync(stamp) && fs.existsSync(new URL("main.js", out))) {
    const { inputs, digest } = JSON.parse(fs.readFileSync(stamp, "utf8"));
    if (inputsDigest(inputs) === digest) return new URL("main.js", out).pathname;
  }
  fs.rmSync(out, { recursive: true, force: true });
  const result = await build({
    metafile: true,
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
  if (opts.reuse) {
    const inputs = Object.keys(result.metafile.inputs)
      .filter((f) => !f.includes(":"))
      .map((f) => path.resolve(f));
    fs.writeFileSync(stamp, JSON.stringify({ digest: inputsDigest(inputs), inputs }));
  }
  return new URL("main.js", out).pathname;
}
