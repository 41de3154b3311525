// Issue 7 point 1: the module and feature boundaries in .dependency-cruiser.cjs fail `npm run lint`.
// Each case builds a tiny tree with the repository's own layout in a temporary directory and runs
// dependency-cruiser on it with the repository's configuration.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { postgresPass } from "./passes.ts";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const cli = path.join(repo, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const config = path.join(repo, ".dependency-cruiser.cjs");

// No database: the PGlite pass runs it (passes.ts).
describe.skipIf(postgresPass)("architectural boundaries (dependency-cruiser)", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });

  /** Writes `files` into a fresh tree and cruises it; returns the exit status and output. */
  const cruise = (files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "boundaries-"));
    roots.push(root);
    fs.copyFileSync(path.join(repo, "tsconfig.base.json"), path.join(root, "tsconfig.base.json"));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    const tops = ["apps", "packages"].filter((d) => fs.existsSync(path.join(root, d)));
    const run = spawnSync(process.execPath, [cli, "--config", config, ...tops], {
      cwd: root,
      encoding: "utf8",
    });
    return { status: run.status, out: run.stdout + run.stderr };
  };

  const serverModules = {
    "apps/server/src/modules/catalogue/tables.ts": "export const nfts = 'nfts';\n",
    "apps/server/src/modules/catalogue/repo.ts":
      'import { nfts } from "./tables.ts";\nexport const findNft = () => nfts;\n',
    "apps/server/src/modules/catalogue/service.ts":
      'import { findNft } from "./repo.ts";\nexport const nftForToken = () => findNft();\n',
  };

  it("lets a module call another module's service", () => {
    const run = cruise({
      ...serverModules,
      "apps/server/src/modules/chain/metadata.ts":
        'import { nftForToken } from "../catalogue/service.ts";\nexport const m = nftForToken;\n',
    });
    expect(run.out).toContain("no dependency violations found");
    expect(run.status).toBe(0);
  });

  // One tree with one forbidden import per rule (each run of the tool costs seconds).
  it("fails each forbidden import, naming its rule: another module's repo or tables (type-only imports too), another web feature, server code from the web, apps/ from packages/api", () => {
    const run = cruise({
      ...serverModules,
      "apps/server/src/modules/chain/metadata.ts":
        'import { findNft } from "../catalogue/repo.ts";\nexport const m = findNft;\n',
      "apps/server/src/modules/chain/types.ts":
        'import type { nfts } from "../catalogue/tables.ts";\nexport type T = typeof nfts;\n',
      "apps/web/src/lib/format.ts": "export const price = (c: number) => String(c);\n",
      "apps/web/src/features/auth/api.ts":
        'import { price } from "../../lib/format.ts";\nexport const login = () => price(1);\n',
      "apps/web/src/features/profile/page.tsx":
        'import { login } from "../auth/api.ts";\nexport const P = login;\n',
      "apps/web/src/lib/leak.ts":
        'import { nftForToken } from "../../../server/src/modules/catalogue/service.ts";\nexport const l = nftForToken;\n',
      "packages/api/src/auth.ts":
        'import { nftForToken } from "../../../apps/server/src/modules/catalogue/service.ts";\nexport const a = nftForToken;\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.out).toMatch(
      /module-through-service: apps\/server\/src\/modules\/chain\/metadata\.ts → apps\/server\/src\/modules\/catalogue\/repo\.ts/,
    );
    expect(run.out).toMatch(
      /module-through-service: apps\/server\/src\/modules\/chain\/types\.ts → .*tables\.ts/,
    );
    expect(run.out).toMatch(
      /feature-isolation: apps\/web\/src\/features\/profile\/page\.tsx → apps\/web\/src\/features\/auth\/api\.ts/,
    );
    expect(run.out).toMatch(/web-not-server: apps\/web\/src\/lib\/leak\.ts → apps\/server\//);
    expect(run.out).toMatch(/api-not-apps: packages\/api\/src\/auth\.ts → apps\/server\//);
    // Allowed: a feature importing lib/, a module calling another module's service.
    expect(run.out).not.toMatch(/features\/auth\/api\.ts → apps\/web\/src\/lib/);
    expect(run.out).toMatch(/5 dependency violations/);
  });

  // Issue 21 point 3: an import cycle (type-only imports count), a route file registering a job, a
  // route file reaching a repo. A route file importing its service is allowed.
  it("fails an import cycle, a route file importing platform/jobs or its jobs.ts, and a route file importing a repo, naming each rule", () => {
    const run = cruise({
      ...serverModules,
      "apps/server/src/platform/jobs/jobs.ts": "export const defineJob = (d: object) => d;\n",
      "apps/server/src/context.ts":
        'import { social } from "./modules/social/service.ts";\nexport interface AppContext { s: typeof social }\n',
      "apps/server/src/modules/social/service.ts":
        'import { accounts } from "../accounts/service.ts";\nexport const social = accounts;\n',
      "apps/server/src/modules/accounts/service.ts":
        'import type { AppContext } from "../../context.ts";\nexport const accounts = (c: AppContext) => c;\n',
      "apps/server/src/modules/lottery/service.ts": "export const tick = () => 1;\n",
      "apps/server/src/modules/lottery/routes.ts":
        'import { defineJob } from "../../platform/jobs/jobs.ts";\nimport { tick } from "./service.ts";\nexport const r = defineJob({ tick });\n',
      "apps/server/src/modules/lottery/jobs.ts": "export const tickJob = 1;\n",
      "apps/server/src/modules/lottery/admin-routes.ts":
        'import { tickJob } from "./jobs.ts";\nexport const register = (r: (j: number) => void) => r(tickJob);\n',
      "apps/server/src/modules/catalogue/admin-routes.ts":
        'import { findNft } from "./repo.ts";\nimport { nftForToken } from "./service.ts";\nexport const r = [findNft, nftForToken];\n',
    });
    expect(run.status).not.toBe(0);
    expect(run.out).toMatch(/no-import-cycle: apps\/server\/src\/context\.ts →/);
    expect(run.out).toMatch(
      /modules\/social\/service\.ts →\s+apps\/server\/src\/modules\/accounts\/service\.ts/,
    );
    expect(run.out).toMatch(
      /routes-register-no-jobs: apps\/server\/src\/modules\/lottery\/routes\.ts → apps\/server\/src\/platform\/jobs\/jobs\.ts/,
    );
    expect(run.out).toMatch(
      /routes-register-no-jobs: apps\/server\/src\/modules\/lottery\/admin-routes\.ts → apps\/server\/src\/modules\/lottery\/jobs\.ts/,
    );
    expect(run.out).toMatch(
      /routes-not-repos: apps\/server\/src\/modules\/catalogue\/admin-routes\.ts → apps\/server\/src\/modules\/catalogue\/repo\.ts/,
    );
    expect(run.out).not.toMatch(/routes\.ts → apps\/server\/src\/modules\/[a-z]+\/service\.ts/);
  });
});
