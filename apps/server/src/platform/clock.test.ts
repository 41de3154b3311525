import { describe, expect, it } from "vitest";
import { createTestClock, systemClock } from "./clock.ts";

describe("clock", () => {
  it("system clock follows Date.now", () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(systemClock.date().getTime()).toBeGreaterThanOrEqual(now);
  });

  it("test clock moves only when told, never backwards", () => {
    const clock = createTestClock(new Date("2026-03-01T00:00:00Z"));
    expect(clock.date().toISOString()).toBe("2026-03-01T00:00:00.000Z");
    clock.advance(90_000);
    expect(clock.date().toISOString()).toBe("2026-03-01T00:01:30.000Z");
    clock.set(new Date("2026-03-02T00:00:00Z"));
    expect(clock.now()).toBe(Date.parse("2026-03-02T00:00:00Z"));
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set(0)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(Date.parse("2026-03-02T00:00:00Z"));
  });
});
