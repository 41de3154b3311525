#!/usr/bin/env -S npx tsx
// Issue 37's interop checks, re-run with clients nobody here wrote: Redocly and Spectral read the
// OpenAPI document; the built server (`node apps/server/dist/main.js`, its own anvil and bundler, a
// fresh data directory) is then driven only over the network: ajv (strict) validates every live
// answer against the served document, Prometheus's promtool checks a live /metrics scrape, viem's
// JSON-RPC client and permissionless's smart account client talk to `/api/v1/bundler`, and
// SimpleWebAuthn's verifier is asked the same WebAuthn questions as our server. Prints one line per
// check and exits 1 if any deviates. Builds nothing: run `npm run build` first.
//
//   npx tsx scripts/probe-interop.ts [--port 4390] [--write]
//
// --write puts the table into docs/probes.md (its "interop" section).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compileIn, type OpenApiDoc, strictAjv } from "../apps/server/scripts/openapi-strict.ts";
import { interopBundlerChecks } from "./probe-interop/bundler.ts";
import { type Check, type Client, client, signedUpFan } from "./probe-interop/client.ts";
import { interopSmartAccountChecks } from "./probe-interop/smart-account.ts";
import { interopWebAuthnChecks } from "./probe-interop/webauthn.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: { port: { type: "string", default: "4390" }, write: { type: "boolean", default: false } },
});
const port = Number(args.port);
const base = `http://localhost:${port}`;
const METRICS_TOKEN = "probe-interop-metrics-token";

const results: Check[] = [];
function record(area: string, probe: string, expected: string, observed: string, ok: boolean) {
  results.push({ area, probe, expected, observed, ok });
  console.log(`${ok ? "ok  " : "FAIL"} ${area.padEnd(12)} ${probe}: ${observed}`);
}

// ---------------------------------------------------------------------------------------------------
// The document, read by two linters.
function run(cmd: string, argv: string[]) {
  const r = spawnSync(cmd, argv, { cwd: root, encoding: "utf8" });
  return { code: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}
{
  const r = run("npx", ["redocly", "lint", "docs/openapi.json", "--format=summary"]);
  const errors = /(\d+) errors?/.exec(r.out)?.[1] ?? (r.code === 0 ? "0" : "?");
  record(
    "Redocly",
    "redocly lint docs/openapi.json (redocly.yaml: recommended)",
    "0 errors",
    `exit ${r.code}, ${errors} errors`,
    r.code === 0,
  );
}
{
  const ruleset = path.join(os.tmpdir(), `diginoor-spectral-${process.pid}.yaml`);
  fs.writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const r = run("npx", [
    "spectral",
    "lint",
    "docs/openapi.json",
    "--ruleset",
    ruleset,
    "--fail-severity=error",
    "--format=json",
    "--quiet",
  ]);
  let findings: { severity: number; code: string }[] = [];
  try {
    findings = JSON.parse(r.out.slice(r.out.indexOf("[")));
  } catch {}
  const errors = findings.filter((f) => f.severity === 0);
  const warnings = findings.filter((f) => f.severity === 1);
  const codes = [...new Set(warnings.map((w) => w.code))].join(", ");
  record(
    "Spectral",
    "spectral lint docs/openapi.json (spectral:oas)",
    "0 errors",
    `exit ${r.code}, ${errors.length} errors, ${warnings.length} warnings${codes ? ` (${codes})` : ""}`,
    r.code === 0 && errors.length === 0,
  );
}

// ---------------------------------------------------------------------------------------------------
// The built server, as a development or staging deployment runs it.
const serverEntry = path.join(root, "apps/server/dist/main.js");
if (!fs.existsSync(serverEntry)) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-interop-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: dataDir,
  NODE_ENV: "development",
  PUBLIC_URL: base,
  TRUST_PROXY: "loopback",
  LOG_LEVEL: "warn",
  METRICS_TOKEN,
};
delete env.SESSION_SECRET;
delete env.DATABASE_URL;
const server = spawn(process.execPath, [serverEntry], {
  cwd: root,
  env,
  stdio: ["ignore", "ignore", "pipe"],
});
let serverLog = "";
server.stderr.on("data", (d) => {
  serverLog += d;
});
const exited = new Promise((r) => server.once("exit", r));
const stop = () => {
  if (server.exitCode === null) server.kill("SIGTERM");
};
process.on("exit", stop);

async function ready() {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited: ${serverLog}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server not ready in 120 s");
}

/** Every answer a visitor and a fan get to their reads, checked by ajv against the served document. */
async function liveAnswers(visitor: Client, fan: Client) {
  const doc = (await visitor.req("GET", "/api/openapi.json")).json as OpenApiDoc & {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
    >;
  };
  const ajv = strictAjv();
  const templateOf = (url: string) =>
    Object.keys(doc.paths).find((p) =>
      new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(url.split("?")[0] ?? url),
    );
  const nfts = (await visitor.req("GET", "/api/v1/nfts?limit=3")).json?.items ?? [];
  const films = (await visitor.req("GET", "/api/v1/films")).json?.items ?? [];
  const posts = (await visitor.req("GET", "/api/v1/posts")).json?.items ?? [];
  const reads: [Client, string][] = [
    [visitor, "/healthz"],
    [visitor, "/api/v1/session"],
    [visitor, "/api/v1/checkout/options"],
    [visitor, "/api/v1/chain"],
    [visitor, "/api/v1/nfts"],
    [visitor, "/api/v1/nfts?limit=abc"],
    [visitor, "/api/v1/nfts/no-such-nft"],
    [visitor, "/api/v1/films"],
    [visitor, "/api/v1/posts"],
    [visitor, "/api/v1/lotteries"],
    [visitor, "/api/v1/market"],
    [visitor, "/api/v1/me"],
    ...nfts.slice(0, 3).map((n: { id: string }): [Client, string] => [visitor, `/api/v1/nfts/${n.id}`]),
    ...films.slice(0, 2).map((f: { slug: string }): [Client, string] => [visitor, `/api/v1/films/${f.slug}`]),
    ...posts.slice(0, 2).map((p: { slug: string }): [Client, string] => [visitor, `/api/v1/posts/${p.slug}`]),
    [fan, "/api/v1/session"],
    [fan, "/api/v1/me"],
    [fan, "/api/v1/orders"],
    [fan, "/api/v1/wallets"],
    [fan, "/api/v1/notifications"],
    [fan, "/api/v1/likes"],
    [fan, "/api/v1/me/bids"],
    [fan, "/api/v1/me/showcase"],
    [fan, "/api/v1/me/notification-preferences"],
    [fan, "/api/v1/admin/users"],
  ];
  const deviations: string[] = [];
  const statuses = new Map<number, number>();
  for (const [who, url] of reads) {
    const res = await who.req("GET", url);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const template = templateOf(url);
    const response = template ? doc.paths[template]?.get?.responses[String(res.status)] : undefined;
    if (!response) {
      deviations.push(`GET ${url}: ${res.status} undeclared`);
      continue;
    }
    const declared = Object.keys(response.content ?? {});
    const type = (res.headers.get("content-type") ?? "").split(";")[0] ?? "";
    if (declared.length && !declared.includes(type))
      deviations.push(`GET ${url}: ${type} not in ${declared.join(", ")}`);
    const schema = response.content?.["application/json"]?.schema;
    if (schema && type === "application/json") {
      const validate = compileIn(ajv, doc, schema);
      if (!validate(res.json))
        deviations.push(`GET ${url} ${res.status}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  record(
    "ajv",
    `${reads.length} live reads (visitor and fan) against the served document, strict mode`,
    "0 deviations",
    deviations.length
      ? deviations.slice(0, 5).join("; ")
      : `0 deviations (${[...statuses].map(([s, n]) => `${n}×${s}`).join(", ")})`,
    deviations.length === 0,
  );
}

async function metrics() {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const which = spawnSync("promtool", ["--version"], { encoding: "utf8" });
  if (which.error) {
    record(
      "promtool",
      "promtool check metrics on a live scrape",
      "no problems",
      "promtool is not installed (apt-get install prometheus)",
      false,
    );
    return;
  }
  const r = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  const problems = `${r.stdout}${r.stderr}`.trim();
  const families = new Set(
    text
      .split("\n")
      .filter((l) => l.startsWith("# TYPE "))
      .map((l) => l.split(" ")[2]),
  ).size;
  record(
    "promtool",
    `promtool check metrics on a live scrape (${families} families)`,
    "exit 0, no problems",
    `HTTP ${res.status}, exit ${r.status}${problems ? `: ${problems.split("\n").slice(0, 3).join("; ")}` : ", no problems"}`,
    res.status === 200 && r.status === 0 && !problems,
  );
}

async function main() {
  await ready();
  const visitor = client(base, 1);
  const fan = await signedUpFan(base, 2, "Interop Fan");
  await liveAnswers(visitor, fan);
  await metrics();
  for (const c of await interopBundlerChecks(base, fan))
    record(c.area, c.probe, c.expected, c.observed, c.ok);
  const other = await signedUpFan(base, 4, "Other Fan");
  for (const c of await interopSmartAccountChecks(base, await signedUpFan(base, 5, "Smart Fan"), other)) {
    record(c.area, c.probe, c.expected, c.observed, c.ok);
  }
  for (const c of await interopWebAuthnChecks(base, await signedUpFan(base, 3, "WebAuthn Fan"))) {
    record(c.area, c.probe, c.expected, c.observed, c.ok);
  }
}

let failed = false;
try {
  await main();
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  stop();
}
const bad = results.filter((r) => !r.ok);
console.log(`\n${results.length - bad.length} of ${results.length} interop checks hold`);
if (args.write) {
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const rows = results.map(
    (r) =>
      `| ${r.area} | ${r.probe} | ${r.expected} | ${r.observed.replaceAll("|", "\\|")} | ${r.ok ? "yes" : "**no**"} |`,
  );
  const section = `<!-- interop:start -->\n## Issue 37: interop with clients nobody here wrote\n\n\`npx tsx scripts/probe-interop.ts --write\` (after \`npm run build\`; promtool from Debian's \`prometheus\` package), ${when} UTC: Redocly and Spectral on \`docs/openapi.json\`, then the built server with its own anvil and Alto on a fresh data directory, driven over the network only.\n\n| Client | Check | Asked for | Answered | Holds |\n|---|---|---|---|---|\n${rows.join("\n")}\n\n${results.length - bad.length} of ${results.length} checks hold.\n<!-- interop:end -->\n`;
  const file = path.join(root, "docs/probes.md");
  const old = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const marked = /<!-- interop:start -->[\s\S]*<!-- interop:end -->\n?/;
  fs.writeFileSync(file, marked.test(old) ? old.replace(marked, section) : `${old.trimEnd()}\n\n${section}`);
}
await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
process.exit(failed || bad.length ? 1 : 0);
