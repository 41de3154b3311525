// The live events' background job (kept out of routes.ts: a route file maps HTTP only; main.ts attaches it by role).
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { Clock } from "../../platform/clock.ts";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { pruneLiveEvents } from "./service.ts";

/** Kept events past the replay window go once an hour (any worker process; idempotent). */
export function pruneLiveEventsJob(deps: { database: Database; clock: Clock }) {
  return defineJob({
    name: "events.prune",
    payload: z.object({}),
    retry: { limit: 2, delaySeconds: 60, backoff: false },
    schedule: { cron: "41 * * * *", payload: {} },
    handler: async () => {
      await pruneLiveEvents(deps.database, deps.clock.date());
    },
  });
}

/** The live events' background work. */
export function eventsWork(deps: { database: Database; clock: Clock }): ModuleWork {
  return { module: "events", jobs: [pruneLiveEventsJob(deps)] };
}
