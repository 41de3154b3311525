/**
 * Compiles packages/contracts/contracts/**\/*.sol with solc-js (npm `solc`, optimizer on, no compiler
 * download) against @openzeppelin/contracts from node_modules, and writes:
 *  - generated/<contract>.ts : `export const <name>Abi = [...] as const` and `<name>Bytecode` (viem-typed)
 *  - artifacts/<Contract>.json : { contractName, abi, bytecode, deployedBytecode, compiler }
 * Output is deterministic: running it twice leaves git clean.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
// solc-js ships no types: declare the two functions used.
const solc = require("solc") as {
  compile(input: string, cb: { import(p: string): { contents?: string; error?: string } }): string;
  version(): string;
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const contractsDir = join(root, "contracts");

export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 500 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
} as const;

function listSol(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listSol(p));
    else if (name.endsWith(".sol")) out.push(p);
  }
  return out;
}

function findImports(path: string): { contents?: string; error?: string } {
  try {
    if (path.startsWith("@openzeppelin/")) {
      return { contents: readFileSync(require.resolve(path), "utf8") };
    }
    const local = join(root, path);
    if (existsSync(local)) return { contents: readFileSync(local, "utf8") };
    return { error: `not found: ${path}` };
  } catch (e) {
    return { error: String(e) };
  }
}

/** Which generated module each contract goes to, and its TS identifier prefix. */
const OUTPUTS: Record<string, { file: string; ident: string }> = {
  DiginoorCollectible: { file: "diginoorCollectible", ident: "diginoorCollectible" },
  DiginoorMarketplace: { file: "diginoorMarketplace", ident: "diginoorMarketplace" },
  AttackerWallet: { file: "testHelpers", ident: "attackerWallet" },
  GreedyRoyaltyToken: { file: "testHelpers", ident: "greedyRoyaltyToken" },
  OpenPaymaster: { file: "testHelpers", ident: "openPaymaster" },
  TimestampPaymaster: { file: "testHelpers", ident: "timestampPaymaster" },
  CountingPaymaster: { file: "testHelpers", ident: "countingPaymaster" },
  TimestampFactory: { file: "testHelpers", ident: "timestampFactory" },
  HookReceiver: { file: "testHelpers", ident: "hookReceiver" },
  DiginoorPasskeyAccount: { file: "diginoorPasskeyAccount", ident: "diginoorPasskeyAccount" },
  DiginoorAccountFactory: { file: "diginoorAccountFactory", ident: "diginoorAccountFactory" },
  DiginoorPaymaster: { file: "diginoorPaymaster", ident: "diginoorPaymaster" },
};

function main(): void {
  const sources: Record<string, { content: string }> = {};
  for (const file of listSol(contractsDir)) {
    sources[relative(root, file).split("\\").join("/")] = { content: readFileSync(file, "utf8") };
  }
  const input = { language: "Solidity", sources, settings: COMPILER_SETTINGS };
  const started = Date.now();
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<
      string,
      Record<
        string,
        { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
      >
    >;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  for (const e of output.errors ?? []) {
    // The transient-storage notice is about OZ's ReentrancyGuardTransient, which clears its slot: safe.
    // OpenZeppelin's EnumerableSet (used by MultiSignerERC7913) names a function `at`, a future keyword: theirs to rename.
    if (
      e.severity !== "error" &&
      !e.formattedMessage.includes("Transient storage as defined by EIP-1153") &&
      !(
        e.formattedMessage.includes('"at" will be promoted') &&
        e.formattedMessage.includes("EnumerableSet.sol")
      )
    )
      console.warn(e.formattedMessage);
  }
  if (errors.length) {
    for (const e of errors) console.error(e.formattedMessage);
    process.exit(1);
  }
  const version = solc.version();
  const byFile = new Map<string, string[]>();
  mkdirSync(join(root, "generated"), { recursive: true });
  mkdirSync(join(root, "artifacts"), { recursive: true });
  const sizes: string[] = [];
  for (const [source, contracts] of Object.entries(output.contracts)) {
    if (!source.startsWith("contracts/")) continue;
    for (const [name, c] of Object.entries(contracts)) {
      const target = OUTPUTS[name];
      if (!target) continue;
      const bytecode = `0x${c.evm.bytecode.object}`;
      const deployedBytecode = `0x${c.evm.deployedBytecode.object}`;
      sizes.push(`${name}: ${(deployedBytecode.length - 2) / 2} bytes runtime`);
      const artifact = {
        contractName: name,
        sourceName: source,
        abi: c.abi,
        bytecode,
        deployedBytecode,
        compiler: {
          name: "solc-js",
          version,
          settings: { optimizer: COMPILER_SETTINGS.optimizer, evmVersion: COMPILER_SETTINGS.evmVersion },
        },
      };
      writeFileSync(join(root, "artifacts", `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
      const ts = [
        `/** ABI of \`${name}\` (${source}). Generated by scripts/build.ts (solc ${version}); do not edit. */`,
        `export const ${target.ident}Abi = ${JSON.stringify(c.abi, null, 2)} as const;`,
        "",
        `/** Creation bytecode of \`${name}\`. Generated by scripts/build.ts; do not edit. */`,
        `export const ${target.ident}Bytecode = ${JSON.stringify(bytecode)} as const;`,
        "",
      ].join("\n");
      const parts = byFile.get(target.file) ?? [];
      parts.push(ts);
      byFile.set(target.file, parts);
    }
  }
  for (const [file, parts] of byFile) {
    writeFileSync(
      join(root, "generated", `${file}.ts`),
      `// Generated by packages/contracts/scripts/build.ts. Do not edit.\n${parts.join("\n")}`,
    );
  }
  console.log(
    `compiled ${Object.keys(sources).length} sources with solc ${version} in ${Date.now() - started} ms`,
  );
  for (const s of sizes) console.log(`  ${s}`);
}

main();
