// A module's background work as data (issue 21 point 1): its job definitions, the pub/sub
// subscriptions it keeps, the jobs a worker enqueues when it starts, and long-running loops (the
// indexer). Modules build their lists in `jobs.ts`, bootstrap.ts collects them, and startWork()
// attaches them according to the process's role; no route file registers background work.
import type { JobDefinition, JobRef, Jobs } from "./jobs/jobs.ts";
import type { PubSub } from "./pubsub/pubsub.ts";

/** What a process is: `api` serves HTTP and runs no jobs, `worker` runs jobs and no HTTP, `all` both. */
export type Role = "all" | "api" | "worker";

export interface Subscription {
  channel: string;
  /**
   * Called for each message, one call at a time per subscription (a message arriving while one runs
   * waits for it); a failure is logged and the next message is handled.
   */
  handle(message: unknown): Promise<unknown> | unknown;
  /** `every`: every process keeps it (cache invalidation); `worker` (default): worker processes only. */
  in?: "every" | "worker";
}

/** A long-running loop of a worker process (the chain indexer). */
export interface Loop {
  start(): void;
  stop(): Promise<void>;
}

export interface ModuleWork {
  /** The module's name (in log lines). */
  module: string;
  /** Registered in every process (API processes enqueue them); run by worker processes. */
  jobs?: JobDefinition<unknown>[];
  subscriptions?: Subscription[];
  /** Enqueued once when a worker process starts (singleton key `startup`): catch up after a stop. */
  onStart?: JobRef<unknown>[];
  loops?: Loop[];
}

export type WorkLog = (level: "info" | "warn" | "error", obj: object, msg: string) => void;

export function runsJobs(role: Role): boolean {
  return role !== "api";
}

export function servesHttp(role: Role): boolean {
  return role !== "worker";
}

/**
 * Registers every module's jobs and starts the job queue (handlers only when the queue was built for
 * workers), keeps the subscriptions of the role and, in a worker, enqueues the start-up jobs and
 * starts the loops. The returned stop() undoes it (loops, subscriptions and running handlers of
 * messages, then the job queue).
 */
export async function startWork(
  platform: { jobs: Jobs; pubsub: PubSub },
  work: ModuleWork[],
  o: { role: Role; log: WorkLog },
): Promise<{ stop(): Promise<void> }> {
  const worker = runsJobs(o.role);
  for (const w of work) platform.jobs.register(...(w.jobs ?? []));
  await platform.jobs.start();
  const unsubscribes: (() => Promise<void>)[] = [];
  const running: Promise<unknown>[] = [];
  const loops: Loop[] = [];
  const stop = async () => {
    await Promise.all(loops.map((l) => l.stop()));
    await Promise.all(unsubscribes.map((u) => u()));
    await Promise.all(running);
    await platform.jobs.stop();
  };
  try {
    for (const w of work) {
      for (const s of w.subscriptions ?? []) {
        if ((s.in ?? "worker") === "worker" && !worker) continue;
        const slot = running.push(Promise.resolve()) - 1;
        unsubscribes.push(
          await platform.pubsub.subscribe(s.channel, (message) => {
            running[slot] = (running[slot] as Promise<unknown>)
              .then(() => s.handle(message))
              .catch((err) => o.log("warn", { err }, `${w.module}: handling ${s.channel} failed`));
          }),
        );
      }
    }
    if (worker) {
      for (const w of work) {
        for (const job of w.onStart ?? []) {
          await platform.jobs
            .enqueue(job, {}, { singletonKey: "startup" })
            .catch((err) => o.log("warn", { err }, `${w.module}: could not enqueue ${job.name} at start`));
        }
      }
      for (const w of work) {
        for (const loop of w.loops ?? []) {
          loop.start();
          loops.push(loop);
        }
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop };
}
