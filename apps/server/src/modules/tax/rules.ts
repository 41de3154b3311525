// The s.194S TDS rule (decision 176): configured per financial year (TDS_RULES), applied to a
// resident seller's sales in the year. Integers only: paise and basis points.
import type { Config } from "../../config.ts";

export type TdsRules = Config["TDS_RULES"];
export type TdsRule = TdsRules[number];

/** The rule in force in financial year `fy` ("2026-27"): the latest entry from that year or before. */
export function ruleOf(rules: TdsRules, fy: string): TdsRule | undefined {
  const year = Number(fy.slice(0, 4));
  let found: TdsRule | undefined;
  for (const r of rules) if (r.fromYear <= year) found = r;
  return found;
}

/**
 * The TDS of a sale worth `valuePaise` by a seller whose sales earlier in the year total
 * `soldBeforePaise`: nothing while the year's total including this sale stays within the threshold
 * (₹50,000 for a specified person, ₹10,000 for anyone else by default); once it is crossed, this sale
 * and every later one carry the rate on their whole value (rounded half up to the paisa).
 */
export function tdsOf(
  rule: TdsRule | undefined,
  o: { valuePaise: bigint; soldBeforePaise: bigint; specifiedPerson: boolean },
): { rateBps: number; thresholdPaise: bigint | null; tdsPaise: bigint } {
  if (!rule) return { rateBps: 0, thresholdPaise: null, tdsPaise: 0n };
  const thresholdPaise = o.specifiedPerson ? rule.specifiedPaise : rule.otherPaise;
  const crossed = o.soldBeforePaise + o.valuePaise > thresholdPaise;
  const tdsPaise = crossed ? (o.valuePaise * BigInt(rule.rateBps) + 5_000n) / 10_000n : 0n;
  return { rateBps: rule.rateBps, thresholdPaise, tdsPaise };
}
