// How long a test database takes to get ready: a fresh PGlite (initdb + every migration + pg-boss's
// schema), one loaded from the migrated template dump, and one lent by the test harness's pool (a
// used instance reset to the template: the time is its open, use and close, the reset included).
// Runs the three interleaved, so machine load affects them alike. Prints milliseconds.
// usage: npx tsx apps/server/bench/test-boot.ts [rounds=3]
import { openDatabase } from "../src/db/client.ts";
import { migrate } from "../src/db/migrate.ts";
import { createJobs } from "../src/platform/jobs/jobs.ts";
import { newTemplateDatabase, openTemplateDatabase } from "../test/pglite-template.ts";

const rounds = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function fresh(): Promise<number> {
  const t0 = performance.now();
  const database = await openDatabase({});
  await migrate(database);
  const jobs = createJobs({ database, workers: false });
  await jobs.start();
  await jobs.stop();
  const ms = performance.now() - t0;
  await database.close();
  return ms;
}

async function fromTemplate(): Promise<number> {
  const t0 = performance.now();
  const database = await newTemplateDatabase();
  const jobs = createJobs({ database, workers: false });
  await jobs.start();
  await jobs.stop();
  const ms = performance.now() - t0;
  await database.close();
  return ms;
}

async function lent(): Promise<number> {
  const t0 = performance.now();
  const database = await openTemplateDatabase();
  const jobs = createJobs({ database, workers: false });
  await jobs.start();
  await database.query("UPDATE pgboss.queue SET updated_on = now()"); // what every app start writes
  await jobs.stop();
  await database.close(); // resets it for the next lease
  return performance.now() - t0;
}

await (await openTemplateDatabase()).close(); // builds the template once if missing
const a: number[] = [];
const b: number[] = [];
const c: number[] = [];
for (let i = 0; i < rounds; i++) {
  a.push(await fresh());
  b.push(await fromTemplate());
  c.push(await lent());
}
console.log(
  `fresh PGlite + migrations + pg-boss schema: median ${Math.round(median(a))} ms  (${a.map(Math.round).join(", ")})`,
);
console.log(
  `loaded from the template dump:              median ${Math.round(median(b))} ms  (${b.map(Math.round).join(", ")})`,
);
console.log(
  `lent by the pool (use, then close + reset):  median ${Math.round(median(c))} ms  (${c.map(Math.round).join(", ")})`,
);
