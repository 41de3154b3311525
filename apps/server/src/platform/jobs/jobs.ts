import { EventEmitter } from "node:events";
import PgBoss from "pg-boss";
import type { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { Tx } from "../tx.ts";

/**
 * Durable background work on pg-boss (decision 060): jobs live in PostgreSQL (the `pgboss` schema),
 * survive restarts, are shared by every worker process, retry with backoff and end in a visible
 * `failed` state. The same code runs on PGlite through a small `executeSql` adapter.
 */

/** The shortest pause before a failed job's next attempt (see createQueues). */
export const MIN_RETRY_DELAY_SECONDS = 1;

export interface JobInfo {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
}

export interface RetryPolicy {
  /** Attempts after the first one; then the job is `failed`. */
  limit: number;
  /** Seconds before the first retry. */
  delaySeconds: number;
  /** Doubles the delay on each retry (with jitter). */
  backoff: boolean;
}

/** A job's name and payload schema: enough to enqueue it (the handler lives with its module). */
export interface JobRef<P = unknown> {
  readonly name: string;
  readonly payload: z.ZodType<P>;
}

export interface JobDefinition<P = unknown> extends JobRef<P> {
  // Method syntax on purpose: a definition of a concrete payload is usable where any definition is.
  handler(payload: P, job: JobInfo): Promise<void>;
  readonly retry: RetryPolicy;
  /** A job running longer than this is failed (and retried). */
  readonly expireInSeconds: number;
  /** Cron (UTC) on which the job is enqueued with `payload` by whichever worker process keeps time. */
  readonly schedule?: { cron: string; payload: P };
  /** Jobs of this kind one worker process runs at once (fetched together, each settled on its own). */
  readonly concurrency: number;
}

const NAME = /^[a-z][a-z0-9_.-]{0,49}$/;

export function defineJob<S extends z.ZodType>(def: {
  name: string;
  payload: S;
  handler: (payload: z.output<S>, job: JobInfo) => Promise<void>;
  retry?: Partial<RetryPolicy>;
  expireInSeconds?: number;
  schedule?: { cron: string; payload: z.input<S> };
  concurrency?: number;
}): JobDefinition<z.output<S>> {
  if (!NAME.test(def.name)) throw new Error(`job name "${def.name}" must match ${NAME}`);
  return {
    name: def.name,
    payload: def.payload as z.ZodType<z.output<S>>,
    handler: def.handler,
    retry: { limit: 5, delaySeconds: 10, backoff: true, ...def.retry },
    expireInSeconds: def.expireInSeconds ?? 15 * 60,
    concurrency: Math.max(1, Math.floor(def.concurrency ?? 1)),
    ...(def.schedule ? { schedule: def.schedule as { cron: string; payload: z.output<S> } } : {}),
  };
}

export class JobPayloadError extends Error {
  constructor(
    readonly job: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(
      `job ${job}: invalid payload: ${issues
        .slice(0, 5)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ")}`,
    );
  }
}

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

export interface JobRecord {
  id: string;
  name: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  data: unknown;
  /** What the handler returned, or the error of the last attempt. */
  output: unknown;
  createdOn: Date;
  startAfter: Date;
  completedOn: Date | null;
}

export interface EnqueueOptions {
  /** Enqueue as part of this transaction: the job exists if and only if it commits. */
  tx?: Tx;
  /** Not before this time. */
  startAfter?: Date;
  /** At most one queued or active job with this key per job name. */
  singletonKey?: string;
}

export interface Jobs {
  /** True when this process runs handlers (WORKERS=on); API-only processes still enqueue. */
  readonly workers: boolean;
  /** Adds definitions (before start). */
  register(...defs: JobDefinition<unknown>[]): void;
  start(): Promise<void>;
  /**
   * Waits (at most `timeoutMs`) for the first attempt of a job this process enqueued, when this
   * process runs its worker: "completed", "failed" (it may still be retried), or "pending" (no
   * local worker, or not attempted in time; the job is queued either way).
   */
  waitForAttempt(id: string | null, timeoutMs: number): Promise<"completed" | "failed" | "pending">;
  /** Validates `payload` and enqueues; returns the job id (null when a singleton key was taken). */
  enqueue<P>(job: JobRef<P>, payload: NoInfer<P>, opts?: EnqueueOptions): Promise<string | null>;
  get(def: JobRef<unknown> | string, id: string): Promise<JobRecord | null>;
  /** Jobs of `def` (or of every job) in the given state, newest first: the visible failed state. */
  list(state: JobState, def?: JobRef<unknown> | string, limit?: number): Promise<JobRecord[]>;
  /** Puts a failed job back in the queue. */
  retry(def: JobRef<unknown> | string, id: string): Promise<void>;
  /** Stops fetching, waits for running handlers (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
  /** Calls `listener` after each attempt this process runs (metrics). */
  onAttempt(listener: (job: string, ok: boolean) => void): void;
  readonly boss: PgBoss;
}

export interface JobsOptions {
  database: Database;
  definitions?: JobDefinition<unknown>[];
  /** Run handlers, schedules and queue maintenance in this process. */
  workers: boolean;
  /** How often an idle worker looks for new jobs (jobs enqueued in this process wake it at once). */
  pollingIntervalSeconds?: number;
  /** How often the time keeper checks the schedules (pg-boss default 30 s). */
  cronMonitorIntervalSeconds?: number;
  /**
   * How often queue maintenance runs (pg-boss default 120 s): it retries jobs left `active` past
   * their expiry by a process that died mid-job, so this bounds how late they run again.
   */
  maintenanceIntervalSeconds?: number;
  onError?: (err: unknown) => void;
}

/** pg-boss's `db` contract: executeSql(text, values) → { rows }. */
type BossDb = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/** Lets pg-boss share our connection pool (server) or our single PGlite connection. */
export function bossDb(database: Database): BossDb {
  const raw = database.raw;
  if (raw.kind === "postgres") {
    return {
      // On shutdown pg-boss may still record the outcome of the last job (fail/complete) just after the
      // pool was closed. Such a call never settles instead of rejecting with "pool has ended" (an unhandled
      // rejection inside pg-boss): the process is closing and the job is retried by the next worker anyway.
      executeSql: (text, values) =>
        raw.pool.ending || raw.pool.ended
          ? new Promise<never>(() => {})
          : raw.pool.query(text, values as unknown[]),
    };
  }
  const client = raw.client;
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
      // pg-boss sends multi-statement scripts (BEGIN; ...; COMMIT) without parameters.
      try {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      } catch (err) {
        // A failed script can leave its explicit transaction open on the one connection.
        await client.exec("ROLLBACK").catch(() => {});
        throw err;
      }
    },
  };
}

function txDb(tx: Tx): BossDb {
  return { executeSql: async (text, values) => ({ rows: await tx.query(text, values) }) };
}

const nameOf = (def: JobRef<unknown> | string) => (typeof def === "string" ? def : def.name);

function toRecord(j: PgBoss.JobWithMetadata<unknown>): JobRecord {
  return {
    id: j.id,
    name: j.name,
    state: j.state,
    retryCount: j.retryCount,
    retryLimit: j.retryLimit,
    data: j.data,
    output: j.output,
    createdOn: j.createdOn,
    startAfter: j.startAfter,
    completedOn: j.completedOn ?? null,
  };
}

/** The attempts emitter's event for every settled attempt (job ids are UUIDs, never this). */
const SETTLED = Symbol("settled");

export function createJobs(opts: JobsOptions): Jobs {
  const onError = opts.onError ?? ((err: unknown) => console.error("jobs:", err));
  const definitions = new Map<string, JobDefinition<unknown>>();
  const register = (...defs: JobDefinition<unknown>[]) => {
    if (started) throw new Error("jobs: register() after start()");
    for (const def of defs) {
      if (definitions.has(def.name)) throw new Error(`job ${def.name} is defined twice`);
      definitions.set(def.name, def);
    }
  };
  const attempts = new EventEmitter();
  attempts.setMaxListeners(0);
  const db = bossDb(opts.database);
  const boss = new PgBoss({
    db: db as PgBoss.Db,
    // API-only processes enqueue; only worker processes keep time and maintain the queues.
    supervise: opts.workers,
    schedule: opts.workers,
    cronMonitorIntervalSeconds: opts.cronMonitorIntervalSeconds ?? 30,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 120,
    // Completed jobs stay queryable for a day, failed ones for a week before they are archived.
    archiveCompletedAfterSeconds: 24 * 3600,
    archiveFailedAfterSeconds: 7 * 24 * 3600,
  });
  boss.on("error", onError);
  const workerIds = new Map<string, string>();
  let started = false;
  register(...(opts.definitions ?? []));

  const assertDefined = (name: string) => {
    if (!definitions.has(name)) throw new Error(`job ${name} is not defined`);
  };

  return {
    workers: opts.workers,
    boss,
    register,
    onAttempt(listener) {
      attempts.on(SETTLED, listener);
    },
    waitForAttempt(id, timeoutMs) {
      if (!id || !opts.workers) return Promise.resolve("pending");
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          attempts.off(id, done);
          resolve("pending");
        }, timeoutMs);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok ? "completed" : "failed");
        };
        attempts.once(id, done);
      });
    },
    async start() {
      const createQueues = async () => {
        for (const def of definitions.values()) {
          const queue = {
            name: def.name,
            retryLimit: def.retry.limit,
            // At least a second between attempts: pg-boss completes a worker's batch after the
            // callback returns without awaiting it (a no-op for jobs we completed or failed
            // ourselves, as it only touches `active` ones). A failed job retried at once could be
            // fetched again, `active`, before that completion lands, and be marked completed
            // while its next attempt is still running.
            retryDelay: Math.max(MIN_RETRY_DELAY_SECONDS, def.retry.delaySeconds),
            retryBackoff: def.retry.backoff,
            expireInSeconds: def.expireInSeconds,
          };
          if (await boss.getQueue(def.name)) await boss.updateQueue(def.name, queue);
          else {
            try {
              await boss.createQueue(def.name, queue);
            } catch (err) {
              // Another process created it between the check and here.
              if (!(await boss.getQueue(def.name))) throw err;
            }
          }
        }
      };
      if (opts.database.kind === "postgres") {
        // pg-boss installs its schema on first start and survives a concurrent install only when the
        // error says "already exists"; two processes starting together on a fresh database can instead
        // get a unique violation on pg_namespace, and creating the same queues (each a partition table)
        // at once can deadlock. Processes take turns installing and creating queues.
        await opts.database.exclusive(async (conn) => {
          await conn.query("SELECT pg_advisory_lock(hashtext('diginoor:pg-boss:start'))");
          try {
            await boss.start();
            started = true;
            await createQueues();
          } finally {
            await conn.query("SELECT pg_advisory_unlock(hashtext('diginoor:pg-boss:start'))");
          }
        });
      } else {
        await boss.start();
        started = true;
        await createQueues();
      }
      if (!opts.workers) return;
      for (const def of definitions.values()) {
        if (def.schedule)
          await boss.schedule(def.name, def.schedule.cron, def.schedule.payload as object, { tz: "UTC" });
        else await boss.unschedule(def.name).catch(() => {});
        const runOne = async (job: PgBoss.JobWithMetadata<unknown>) => {
          try {
            const parsed = def.payload.safeParse(job.data);
            if (!parsed.success) throw new JobPayloadError(def.name, parsed.error.issues);
            await def.handler(parsed.data, { id: job.id, retryCount: job.retryCount });
            // pg-boss marks the job completed after this callback returns, without awaiting it. A
            // caller told "completed" (e.g. a sign-up answer) must be able to rely on it: a process
            // killed right after that answer would otherwise leave the job `active` until it
            // expires, and run it again then. pg-boss's own completion is a no-op afterwards.
            await boss.complete(def.name, job.id);
          } catch (err) {
            // Each job of a batch fails (and is retried) on its own; pg-boss's completion of the
            // batch afterwards only touches jobs still `active`, so it leaves this one alone.
            await boss.fail(def.name, job.id, jobErrorOutput(err));
            attempts.emit(job.id, false);
            attempts.emit(SETTLED, def.name, false);
            return;
          }
          attempts.emit(job.id, true);
          attempts.emit(SETTLED, def.name, true);
        };
        const id = await boss.work<unknown>(
          def.name,
          {
            pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2,
            batchSize: def.concurrency,
            includeMetadata: true,
          },
          async (jobs) => {
            await Promise.all(jobs.map(runOne));
            // A full batch means more are probably waiting: fetch again at once instead of after the
            // polling interval (pg-boss skips its pause for a worker notified during the batch).
            const self = workerIds.get(def.name);
            if (self && jobs.length >= def.concurrency) boss.notifyWorker(self);
          },
        );
        workerIds.set(def.name, id);
      }
    },
    async enqueue(def, payload, o = {}) {
      assertDefined(def.name);
      if (!started) throw new Error("jobs: enqueue before start()");
      const parsed = def.payload.safeParse(payload);
      if (!parsed.success) throw new JobPayloadError(def.name, parsed.error.issues);
      const id = await boss.send(def.name, parsed.data as object, {
        ...(o.tx ? { db: txDb(o.tx) as PgBoss.Db } : {}),
        ...(o.startAfter ? { startAfter: o.startAfter } : {}),
        ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}),
      });
      const wake = () => {
        const worker = workerIds.get(def.name);
        if (worker) boss.notifyWorker(worker);
      };
      if (o.tx) o.tx.afterCommit(wake);
      else wake();
      return id;
    },
    async get(def, id) {
      const job = await boss.getJobById<unknown>(nameOf(def), id, { includeArchive: true });
      return job ? toRecord(job) : null;
    },
    async list(state, def, limit = 100) {
      const rows = await opts.database.query<{ id: string; name: string }>(
        `SELECT id, name FROM pgboss.job
          WHERE state = $1::pgboss.job_state AND ($2::text IS NULL OR name = $2) AND name NOT LIKE '\\_\\_pgboss%'
          ORDER BY created_on DESC LIMIT $3`,
        [state, def ? nameOf(def) : null, limit],
      );
      const out: JobRecord[] = [];
      for (const r of rows) {
        const job = await boss.getJobById<unknown>(r.name, r.id);
        if (job) out.push(toRecord(job));
      }
      return out;
    },
    async retry(def, id) {
      await boss.retry(nameOf(def), id);
      const worker = workerIds.get(nameOf(def));
      if (worker) boss.notifyWorker(worker);
    },
    async stop(timeoutMs = 10_000) {
      if (!started) return;
      started = false;
      const stopped = new Promise<void>((resolve) => boss.once("stopped", () => resolve()));
      await boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
      await Promise.race([stopped, new Promise((r) => setTimeout(r, timeoutMs + 1000))]);
    },
  };
}

/**
 * What a failed job records as its output: the error's name, message and stack, as text PostgreSQL's
 * jsonb accepts. An error can carry bytes jsonb refuses: viem's revert message quotes a custom
 * error's raw argument bytes, so it holds NUL characters, and a truncated message can end in half a
 * surrogate pair. pg-boss would then fail to record the failure at all, and the job would stay
 * `active` until it expired. Each such character becomes U+FFFD, the rest is kept as it is.
 */
export function jobErrorOutput(err: unknown): { name: string; message: string; stack?: string } {
  const e = err instanceof Error ? err : new Error(String(err));
  const clean = (s: string) =>
    // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what has to go.
    s.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  return { name: clean(e.name), message: clean(e.message), ...(e.stack ? { stack: clean(e.stack) } : {}) };
}

/**
 * Deletes every job, queued or done (the archive's too), whose payload or output mentions one of
 * `needles` (lower-case), except running ones: an erased person's address, name or handle must not
 * survive in the queue's history (decision 170). Returns how many.
 */
export async function forgetJobsMentioning(
  q: <T>(text: string, params?: unknown[]) => Promise<T[]>,
  needles: string[],
): Promise<number> {
  let n = 0;
  for (const table of ["pgboss.job", "pgboss.archive"]) {
    const rows = await q(
      `DELETE FROM ${table} WHERE state <> 'active' AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS x
         WHERE strpos(lower(coalesce(data::text, '') || ' ' || coalesce(output::text, '')), x) > 0) RETURNING 1`,
      [needles],
    );
    n += rows.length;
  }
  return n;
}
