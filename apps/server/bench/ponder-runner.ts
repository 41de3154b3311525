// Ponder 0.16 beside our indexer in `npm run bench:indexer`. The Ponder project (apps/server/bench/ponder)
// has its own package.json and is installed on demand into its own, git-ignored node_modules: it is not a
// workspace of the repository, so neither `npm ci` nor CI ever installs it.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PONDER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "ponder");
const PONDER_BIN = path.join(PONDER_DIR, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");

/** Installs the Ponder project's dependencies unless present; returns Ponder's version. */
export function ensurePonder(): string {
  if (!fs.existsSync(PONDER_BIN)) {
    console.log(
      `Ponder: installing ${PONDER_DIR}/package.json into its own node_modules (npm install --prefix apps/server/bench/ponder, once; git-ignored, not a workspace) …`,
    );
    execFileSync(
      "npm",
      ["install", "--prefix", PONDER_DIR, "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error"],
      { stdio: "inherit" },
    );
  }
  const pkg = JSON.parse(
    fs.readFileSync(path.join(PONDER_DIR, "node_modules", "ponder", "package.json"), "utf8"),
  ) as { version: string };
  return pkg.version;
}

export interface PonderRun {
  /** Ponder's own clock of its backfill: fetching (or reading from its cache) and indexing every event. */
  backfillS: number;
  /** From the process's start to /ready answering 200 (build, migrations, backfill, indexes). */
  totalS: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `ponder start --schema <schema>` with `env` (the PONDER_* settings of ponder.config.ts, and
 * DATABASE_URL for PostgreSQL) until its /ready answers 200, then stops it.
 */
export async function runPonder(
  schema: string,
  port: number,
  env: Record<string, string>,
): Promise<PonderRun> {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  const logFile = path.join(PONDER_DIR, `.ponder-${schema}.log`);
  const out = fs.openSync(logFile, "w");
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [PONDER_BIN, "start", "--schema", schema, "--port", String(port), "--log-format", "json"],
    {
      cwd: PONDER_DIR,
      env: { ...base, PONDER_TELEMETRY_DISABLED: "true", CI: "true", ...env },
      stdio: ["ignore", out, out],
    },
  );
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const ok = (p: string) =>
    fetch(`http://127.0.0.1:${port}${p}`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
  try {
    for (;;) {
      if (exited) throw new Error(`ponder exited before it was ready; see ${logFile}`);
      if (await ok("/ready")) break;
      if (performance.now() - t0 > 900_000) throw new Error(`ponder not ready after 15 min; see ${logFile}`);
      await sleep(100);
    }
  } finally {
    if (!exited) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    fs.closeSync(out);
  }
  const totalS = (performance.now() - t0) / 1000;
  const done = fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { msg?: string; duration?: number })
    .find((l) => l.msg === "Completed backfill indexing across all chains");
  if (typeof done?.duration !== "number") throw new Error(`no backfill duration in ${logFile}`);
  return { backfillS: done.duration / 1000, totalS };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
