// The npm registry these machines reach serves native binaries only for this platform, so npm
// cannot write lock entries for other platforms' optional packages (esbuild, rollup, biome, sharp
// builds for macOS, Windows, Android...). `npm ci` then refuses the lock as "out of sync". This adds
// a version-only entry for every optional dependency the lock names but does not contain; on
// install npm skips them as optional packages that do not fit this platform.
// Run after `npm install` changes dependencies: `node scripts/lock-platform-stubs.mjs`.
import fs from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const pkgs = lock.packages;
let added = 0;
for (const [where, meta] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    // Resolution as npm does it: nested under the dependent first, then hoisted to the root.
    const nested = `${where ? `${where}/` : ""}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (pkgs[nested] || pkgs[hoisted]) continue;
    pkgs[hoisted] = { version, ...(meta.dev ? { dev: true } : {}), optional: true };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-stubs: added ${added} entries`);
