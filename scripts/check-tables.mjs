#!/usr/bin/env node
// Data ownership (issue 21 point 3), run by `npm run lint`: every table created by a migration has an
// owning module, and no module's code names another module's table in SQL.
//
// - Tables: every CREATE TABLE in apps/server/src/db/migrations/*.sql.
// - Owners: apps/server/src/modules/<m>/tables.ts, from its Drizzle definitions (pgTable("name", …))
//   and its `ownedTables` list (tables whose Drizzle definitions are not written yet). Tables owned by
//   the platform rather than a module are listed in scripts/check-tables.allow.json (platformTables).
// - SQL: string and template literals in a module's .ts files (not tests) that look like SQL (an
//   upper-case SELECT, FROM, JOIN, INSERT INTO, UPDATE, DELETE FROM, …); any whole word in them that
//   is another module's table fails, as file:line, unless scripts/check-tables.allow.json lists that
//   file and table with a reason.
//
// Usage: node scripts/check-tables.mjs [root]   (root defaults to the current directory)
import fs from "node:fs";
import path from "node:path";

const RULE = "table-ownership";
const root = path.resolve(process.argv[2] ?? ".");
const migrationsDir = path.join(root, "apps/server/src/db/migrations");
const modulesDir = path.join(root, "apps/server/src/modules");
const allowFile = path.join(root, "scripts/check-tables.allow.json");

const allow = fs.existsSync(allowFile)
  ? JSON.parse(fs.readFileSync(allowFile, "utf8"))
  : { platformTables: {}, crossings: [] };
const problems = [];

// 1. Tables created by the migrations.
const created = new Map(); // table → migration file
if (fs.existsSync(migrationsDir)) {
  for (const f of fs
    .readdirSync(migrationsDir)
    .filter((n) => n.endsWith(".sql"))
    .sort()) {
    const text = stripSqlComments(fs.readFileSync(path.join(migrationsDir, f), "utf8"));
    for (const m of text.matchAll(
      /\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi,
    )) {
      if (!created.has(m[1].toLowerCase())) created.set(m[1].toLowerCase(), f);
    }
    for (const m of text.matchAll(
      /\bdrop\s+table\s+(?:if\s+exists\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi,
    )) {
      created.delete(m[1].toLowerCase());
    }
  }
}

// 2. Owners, from each module's tables.ts.
const owner = new Map(); // table → module
const modules = fs.existsSync(modulesDir)
  ? fs.readdirSync(modulesDir).filter((d) => fs.statSync(path.join(modulesDir, d)).isDirectory())
  : [];
for (const m of modules) {
  const file = path.join(modulesDir, m, "tables.ts");
  if (!fs.existsSync(file)) continue;
  const text = fs.readFileSync(file, "utf8");
  const names = [...text.matchAll(/\bpgTable\(\s*["']([a-z_][a-z0-9_]*)["']/g)].map((x) => x[1]);
  const list = /\bownedTables\s*=\s*\[([^\]]*)\]/.exec(text);
  if (list) names.push(...[...list[1].matchAll(/["']([a-z_][a-z0-9_]*)["']/g)].map((x) => x[1]));
  for (const t of names) {
    if (owner.has(t) && owner.get(t) !== m)
      problems.push(`${RULE}: table "${t}" is claimed by both ${owner.get(t)} and ${m} (tables.ts)`);
    owner.set(t, m);
  }
}
for (const t of Object.keys(allow.platformTables ?? {})) if (!owner.has(t)) owner.set(t, "(platform)");
for (const [t, f] of created) {
  if (!owner.has(t))
    problems.push(
      `${RULE}: table "${t}" (${f}) has no owner: list it in its module's tables.ts (pgTable or ownedTables)`,
    );
}

// 3. SQL in each module naming another module's table.
const allowed = new Set((allow.crossings ?? []).map((c) => `${c.file}\0${c.table}`));
const SQL = /\b(SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|FROM|JOIN|TRUNCATE|ALTER\s+TABLE|REFERENCES)\b/;
for (const m of modules) {
  for (const file of tsFiles(path.join(modulesDir, m))) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    const text = fs.readFileSync(file, "utf8");
    for (const lit of literals(text)) {
      if (!SQL.test(lit.text)) continue;
      for (const w of lit.text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
        const t = w[0];
        const o = owner.get(t);
        if (!o || o === m || o === "(platform)") continue;
        if (allowed.has(`${rel}\0${t}`)) continue;
        const line = lineOf(text, lit.start + w.index);
        problems.push(`${RULE}: ${rel}:${line} names table "${t}" owned by ${o} (go through ${o}'s service)`);
      }
    }
  }
}

for (const p of [...new Set(problems)]) console.error(`  error ${p}`);
if (problems.length) {
  console.error(`\nx ${new Set(problems).size} table ownership violations`);
  process.exit(1);
}
console.log(`✔ table ownership: ${created.size} tables, each owned; no module names another's in SQL`);

function stripSqlComments(s) {
  return s.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, "");
}

function tsFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "test" && e.name !== "__tests__") out.push(...tsFiles(p));
    } else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) {
      out.push(p);
    }
  }
  return out;
}

function lineOf(text, index) {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * The string literals and the text parts of template literals in TypeScript source (comments and
 * code skipped), each with its start offset. Regular expression literals are not recognised; a
 * quote inside one may shift the scan until the end of its line at worst.
 */
function literals(src) {
  const out = [];
  const braces = []; // for each open `${`, the brace depth at which it closes
  let depth = 0;
  let i = 0;
  const n = src.length;
  const template = () => {
    // at the char after ` or after the } closing an expression
    const start = i;
    let text = "";
    while (i < n) {
      const c = src[i];
      if (c === "\\") {
        text += src.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        out.push({ text, start });
        i++;
        return;
      } else if (c === "$" && src[i + 1] === "{") {
        out.push({ text, start });
        i += 2;
        braces.push(depth);
        depth++;
        return;
      } else {
        text += c;
        i++;
      }
    }
    out.push({ text, start });
  };
  while (i < n) {
    const c = src[i];
    if (c === "/" && src[i + 1] === "/") {
      while (i < n && src[i] !== "\n") i++;
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      const start = i + 1;
      i++;
      while (i < n && src[i] !== c && src[i] !== "\n") i += src[i] === "\\" ? 2 : 1;
      out.push({ text: src.slice(start, i), start });
      i++;
    } else if (c === "`") {
      i++;
      template();
    } else if (c === "{") {
      depth++;
      i++;
    } else if (c === "}") {
      depth--;
      i++;
      if (braces.length && braces[braces.length - 1] === depth) {
        braces.pop();
        template();
      }
    } else {
      i++;
    }
  }
  return out;
}
