// Issue 8 item 10: every installed package accepts the Node we run on (npm only warns otherwise).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { postgresPass } from "./passes.ts";

const script = fileURLToPath(new URL("../../../scripts/check-engines.mjs", import.meta.url));
const check = (root?: string) =>
  spawnSync(process.execPath, root ? [script, root] : [script], { encoding: "utf8" });

// No database: the PGlite pass runs it (passes.ts).
describe.skipIf(postgresPass)("installed packages' engines", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "engines-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const write = (dir: string, pkg: object) => {
    fs.mkdirSync(path.join(tmp, dir), { recursive: true });
    fs.writeFileSync(path.join(tmp, dir, "package.json"), JSON.stringify(pkg));
  };

  it("all accept the running Node (cookie and content-disposition pinned below their Node 22 majors)", () => {
    const run = check();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`accept Node ${process.versions.node.replaceAll(".", "\\.")}`));
  });

  it("names each package whose engines refuse the running Node, nested and scoped ones too", () => {
    write("node_modules/ok", { name: "ok", version: "1.0.0", engines: { node: ">=18" } });
    write("node_modules/none", { name: "none", version: "1.0.0" });
    write("node_modules/@scope/future", {
      name: "@scope/future",
      version: "3.0.0",
      engines: { node: ">=99" },
    });
    write("node_modules/ok/node_modules/nested", {
      name: "nested",
      version: "2.0.0",
      engines: { node: "^18" },
    });
    write("apps/server/node_modules/inws", { name: "inws", version: "1.0.0", engines: { node: ">=98" } });
    const run = check(tmp);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("3 installed package(s) do not support");
    expect(run.stderr).toContain("@scope/future@3.0.0 needs node >=99");
    expect(run.stderr).toContain("nested@2.0.0 needs node ^18");
    expect(run.stderr).toContain("inws@1.0.0 needs node >=98");
    expect(run.stderr).not.toMatch(/\bok@|\bnone@/);
  });
});
