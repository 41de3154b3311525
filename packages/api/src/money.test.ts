import { describe, expect, it } from "vitest";
import {
  formatInr,
  formatNative,
  formatPrice,
  formatUsd,
  priceParts,
  usdCentsToPaise,
  weiToCents,
} from "./money.ts";

const rates = { usdMicrosPerToken: { ETH: "3000000000" }, inrMicrosPerUsd: "84000000" };

describe("formatUsd and formatInr", () => {
  it("drop .00 on whole amounts and keep cents otherwise, in both currencies", () => {
    expect(formatUsd(15_000_000)).toBe("$150,000");
    expect(formatUsd(1250)).toBe("$12.50");
    expect(formatUsd(1n)).toBe("$0.01");
    expect(formatInr(12_500_000)).toBe("₹1,25,000");
    expect(formatInr(211_250)).toBe("₹2,112.50");
    expect(formatInr(0)).toBe("₹0");
  });
  it("never prints NaN", () => {
    expect(formatUsd(Number.NaN)).toBe("—");
    expect(formatInr(Number.POSITIVE_INFINITY)).toBe("—");
  });
});

describe("formatNative", () => {
  it("cuts to four decimals and never shows a non-zero amount as zero", () => {
    expect(formatNative(105_299_999_999_999_999n, "ETH")).toBe("0.1052 ETH");
    expect(formatNative("1000000000000000000000", "POL")).toBe("1,000 POL");
    expect(formatNative(1_200_000_000_000n, "ETH")).toBe("0.0000012 ETH");
    expect(formatNative(0n, "ETH")).toBe("0 ETH");
    expect(formatNative(6_666_666_666_666_667n, "ETH", 6)).toBe("0.006666 ETH");
  });
});

describe("conversions", () => {
  it("converts cents to paise half up and wei to cents down", () => {
    expect(usdCentsToPaise(1250, "84000000")).toBe(105_000n);
    expect(usdCentsToPaise(1, "84123456")).toBe(84n);
    expect(weiToCents(10n ** 18n, "3000000000")).toBe(300_000n);
    expect(weiToCents(1n, "3000000000")).toBe(0n);
  });
});

describe("formatPrice", () => {
  it("reads rupees first, then dollars, then the crypto amount", () => {
    expect(formatPrice({ usdCents: 1500 }, rates)).toBe("₹1,260 · $15");
    expect(formatPrice({ wei: 5n * 10n ** 15n, symbol: "ETH" }, rates)).toBe("₹1,260 · $15 · 0.005 ETH");
  });
  it("shows what an order really charged: its rupees and its crypto", () => {
    expect(formatPrice({ usdCents: 1500, paise: 126_050 }, rates)).toBe("₹1,260.50 · $15");
    expect(formatPrice({ usdCents: 1500, wei: 5n * 10n ** 15n, symbol: "ETH" }, undefined)).toBe(
      "$15 · 0.005 ETH",
    );
  });
  it("leaves out what has no rate instead of guessing", () => {
    expect(formatPrice({ usdCents: 1500 }, undefined)).toBe("$15");
    expect(priceParts({ wei: 10n ** 18n, symbol: "POL" }, rates)).toEqual({ native: "1 POL" });
  });
});
