#!/usr/bin/env node
// Reports the gzip size of every JS chunk of the web build and the home page's first-load JS
// (the entry chunk plus everything it imports statically, plus the home route's own chunk and
// its static imports, which the router loads before it renders "/"). Exits 1 above the budget.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 200 * 1024;
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist");
const manifestPath = path.join(dist, ".vite/manifest.json");
if (!fs.existsSync(manifestPath)) {
  console.error(`No Vite manifest at ${manifestPath}; run vite build with build.manifest enabled.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));

const gzipCache = new Map();
function gzipSize(file) {
  if (!gzipCache.has(file)) {
    const bytes = fs.readFileSync(path.join(dist, file));
    gzipCache.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return gzipCache.get(file);
}

/** Collects the files of `key` and of its static imports, recursively. */
function staticClosure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) staticClosure(dep, seen);
  return seen;
}

const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
if (entries.length !== 1) {
  console.error(`Expected one entry chunk, found ${entries.length}`);
  process.exit(1);
}
const [entryKey] = entries[0];
const firstLoad = staticClosure(entryKey);
const homeKey = Object.keys(manifest).find((k) => /features\/home\/routes\/HomePage\.tsx$/.test(k));
if (homeKey) staticClosure(homeKey, firstLoad);
else console.warn("warning: home route chunk not found in the manifest; counting the entry only");

const jsFiles = [
  ...new Set(
    Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith(".js")),
  ),
];
const rows = jsFiles
  .map((file) => ({ file, ...gzipSize(file), first: firstLoad.has(file) }))
  .sort((a, b) => b.gzip - a.gzip);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const width = Math.max(...rows.map((r) => r.file.length), 10);
console.log("\nJavaScript chunks (gzip level 9)");
console.log(`${"file".padEnd(width)}  ${"raw".padStart(10)}  ${"gzip".padStart(10)}  first load`);
for (const r of rows) {
  console.log(
    `${r.file.padEnd(width)}  ${kb(r.raw).padStart(10)}  ${kb(r.gzip).padStart(10)}  ${r.first ? "yes" : ""}`,
  );
}
const total = rows.filter((r) => r.first).reduce((sum, r) => sum + r.gzip, 0);
const all = rows.reduce((sum, r) => sum + r.gzip, 0);
console.log(`\nAll JS: ${kb(all)} gzip in ${rows.length} chunks`);
console.log(`Home page first-load JS: ${kb(total)} gzip (budget ${kb(BUDGET_BYTES)})`);
if (total > BUDGET_BYTES) {
  console.error(`Over budget by ${kb(total - BUDGET_BYTES)}.`);
  process.exit(1);
}
