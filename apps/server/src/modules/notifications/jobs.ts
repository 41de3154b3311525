import { z } from "zod";
import { defineJob } from "../../platform/jobs/jobs.ts";
import type { NotificationsService } from "./service.ts";

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
