import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type Database, openDatabase } from "../src/db/client.ts";
import { migrate, migrationsDir } from "../src/db/migrate.ts";
import { createJobQueues } from "./job-queues.ts";

/**
 * A migrated PGlite (with pg-boss's schema and the job queues: job-queues.ts) is built once and kept as a data-directory
 * dump in the temp directory, keyed by the migrations and the engine versions. Every test database
 * starts from it: a new cluster costs PGlite an `initdb` (most of its boot time) plus every
 * migration, loading the dump costs neither.
 */
const nodeModules = path.resolve(import.meta.dirname, "../../../node_modules");

function templateKey(): string {
  const h = createHash("sha256");
  h.update("job queues"); // what the template holds besides the migrations (buildTemplate)
  for (const pkg of ["@electric-sql/pglite", "pg-boss"]) {
    h.update(fs.readFileSync(path.join(nodeModules, pkg, "package.json")));
  }
  for (const f of fs.readdirSync(migrationsDir).sort()) {
    h.update(f);
    h.update(fs.readFileSync(path.join(migrationsDir, f)));
  }
  return h.digest("hex").slice(0, 16);
}

let cached: Promise<Blob> | undefined;

async function buildTemplate(file: string): Promise<Blob> {
  const database = await openDatabase({});
  try {
    await migrate(database);
    await createJobQueues(database);
    const dump = await (database.raw as { client: PGlite }).client.dumpDataDir("none");
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file); // atomic: another worker never reads half a file
    return dump;
  } finally {
    await database.close();
  }
}

function template(): Promise<Blob> {
  cached ??= (async () => {
    const file = path.join(os.tmpdir(), `diginoor-pglite-template-${templateKey()}.tar`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    return buildTemplate(file);
  })();
  return cached;
}

/** A fresh, migrated in-memory PGlite, loaded from the template. */
export async function openTemplateDatabase(): Promise<Database> {
  const database = await openDatabase({ loadDataDir: await template() });
  // Migrations newer than the dump (none, unless the key missed a change) are applied here.
  await migrate(database);
  return database;
}
