import { describe, expect, it } from "vitest";
import { derivePriceRanges, parsePriceValue } from "./priceRanges.ts";

describe("derivePriceRanges", () => {
  it("splits the catalogue's price span into bands at round amounts, covering everything", () => {
    const ranges = derivePriceRanges(1200, 15_000_000);
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    expect(ranges.length).toBeLessThanOrEqual(5);
    expect(ranges[0]!.minPriceCents).toBeUndefined();
    expect(ranges.at(-1)!.maxPriceCents).toBeUndefined();
    // Bands are contiguous: each starts where the previous ended.
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]!.minPriceCents).toBe(ranges[i - 1]!.maxPriceCents);
    }
    expect(ranges[0]!.label).toMatch(/^Under \$/);
    expect(ranges.at(-1)!.label).toMatch(/and above$/);
  });
  it("returns nothing when there is no spread to split", () => {
    expect(derivePriceRanges(0, 0)).toEqual([]);
    expect(derivePriceRanges(500, 400)).toEqual([]);
    expect(derivePriceRanges(1200, 1500)).toEqual([]);
  });
  it("round-trips each band through the URL value", () => {
    for (const r of derivePriceRanges(1000, 2_000_000)) {
      expect(parsePriceValue(r.value)).toEqual({
        minPriceCents: r.minPriceCents,
        maxPriceCents: r.maxPriceCents,
      });
    }
  });
});

describe("parsePriceValue", () => {
  it("rejects malformed or inverted values", () => {
    expect(parsePriceValue(null)).toBeNull();
    expect(parsePriceValue("abc")).toBeNull();
    expect(parsePriceValue("-")).toBeNull();
    expect(parsePriceValue("200-50")).toBeNull();
    expect(parsePriceValue("1e3-")).toBeNull();
  });
  it("reads open-ended bounds", () => {
    expect(parsePriceValue("1000-")).toEqual({ minPriceCents: 100_000, maxPriceCents: undefined });
    expect(parsePriceValue("-50")).toEqual({ minPriceCents: undefined, maxPriceCents: 5000 });
  });
});
