/**
 * The time source of the server. Code that compares against "now" (session and token expiry,
 * pruning, rate-limit windows) takes a Clock so tests move time instead of sleeping.
 */
export interface Clock {
  /** Current time in milliseconds since the epoch. */
  now(): number;
  /** Current time as a Date. */
  date(): Date;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
};

/** A clock that only moves when told to. */
export interface TestClock extends Clock {
  /** Moves the clock forward by `ms` (negative values are refused: time does not run backwards). */
  advance(ms: number): void;
  /** Sets the clock to an absolute time, which must not be earlier than the current one. */
  set(to: Date | number): void;
}

export function createTestClock(start: Date | number = Date.UTC(2026, 0, 1, 12, 0, 0)): TestClock {
  let current = typeof start === "number" ? start : start.getTime();
  if (!Number.isFinite(current)) throw new RangeError("test clock: start must be a valid time");
  return {
    now: () => current,
    date: () => new Date(current),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`test clock: cannot advance by ${ms} ms`);
      current += ms;
    },
    set(to) {
      const t = typeof to === "number" ? to : to.getTime();
      if (!Number.isFinite(t) || t < current) {
        throw new RangeError("test clock: cannot move backwards or to an invalid time");
      }
      current = t;
    },
  };
}
