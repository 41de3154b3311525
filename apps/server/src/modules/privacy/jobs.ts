import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { deliverOnce } from "../mail/service.ts";
import type { Mailer } from "../mail/service.ts";
import {
  buildArchive,
  type PrivacyDeps,
  type PrivacyService,
  privacyConfirmDeletion,
  privacyExport,
  privacyPrune,
} from "./service.ts";

/**
 * The data rights' background work (decision 170): building an archive and mailing its link, the
 * confirmation mail of a Google-only account's deletion, and the hourly clean-up of expired links
 * and released handles.
 */
export function privacyWork(
  service: PrivacyService,
  deps: Pick<PrivacyDeps, "database" | "clock">,
  mailer: Mailer,
  log: (counts: object) => void = () => {},
): ModuleWork {
  const { database } = deps;
  return {
    module: "privacy",
    jobs: [
      defineJob({
        name: privacyExport.name,
        payload: privacyExport.payload,
        retry: { limit: 5, delaySeconds: 30, backoff: true },
        expireInSeconds: 600,
        handler: async ({ userId }, job) => {
          // Built before the mail's transaction: on PGlite a query outside it would wait for it.
          const archive = await buildArchive((t, p) => database.query(t, p), userId, deps.clock.date());
          await deliverOnce({ database, mailer }, job.id, (db) => service.composeExport(db, userId, archive));
        },
      }),
      defineJob({
        name: privacyConfirmDeletion.name,
        payload: privacyConfirmDeletion.payload,
        retry: mailer.retry,
        expireInSeconds: 120,
        handler: async ({ userId }, job) => {
          await deliverOnce({ database, mailer }, job.id, (db) => service.composeConfirmDeletion(db, userId));
        },
      }),
      defineJob({
        name: privacyPrune.name,
        payload: privacyPrune.payload,
        retry: { limit: 2, delaySeconds: 60, backoff: true },
        schedule: { cron: "23 * * * *", payload: {} },
        handler: async () => log(await service.prune()),
      }),
    ],
  };
}
