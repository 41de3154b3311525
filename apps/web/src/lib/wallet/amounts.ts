import { formatUnits, parseUnits } from "viem";

/** Parses what a user typed as an amount of the native token; null when it is not a positive amount. */
export function parseNative(text: string): bigint | null {
  const t = text.trim();
  if (!/^\d{1,12}(\.\d{1,18})?$/.test(t)) return null;
  const wei = parseUnits(t, 18);
  return wei > 0n ? wei : null;
}

/** Decimals a typed amount of the native token is shown and suggested with. */
export const AMOUNT_DECIMALS = 6;

/** The smallest amount with at most 6 decimals that is at least `wei`, in wei (the minimum bid shown). */
export function roundUpWei(wei: bigint): bigint {
  const step = 10n ** BigInt(18 - AMOUNT_DECIMALS);
  return ((wei + step - 1n) / step) * step;
}

/** `roundUpWei` as the text a bid field suggests ("6.666667"). */
export function roundUpNative(wei: bigint): string {
  return formatUnits(roundUpWei(wei), 18);
}
