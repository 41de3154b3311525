import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process.ts";

/**
 * A PostgreSQL cluster of the test's own (Debian's initdb and pg_ctl, in a temporary directory, on a
 * free port), for fault tests that stop and start the server: the machine's shared PostgreSQL on
 * 5432 serves other tests at the same time and is never restarted. PostgreSQL refuses to run as
 * root, so as root (CI, the development containers) it runs as the `postgres` OS user.
 */
export interface PrivatePostgres {
  port: number;
  /** URL of database `name` on the cluster. */
  url(name: string): string;
  /** `pg_ctl stop -m fast`: connections are closed, as when the server restarts. */
  stop(): void;
  /** `pg_ctl start`, returning once it accepts connections. */
  start(): void;
  dispose(): void;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`no PostgreSQL server binaries (initdb) under ${root}`);
  return path.join(root, versions[0], "bin");
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-private-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    fs.chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, cmd),
      asRoot ? ["-u", "postgres", "--", path.join(bin, cmd), ...args] : args,
      {
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 60_000,
      },
    );
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pg = {
    port,
    url: (name: string) => `postgresql://postgres@127.0.0.1:${port}/${name}`,
    stop: () => {
      run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
    },
    start: () => {
      run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "30", "start"]);
    },
    dispose: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]);
      } catch {
        /* not running */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}
