/** Options of one task given to a limiter. */
export interface LimiterTaskOptions {
  /**
   * Work nobody is waiting for (warming a cache): it starts only when no other task waits, and with
   * `max` above 1 it leaves one slot free for the tasks somebody is waiting for.
   */
  background?: boolean;
}

export type Limiter = <T>(task: () => Promise<T>, opts?: LimiterTaskOptions) => Promise<T>;

/**
 * Runs at most `max` tasks at once; the rest wait in order, background tasks after all others. A
 * finishing task hands its slot straight to the next waiter, so the limit holds even while slots
 * change hands.
 */
export function createLimiter(max: number): Limiter {
  const backgroundMax = Math.max(1, max - 1);
  let active = 0;
  let activeBackground = 0;
  const waiting: (() => void)[] = [];
  const waitingBackground: (() => void)[] = [];

  function release(wasBackground: boolean) {
    if (wasBackground) activeBackground--;
    const next = waiting.shift();
    if (next) return next();
    if (waitingBackground.length > 0 && activeBackground < backgroundMax) {
      activeBackground++;
      return (waitingBackground.shift() as () => void)();
    }
    active--;
  }

  return async function run<T>(task: () => Promise<T>, opts: LimiterTaskOptions = {}): Promise<T> {
    const background = opts.background === true;
    if (!background) {
      if (active < max) active++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
    } else if (active < max && activeBackground < backgroundMax && waiting.length === 0) {
      active++;
      activeBackground++;
    } else {
      await new Promise<void>((resolve) => waitingBackground.push(resolve));
    }
    try {
      return await task();
    } finally {
      release(background);
    }
  };
}
