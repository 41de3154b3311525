import { describe, expect, it } from "vitest";
import { chainNameOf, nativeSymbolOf, usdCentsToWei, weiToUsdCents, wrongChainMessage } from "./wallets.ts";

describe("chain guard messages", () => {
  it("uses the spec's texts on Polygon mainnet, the right way round", () => {
    expect(wrongChainMessage("pay", 137, chainNameOf(137))).toBe("Please Connect to Mainnet");
    expect(wrongChainMessage("bid", 137, chainNameOf(137))).toBe("Please Connect to Matic Mainnet to Bid");
  });
  it("names the configured chain elsewhere", () => {
    expect(wrongChainMessage("pay", 31337, chainNameOf(31337))).toBe("Please Connect to Local chain");
    expect(wrongChainMessage("bid", 80002, chainNameOf(80002))).toBe("Please Connect to Polygon Amoy to Bid");
  });
  it("pays in POL on Polygon and ETH elsewhere", () => {
    expect([137, 80002, 31337, 1].map(nativeSymbolOf)).toEqual(["POL", "POL", "ETH", "ETH"]);
  });
});

describe("USD and wei", () => {
  it("round-trips whole-cent prices at any rate (wei up, cents down)", () => {
    for (const rate of [1n, 250_000n, 3_000_000_000n, 123_456_789_012n]) {
      for (const cents of [1n, 99n, 2_500n, 15_000_000n]) {
        const wei = usdCentsToWei(cents, rate);
        expect(weiToUsdCents(wei, rate)).toBe(cents);
        // One wei less is worth less than the price: the rounding is as tight as it can be.
        expect(((wei - 1n) * rate) / 10_000n < cents * 10n ** 18n).toBe(true);
      }
    }
  });
});
