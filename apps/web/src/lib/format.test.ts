import { describe, expect, it } from "vitest";
import {
  countdownParts,
  editionsText,
  formatCountdown,
  formatUsd,
  parseUsdToCents,
  royaltyText,
  shortAddress,
} from "./format.ts";

describe("formatUsd", () => {
  it("formats whole dollars without decimals and with thousands separators", () => {
    expect(formatUsd(15_000_000)).toBe("$150,000");
    expect(formatUsd(1200)).toBe("$12");
    expect(formatUsd(0)).toBe("$0");
  });
  it("keeps cents when there are any", () => {
    expect(formatUsd(1250)).toBe("$12.50");
    expect(formatUsd(1)).toBe("$0.01");
    expect(formatUsd(123_456_789)).toBe("$1,234,567.89");
  });
});

describe("parseUsdToCents", () => {
  it("parses typed dollar amounts into integer cents", () => {
    expect(parseUsdToCents("12")).toBe(1200);
    expect(parseUsdToCents("12.5")).toBe(1250);
    expect(parseUsdToCents("$1,200.05")).toBe(120005);
    expect(parseUsdToCents("0.1")).toBe(10);
  });
  it("rejects anything that is not a plain amount", () => {
    expect(parseUsdToCents("")).toBeNull();
    expect(parseUsdToCents("abc")).toBeNull();
    expect(parseUsdToCents("-3")).toBeNull();
    expect(parseUsdToCents("1.234")).toBeNull();
    expect(parseUsdToCents("1e3")).toBeNull();
  });
});

describe("countdownParts", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("splits the remaining time into days, hours, minutes and seconds", () => {
    const parts = countdownParts("2026-01-03T04:05:09.900Z", now);
    expect(parts).toMatchObject({ days: 2, hours: 4, minutes: 5, seconds: 9, ended: false });
    expect(formatCountdown(parts)).toBe("2d 04h 05m 09s");
  });
  it("omits days under one day", () => {
    expect(formatCountdown(countdownParts("2026-01-01T01:00:00Z", now))).toBe("01h 00m 00s");
  });
  it("shows zeros and ended once the deadline passed", () => {
    const parts = countdownParts("2025-12-31T23:59:59Z", now);
    expect(parts).toMatchObject({ days: 0, hours: 0, minutes: 0, seconds: 0, ended: true, totalMs: 0 });
    expect(formatCountdown(parts)).toBe("Auction ended");
  });
  it("treats an unparseable date as ended rather than NaN", () => {
    expect(countdownParts("not a date", now).ended).toBe(true);
  });
});

describe("small labels", () => {
  it("editions and royalties", () => {
    expect(editionsText(3, 10)).toBe("3 of 10 remaining");
    expect(royaltyText(1000)).toBe("10%");
    expect(royaltyText(250)).toBe("2.5%");
  });
});

describe("shortAddress", () => {
  it("keeps 0x and four hex digits at each end", () => {
    expect(shortAddress("0x1111222233334444555566667777888899990000")).toBe("0x1111…0000");
  });
});
