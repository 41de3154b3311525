/** Price-range options for the marketplace filter, derived from the catalogue's price bounds. */
export interface PriceRange {
  /** URL value, e.g. "50-200" (whole dollars), "0-50", "1000-" (open-ended). */
  value: string;
  label: string;
  minPriceCents?: number;
  maxPriceCents?: number;
}

const NICE_DOLLARS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000, 250_000];

const plainDollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US")}`;

/**
 * Splits [min, max] (cents) into at most `maxBands` bands at round dollar amounts.
 * The lowest band starts at 0 and the highest is open-ended, so every NFT falls in exactly one band.
 * `price` writes a bound in the labels (the site's rupees-first price, given the rates).
 */
export function derivePriceRanges(
  minCents: number,
  maxCents: number,
  maxBands = 5,
  price: (cents: number) => string = plainDollars,
): PriceRange[] {
  const dollars = (n: number) => price(n * 100);
  if (!Number.isFinite(minCents) || !Number.isFinite(maxCents) || maxCents <= 0 || maxCents < minCents)
    return [];
  const inside = NICE_DOLLARS.filter((d) => d * 100 > minCents && d * 100 <= maxCents);
  // Keep evenly spread cut points so the number of bands stays small.
  const cuts: number[] = [];
  const wanted = Math.min(maxBands - 1, inside.length);
  for (let i = 0; i < wanted; i++) {
    const pick = inside[Math.round(((i + 1) * inside.length) / (wanted + 1)) - 1];
    if (pick !== undefined && !cuts.includes(pick)) cuts.push(pick);
  }
  if (cuts.length === 0) return [];
  const ranges: PriceRange[] = [];
  let low = 0;
  for (const cut of cuts) {
    ranges.push({
      value: `${low}-${cut}`,
      label: low === 0 ? `Under ${dollars(cut)}` : `${dollars(low)} – ${dollars(cut)}`,
      minPriceCents: low === 0 ? undefined : low * 100,
      maxPriceCents: cut * 100,
    });
    low = cut;
  }
  ranges.push({ value: `${low}-`, label: `${dollars(low)} and above`, minPriceCents: low * 100 });
  return ranges;
}

/** Reads a price value from the URL ("50-200", "1000-", "-50") into cents bounds; null if malformed. */
export function parsePriceValue(
  value: string | null,
): { minPriceCents?: number; maxPriceCents?: number } | null {
  if (!value) return null;
  const m = /^(\d{0,9})-(\d{0,9})$/.exec(value);
  if (!m) return null;
  const min = m[1] ? Number(m[1]) * 100 : undefined;
  const max = m[2] ? Number(m[2]) * 100 : undefined;
  if (min === undefined && max === undefined) return null;
  if (min !== undefined && max !== undefined && min > max) return null;
  return { minPriceCents: min || undefined, maxPriceCents: max };
}
