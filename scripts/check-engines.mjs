#!/usr/bin/env node
// Fails when an installed package's `engines.node` does not accept the running Node, so our own
// `engines` (">=20.19") tells the truth: npm only warns about such packages (EBADENGINE) and
// installs them anyway. Part of `npm run lint`; tested in apps/server/test/engines.test.ts.
//
// Usage: node scripts/check-engines.mjs [root]   (root defaults to the repository)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
const node = process.versions.node;

/** Every package directory under a node_modules folder, nested ones included. */
function* packages(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const full = path.join(dir, e.name);
    if (!e.isDirectory() && !e.isSymbolicLink()) continue;
    if (e.isSymbolicLink()) continue; // workspace links: checked through their own node_modules
    if (e.name.startsWith("@")) {
      yield* packages(full);
      continue;
    }
    yield full;
    yield* packages(path.join(full, "node_modules"));
  }
}

const workspaces = [".", "apps/server", "apps/web", "packages/api", "packages/contracts"];
const bad = [];
let checked = 0;
const seen = new Set();
for (const ws of workspaces) {
  for (const dir of packages(path.join(root, ws, "node_modules"))) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    let pkg;
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    } catch {
      continue; // not a package (e.g. node_modules/.bin)
    }
    checked++;
    const range = pkg.engines?.node;
    if (typeof range !== "string" || range.trim() === "") continue;
    const valid = semver.validRange(range, { loose: true });
    if (!valid || !semver.satisfies(node, valid, { includePrerelease: true, loose: true })) {
      bad.push(`${pkg.name}@${pkg.version} needs node ${range} (${path.relative(root, dir)})`);
    }
  }
}

if (bad.length) {
  console.error(`${bad.length} installed package(s) do not support Node ${node}:`);
  for (const b of bad) console.error(`  - ${b}`);
  console.error("Pin a compatible version (package.json `overrides`) or an older parent.");
  process.exit(1);
}
console.log(`engines: all ${checked} installed packages accept Node ${node}`);
