/**
 * Gas report: starts its own anvil, deploys, performs each operation once and prints the transaction gas
 * (receipt.gasUsed, which includes the 21,000 base) against the goals.
 *   npm run gas -w packages/contracts            -> table
 *   npm run gas -w packages/contracts -- --json  -> one JSON object { "operation": gas, ... }
 *   add --check to exit 1 when a goal is missed.
 */
import { GAS_GOALS, LABELS, measureGas } from "../test/gas.js";

const args = process.argv.slice(2);
const gas = await measureGas();
if (args.includes("--json")) {
  process.stdout.write(`${JSON.stringify(gas)}\n`);
} else {
  const rows = Object.entries(gas).map(([k, v]) => {
    const goal = GAS_GOALS[k];
    const status =
      goal === undefined
        ? ""
        : v <= goal
          ? `<= ${goal.toLocaleString("en-US")} ok`
          : `> ${goal.toLocaleString("en-US")} MISSED`;
    return [LABELS[k] ?? k, k, v.toLocaleString("en-US"), status];
  });
  const header = ["operation", "key", "gas", "goal"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    `| ${r.map((c, i) => (i === 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    "\nTransaction gas from receipts (includes the 21,000 base), solc-js optimizer, evm cancun, anvil.",
  );
}
const missed = Object.entries(GAS_GOALS).filter(([k, goal]) => (gas[k] ?? Number.POSITIVE_INFINITY) > goal);
if (args.includes("--check") && missed.length) process.exit(1);
