import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { type Clock, systemClock } from "./clock.ts";
import { type Jobs, createJobs } from "./jobs/jobs.ts";
import { type PubSub, createPubSub } from "./pubsub/pubsub.ts";

export interface Platform {
  clock: Clock;
  jobs: Jobs;
  pubsub: PubSub;
  /** Stops the job workers and closes pub/sub (the database stays open). */
  stop(): Promise<void>;
}

export interface PlatformOptions {
  clock?: Clock;
  /** How often idle workers poll (default 2 s; jobs enqueued in this process wake them at once). */
  pollingIntervalSeconds?: number;
  onError?: (err: unknown) => void;
}

/** The clock, job queue and pub/sub of one server process (jobs start when the app is ready). */
export function createPlatform(config: Config, database: Database, opts: PlatformOptions = {}): Platform {
  const jobs = createJobs({
    database,
    workers: config.WORKERS,
    pollingIntervalSeconds: opts.pollingIntervalSeconds,
    maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_SECONDS,
    onError: opts.onError,
  });
  const pubsub = createPubSub(database, { onError: opts.onError });
  return {
    clock: opts.clock ?? systemClock,
    jobs,
    pubsub,
    async stop() {
      await jobs.stop();
      await pubsub.close();
    },
  };
}
