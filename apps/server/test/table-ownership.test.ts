// Issue 21 point 3: `npm run lint` fails when a module's SQL names another module's table, or when a
// migration's table has no owning module (scripts/check-tables.mjs). Each case writes a tiny tree with
// the repository's layout in a temporary directory and runs the script on it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { postgresPass } from "./passes.ts";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const script = path.join(repo, "scripts/check-tables.mjs");

// No database: the PGlite pass runs it (passes.ts).
describe.skipIf(postgresPass)("table ownership (scripts/check-tables.mjs)", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });

  const check = (files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "tables-"));
    roots.push(root);
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    const run = spawnSync(process.execPath, [script, root], { encoding: "utf8" });
    return { status: run.status, out: run.stdout + run.stderr };
  };

  /** A template literal's expression as source text (`${e}`). */
  const expr = (e: string) => `$${"{"}${e}}`;

  const base = {
    "apps/server/src/db/migrations/0001_a.sql":
      "CREATE TABLE users (id uuid PRIMARY KEY, name text);\nCREATE TABLE IF NOT EXISTS lotteries (id int, winner_user_id uuid);\n",
    "apps/server/src/modules/accounts/tables.ts":
      'import { pgTable, text } from "drizzle-orm/pg-core";\nexport const users = pgTable(\n  "users",\n  { name: text("name") },\n);\n',
    "apps/server/src/modules/accounts/repo.ts":
      "export const names = (q: (s: string) => unknown) => q(`SELECT id, name FROM users WHERE id = ANY($1)`);\n",
    "apps/server/src/modules/lottery/tables.ts": 'export const ownedTables = ["lotteries"] as const;\n',
    // Words that are table names outside SQL (comments, messages) are not SQL.
    "apps/server/src/modules/lottery/service.ts":
      '// the users who won\nexport const message = "Only signed-in users may enter";\n',
  };

  it("passes a tree where each module's SQL names only its own tables", () => {
    const run = check({
      ...base,
      "apps/server/src/modules/lottery/repo.ts":
        "export const open = (q: (s: string) => unknown) =>\n  q(`SELECT id FROM lotteries WHERE winner_user_id IS NULL`);\n",
    });
    expect(run.out).toContain("no module names another's in SQL");
    expect(run.status).toBe(0);
  });

  it("fails a module's SQL naming another module's table (also inside a template's text after an expression), listing file:line", () => {
    const run = check({
      ...base,
      "apps/server/src/modules/lottery/repo.ts": `const limit = 5;\nexport const winners = (q: (s: string) => unknown) =>\n  q(\`SELECT l.id FROM lotteries l LIMIT ${expr("limit")}\n     ${expr("''")} LEFT JOIN users u ON u.id = l.winner_user_id\`);\n`,
      // Tests are not scanned.
      "apps/server/src/modules/lottery/repo.test.ts": 'export const s = "SELECT * FROM users";\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.out).toMatch(
      /table-ownership: apps\/server\/src\/modules\/lottery\/repo\.ts:4 names table "users" owned by accounts/,
    );
    expect(run.out).not.toMatch(/repo\.test\.ts/);
    expect(run.out).not.toMatch(/service\.ts/);
  });

  it("fails a migration's table that no module's tables.ts owns", () => {
    const run = check({
      ...base,
      "apps/server/src/db/migrations/0002_b.sql": "create table follows (a uuid, b uuid);\n",
    });
    expect(run.status).not.toBe(0);
    expect(run.out).toMatch(/table-ownership: table "follows" \(0002_b\.sql\) has no owner/);
  });
});
