import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type JobRef, defineJob } from "../../platform/jobs/jobs.ts";
import { pruneAuthData } from "./session.ts";

const prunePayload = z.object({});
/** Enqueue an extra prune run with this. */
export const accountsPrune: JobRef<z.infer<typeof prunePayload>> = {
  name: "accounts.prune",
  payload: prunePayload,
};

/**
 * Hourly clean-up of the accounts' tables (expired and surplus sessions, old tokens, old rate-limit
 * buckets, never-verified accounts): a scheduled job, so it runs once per hour across all worker
 * processes, not once per process.
 */
export function pruneJob(ctx: AppContext, log: (counts: object) => void = () => {}) {
  return defineJob({
    name: accountsPrune.name,
    payload: prunePayload,
    retry: { limit: 2, delaySeconds: 60, backoff: true },
    schedule: { cron: "17 * * * *", payload: {} },
    handler: async () => {
      const counts = await pruneAuthData(ctx.db, {
        now: ctx.clock.date(),
        maxSessionsPerUser: ctx.config.MAX_SESSIONS_PER_USER,
        unverifiedAccountDays: ctx.config.UNVERIFIED_ACCOUNT_DAYS,
      });
      log(counts);
    },
  });
}
