import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { engineOfThisPass } from "../../../test/passes.ts";
import type { Database } from "../../db/client.ts";
import { withTransaction } from "../tx.ts";
import { JobPayloadError, type Jobs, MIN_RETRY_DELAY_SECONDS, createJobs, defineJob } from "./jobs.ts";

/** Polls `check` (no fixed sleeps): resolves with its first truthy value, or fails after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(engineOfThisPass)("jobs (pg-boss) on %s", (_name, open) => {
  let t: { database: Database; dispose(): Promise<void> };
  let jobs: Jobs;
  const handled: Array<{ to: string; attempt: number }> = [];
  const failures: number[] = [];
  const attemptTimes: number[] = [];

  const greet = defineJob({
    name: "test.greet",
    payload: z.object({ to: z.email() }),
    retry: { limit: 2, delaySeconds: 0, backoff: false },
    handler: async ({ to }, job) => {
      handled.push({ to, attempt: job.retryCount });
    },
  });
  const flaky = defineJob({
    name: "test.flaky",
    payload: z.object({ failTimes: z.number().int() }),
    retry: { limit: 3, delaySeconds: 0, backoff: false },
    handler: async ({ failTimes }, job) => {
      attemptTimes.push(Date.now());
      if (job.retryCount < failTimes) {
        failures.push(job.retryCount);
        throw new Error(`attempt ${job.retryCount} failed`);
      }
    },
  });
  const broken = defineJob({
    name: "test.broken",
    payload: z.object({}),
    retry: { limit: 2, delaySeconds: 0, backoff: false },
    handler: async () => {
      throw new Error("smtp refused: 550 mailbox unavailable");
    },
  });
  // viem's message for a reverted call quotes the custom error's raw argument bytes (NULs and all).
  const revertText = `custom error 0x1428139b: ${"\u0000".repeat(31)}\u0005 half a pair: \uD83C`;
  const reverting = defineJob({
    name: "test.reverting",
    payload: z.object({}),
    retry: { limit: 1, delaySeconds: 0, backoff: false },
    handler: async () => {
      throw new Error(revertText);
    },
  });
  const slowRetry = defineJob({
    name: "test.backoff",
    payload: z.object({}),
    retry: { limit: 4, delaySeconds: 30, backoff: true },
    handler: async () => {
      throw new Error("try later");
    },
  });
  const ticks: number[] = [];
  const tick = defineJob({
    name: "test.tick",
    payload: z.object({ source: z.string() }),
    schedule: { cron: "* * * * *", payload: { source: "cron" } },
    handler: async () => {
      ticks.push(Date.now());
    },
  });

  beforeAll(async () => {
    t = await open();
    await t.database.exec("CREATE TABLE signups (email text PRIMARY KEY)");
    jobs = createJobs({
      database: t.database,
      definitions: [greet, flaky, broken, reverting, slowRetry, tick],
      workers: true,
      pollingIntervalSeconds: 0.5,
      cronMonitorIntervalSeconds: 1,
      onError: () => {},
    });
    await jobs.start();
  });
  afterAll(async () => {
    await jobs?.stop();
    await t?.dispose();
  });

  it("enqueues in the same transaction as the state change: committed work runs, rolled back work never exists", async () => {
    const committedId = await withTransaction(t.database, async (tx) => {
      await tx.query("INSERT INTO signups VALUES ($1)", ["ada@example.com"]);
      return jobs.enqueue(greet, { to: "ada@example.com" }, { tx });
    });
    let rolledBackId: string | null = null;
    await expect(
      withTransaction(t.database, async (tx) => {
        await tx.query("INSERT INTO signups VALUES ($1)", ["bob@example.com"]);
        rolledBackId = await jobs.enqueue(greet, { to: "bob@example.com" }, { tx });
        throw new Error("sign-up failed");
      }),
    ).rejects.toThrow("sign-up failed");

    expect(committedId).toBeTruthy();
    expect(rolledBackId).toBeTruthy();
    await eventually(async () => (await jobs.get(greet, committedId as string))?.state === "completed");
    expect(handled).toEqual([{ to: "ada@example.com", attempt: 0 }]);
    expect(await jobs.get(greet, rolledBackId as unknown as string)).toBeNull();
  });

  it("refuses a payload that does not match the definition's schema, enqueuing nothing", async () => {
    const err = await jobs.enqueue(greet, { to: "not-an-email" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobPayloadError);
    expect(String((err as Error).message)).toMatch(/test\.greet: invalid payload: to:/);
    expect(await jobs.list("created", greet)).toHaveLength(0);
  });

  it("retries a failing job and completes it once it succeeds", async () => {
    const id = (await jobs.enqueue(flaky, { failTimes: 2 })) as string;
    const done = await eventually(async () => {
      const j = await jobs.get(flaky, id);
      return j?.state === "completed" ? j : null;
    });
    expect(done.retryCount).toBe(2);
    expect(failures).toEqual([0, 1]);
    // Even with no delay asked for, attempts are at least a second apart: a failed attempt is never
    // fetched again before pg-boss's own completion of its batch has landed (jobs.ts, createQueues).
    expect(attemptTimes).toHaveLength(3);
    for (let i = 1; i < attemptTimes.length; i++)
      expect(attemptTimes[i]! - attemptTimes[i - 1]!).toBeGreaterThanOrEqual(
        MIN_RETRY_DELAY_SECONDS * 1000 - 50,
      );
  });

  it("a job that keeps failing ends in a visible failed state with its last error, and can be retried", async () => {
    const id = (await jobs.enqueue(broken, {})) as string;
    const failed = await eventually(async () => {
      const j = await jobs.get(broken, id);
      return j?.state === "failed" ? j : null;
    });
    expect(failed.retryCount).toBe(2);
    expect(JSON.stringify(failed.output)).toContain("550 mailbox unavailable");
    const listed = await jobs.list("failed");
    expect(listed.map((j) => j.id)).toContain(id);
    await jobs.retry(broken, id);
    expect((await jobs.get(broken, id))?.state).toMatch(/retry|active|failed/);
  });

  it("records a failure whose error text holds NULs and half a surrogate pair (jsonb refuses both)", async () => {
    const id = (await jobs.enqueue(reverting, {})) as string;
    const failed = await eventually(async () => {
      const j = await jobs.get(reverting, id);
      return j?.state === "failed" ? j : null;
    });
    const output = failed.output as { name: string; message: string; stack: string };
    expect(output.name).toBe("Error");
    expect(output.message).toBe(`custom error 0x1428139b: ${"\uFFFD".repeat(31)}\u0005 half a pair: \uFFFD`);
    expect(output.stack).toContain("custom error 0x1428139b");
  });

  it("backs off between retries (delay doubles, with jitter)", async () => {
    const id = (await jobs.enqueue(slowRetry, {})) as string;
    const waiting = await eventually(async () => {
      const j = await jobs.get(slowRetry, id);
      return j?.state === "retry" ? j : null;
    });
    const delay = (waiting.startAfter.getTime() - Date.now()) / 1000;
    // First retry: 30 s * 2^1 / 2 * (1 + random) = between 30 and 60 s from the failure.
    expect(delay).toBeGreaterThan(25);
    expect(delay).toBeLessThanOrEqual(60);
  });

  it("runs scheduled jobs from the cron schedule", async () => {
    const schedules = await jobs.boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron])).toContainEqual(["test.tick", "* * * * *"]);
    await eventually(async () => ticks.length > 0, 20_000);
  });

  it("an API-only instance enqueues but runs nothing; a worker instance picks the job up", async () => {
    const seen: string[] = [];
    const note = defineJob({
      name: "test.note",
      payload: z.object({ text: z.string() }),
      handler: async ({ text }) => {
        seen.push(text);
      },
    });
    const api = createJobs({ database: t.database, definitions: [note], workers: false });
    await api.start();
    const id = (await api.enqueue(note, { text: "hello" })) as string;
    await new Promise((r) => setTimeout(r, 700));
    expect(seen).toEqual([]);
    expect((await api.get(note, id))?.state).toBe("created");
    const worker = createJobs({
      database: t.database,
      definitions: [note],
      workers: true,
      pollingIntervalSeconds: 0.5,
    });
    await worker.start();
    await eventually(async () => (await worker.get(note, id))?.state === "completed");
    expect(seen).toEqual(["hello"]);
    await worker.stop();
    await api.stop();
  });
});
