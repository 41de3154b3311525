import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { ModuleWork } from "../../platform/work.ts";
import { CHAIN_EVENTS_CHANNEL } from "../indexer/service.ts";
import type { AccountsService } from "../accounts/service.ts";
import {
  deliverOnce,
  type Mailer,
  notificationMail as notificationMailBody,
  walletRecoveryMail,
} from "../mail/service.ts";
import { type NotificationsService, notificationMail } from "./service.ts";

/** Every minute: delivers chain notifications a missed pub/sub message would otherwise delay. */
export function deliverNotificationsJob(service: Pick<NotificationsService, "deliverChainNotifications">) {
  return defineJob({
    name: "notifications.deliver",
    payload: z.object({}),
    retry: { limit: 1, delaySeconds: 30, backoff: false },
    expireInSeconds: 120,
    schedule: { cron: "* * * * *", payload: {} },
    handler: async () => {
      await service.deliverChainNotifications();
    },
  });
}

/**
 * Emails one notification (outbid, auction won, sold, purchase confirmed) to a verified address, at
 * most once (deliverOnce on the job, which is enqueued once, with the notification); carries the
 * one-click unsubscribe headers of RFC 8058.
 */
export function notificationMailJob(
  deps: { database: Database; mailer: Mailer; accounts: Pick<AccountsService, "mailContact"> },
  service: Pick<NotificationsService, "mailFacts">,
) {
  return defineJob({
    name: notificationMail.name,
    payload: notificationMail.payload,
    retry: deps.mailer.retry,
    expireInSeconds: 120,
    handler: async ({ notificationId }, job) => {
      const facts = await service.mailFacts(notificationId);
      if (!facts) return;
      await deliverOnce(deps, job.id, async (db) => {
        const contact = await deps.accounts.mailContact(facts.userId, db);
        if ("notice" in facts) {
          // A recovery of the user's wallet (decision 185): to the account's address, verified or not.
          if (!contact) return null;
          const { subject, text, url } = facts;
          return {
            to: contact.email,
            ...walletRecoveryMail(contact.name, { kind: "notice", subject, lines: [text], url }),
          };
        }
        // Only a verified address hears about auctions and sales (an unverified one may be a typo).
        if (!contact?.verified) return null;
        return { to: contact.email, ...notificationMailBody(contact.name, facts), headers: facts.headers };
      });
    },
  });
}

/**
 * The notifications module's background work: its jobs and, in worker processes with a chain, the
 * delivery of the notifications each batch the indexer applies may carry (at once, not at the
 * minute's schedule).
 */
export function notificationsWork(
  service: NotificationsService,
  deps: {
    database: Database;
    mailer: Mailer;
    accounts: Pick<AccountsService, "mailContact">;
    chain: boolean;
  },
): ModuleWork {
  return {
    module: "notifications",
    jobs: [deliverNotificationsJob(service), notificationMailJob(deps, service)],
    subscriptions: deps.chain
      ? [{ channel: CHAIN_EVENTS_CHANNEL, handle: () => service.deliverChainNotifications() }]
      : [],
  };
}
