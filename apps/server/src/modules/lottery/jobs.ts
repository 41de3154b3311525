// The lottery's background job (kept out of routes.ts: a route file maps HTTP only; main.ts attaches it by role).
import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import type { LotteryService } from "./service.ts";

/**
 * Every minute (and at start): closes lotteries past their closing time and draws closed ones whose
 * block exists. Each step is a guarded move, so a crash between them resumes and never repeats.
 */
export function lotteryTickJob(lottery: Pick<LotteryService, "tick">, log: (o: object) => void = () => {}) {
  return defineJob({
    name: "lottery.tick",
    payload: z.object({}),
    retry: { limit: 2, delaySeconds: 10, backoff: false },
    expireInSeconds: 300,
    schedule: { cron: "* * * * *", payload: {} },
    handler: async () => {
      const counts = await lottery.tick();
      if (counts.closed || counts.drawn || counts.notActivated) log(counts);
    },
  });
}

/** The lottery's background work: the tick, also enqueued when a worker starts (a process that stopped at a closing time closes and draws now, not in a minute). */
export function lotteryWork(lottery: Pick<LotteryService, "tick">, log: (o: object) => void): ModuleWork {
  const tick = lotteryTickJob(lottery, log);
  return { module: "lottery", jobs: [tick], onStart: [tick] };
}
