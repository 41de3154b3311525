import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/http/errors.ts";
import { clearSlidingLimit, hitSlidingLimit } from "../src/lib/rate-limit.ts";
import { type TestApp, createTestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rule = { name: "test:login", limit: 10, windowSeconds: 60 };
const minute = 60_000;
const boundary = 1_000 * minute; // a window boundary (a multiple of 60 s)

async function attempt(subject: string, now: number): Promise<number | "ok"> {
  try {
    await hitSlidingLimit(t.ctx.rateLimiter, rule, subject, now);
    return "ok";
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(429);
    return (err as AppError & { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
  }
}

describe("sliding-window limits", () => {
  it("refuses the 11th attempt within a minute even across a window boundary", async () => {
    for (let i = 0; i < 10; i++) expect(await attempt("edge", boundary - 1_000)).toBe("ok");
    const eleventh = await attempt("edge", boundary + 1_000);
    expect(typeof eleventh).toBe("number");
    // It says when to come back, and that time is right: allowed then, not before.
    const retry = eleventh as number;
    expect(retry).toBeGreaterThan(1);
    expect(retry).toBeLessThanOrEqual(60);
  });

  it("allows attempts again once the old ones slide out", async () => {
    for (let i = 0; i < 10; i++) await attempt("slide", boundary - 30_000);
    expect(typeof (await attempt("slide", boundary - 29_000))).toBe("number");
    // A full minute after the burst, the window is clear.
    expect(await attempt("slide", boundary + 31_000)).toBe("ok");
  });

  it("keeps subjects apart and forgets a subject when cleared", async () => {
    for (let i = 0; i < 10; i++) await attempt("a@example.com", boundary + 5_000);
    expect(typeof (await attempt("a@example.com", boundary + 6_000))).toBe("number");
    expect(await attempt("b@example.com", boundary + 6_000)).toBe("ok");
    await clearSlidingLimit(t.ctx.rateLimiter, rule, "a@example.com", boundary + 7_000);
    expect(await attempt("a@example.com", boundary + 7_000)).toBe("ok");
  });
});
