import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { JobRef } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { deliverOnce } from "../mail/service.ts";
import type { Mailer } from "../mail/service.ts";
import type { Database } from "../../db/client.ts";
import { type AccountsService, accountMail, accountMailPayload } from "./service.ts";

/**
 * The job that sends every account mail (decision 060): enqueued in the transaction of the change
 * that causes it, retried with backoff, delivered once per job.
 */
export function accountMailJob(
  accounts: Pick<AccountsService, "composeMail">,
  deps: { database: Database; mailer: Mailer },
) {
  return defineJob({
    name: accountMail.name,
    payload: accountMailPayload,
    retry: deps.mailer.retry,
    expireInSeconds: 120,
    handler: async (mail, job) => {
      await deliverOnce(deps, job.id, (db) => accounts.composeMail(db, mail));
    },
  });
}

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
export function pruneJob(accounts: Pick<AccountsService, "prune">, log: (counts: object) => void = () => {}) {
  return defineJob({
    name: accountsPrune.name,
    payload: prunePayload,
    retry: { limit: 2, delaySeconds: 60, backoff: true },
    schedule: { cron: "17 * * * *", payload: {} },
    handler: async () => {
      log(await accounts.prune());
    },
  });
}

/** The accounts module's background work: account mail and the hourly clean-up, as durable jobs (decision 060). */
export function accountsWork(
  accounts: Pick<AccountsService, "composeMail" | "prune">,
  deps: { database: Database; mailer: Mailer },
  log: (counts: object) => void,
): ModuleWork {
  return { module: "accounts", jobs: [accountMailJob(accounts, deps), pruneJob(accounts, log)] };
}
