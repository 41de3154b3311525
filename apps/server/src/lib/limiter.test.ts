import { describe, expect, it } from "vitest";
import { createLimiter } from "./limiter.ts";

const tick = () => new Promise((r) => setTimeout(r, 2));

describe("createLimiter", () => {
  it("never runs more than max tasks at once, runs them all in order, and survives failures", async () => {
    const run = createLimiter(2);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        run(async () => {
          started.push(i);
          active++;
          peak = Math.max(peak, active);
          await tick();
          active--;
          if (i % 5 === 0) throw new Error(`task ${i} failed`);
          return i;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(started).toEqual([...Array(12).keys()]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(3);
    expect(
      results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<number>).value),
    ).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 11]);
    // The slots are all free again.
    let inside = 0;
    await Promise.all([run(async () => inside++), run(async () => inside++)]);
    expect(inside).toBe(2);
  });
});
