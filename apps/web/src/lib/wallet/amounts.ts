import { formatUnits, parseUnits } from "viem";

/** A wei amount as the native token with at most `digits` decimals, e.g. "0.1052 ETH". */
export function formatNative(wei: bigint | string, symbol: string, digits = 4): string {
  const [whole, fraction = ""] = formatUnits(BigInt(wei), 18).split(".");
  let shown = fraction.slice(0, digits).replace(/0+$/, "");
  // Never show a non-zero amount as zero.
  if (!shown && BigInt(wei) > 0n && whole === "0") shown = fraction.replace(/0+$/, "").slice(0, 18);
  return `${Number(whole).toLocaleString("en-US")}${shown ? `.${shown}` : ""} ${symbol}`;
}

/** Parses what a user typed as an amount of the native token; null when it is not a positive amount. */
export function parseNative(text: string): bigint | null {
  const t = text.trim();
  if (!/^\d{1,12}(\.\d{1,18})?$/.test(t)) return null;
  const wei = parseUnits(t, 18);
  return wei > 0n ? wei : null;
}

/** The smallest amount with at most 6 decimals that is at least `wei` (what a bid field suggests). */
export function roundUpNative(wei: bigint): string {
  const step = 10n ** 12n;
  const up = ((wei + step - 1n) / step) * step;
  return formatUnits(up, 18);
}
