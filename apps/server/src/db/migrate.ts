import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Database } from "./client.ts";

/** Migrations are plain SQL files, `NNNN_area.sql`, applied once each, in name order. */
export const migrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url));

/**
 * Applies pending migrations. Each file runs in its own transaction; on a PostgreSQL server an
 * advisory lock serialises concurrent starts of several server processes.
 */
export async function migrate(database: Database, dir = migrationsDir): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  return database.exclusive(async (conn) => {
    const lock = database.kind === "postgres";
    if (lock) await conn.query("SELECT pg_advisory_lock(727272)");
    try {
      await conn.exec(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      const done = new Set(
        (await conn.query<{ name: string }>("SELECT name FROM schema_migrations")).map((r) => r.name),
      );
      const applied: string[] = [];
      for (const file of files) {
        if (done.has(file)) continue;
        const script = fs.readFileSync(`${dir}/${file}`, "utf8");
        try {
          await conn.exec(
            `BEGIN;\n${script}\n;\nINSERT INTO schema_migrations (name) VALUES ('${file}');\nCOMMIT;`,
          );
        } catch (err) {
          await conn.exec("ROLLBACK").catch(() => {});
          throw new Error(`Migration ${file} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(file);
      }
      return applied;
    } finally {
      if (lock) await conn.query("SELECT pg_advisory_unlock(727272)");
    }
  });
}
