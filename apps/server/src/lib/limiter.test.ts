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

describe("createLimiter's background tasks", () => {
  it("run after every waiting task, and leave a slot for the tasks somebody waits for", async () => {
    const run = createLimiter(2);
    const order: string[] = [];
    let activeBackground = 0;
    let peakBackground = 0;
    const background = (name: string) =>
      run(
        async () => {
          order.push(name);
          activeBackground++;
          peakBackground = Math.max(peakBackground, activeBackground);
          await tick();
          activeBackground--;
        },
        { background: true },
      );
    const foreground = (name: string) =>
      run(async () => {
        order.push(name);
        await tick();
      });
    // Four warm-ups queued first, then three requests: the requests still start before warm-ups 2–4.
    const all = [background("b1"), background("b2"), background("b3"), background("b4")];
    all.push(foreground("f1"), foreground("f2"), foreground("f3"));
    await Promise.all(all);
    expect(peakBackground).toBe(1);
    expect(order.slice(0, 4)).toEqual(["b1", "f1", "f2", "f3"]);
    expect(order.slice(4)).toEqual(["b2", "b3", "b4"]);
    // With one slot, background work still runs (one at a time) once nothing else waits.
    const one = createLimiter(1);
    const seen: string[] = [];
    await Promise.all([
      one(async () => void seen.push("x"), { background: true }),
      one(async () => void seen.push("y")),
      one(async () => void seen.push("z"), { background: true }),
    ]);
    expect(seen).toEqual(["x", "y", "z"]);
  });
});
