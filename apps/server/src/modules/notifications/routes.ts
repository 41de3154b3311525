import { notificationEndpoints as api } from "@diginoor/api/notifications";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../http/route.ts";
import { sendUserStream, trackUserStreams } from "../events/service.ts";
import { CHAIN_EVENTS_CHANNEL } from "../indexer/service.ts";
import { deliverNotificationsJob } from "./jobs.ts";

/** The signed-in user's notifications; worker processes turn chain events into notifications. */
export async function registerNotifications(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.notifications;
  const userId = (u: { id: string } | null) => (u as { id: string }).id;
  route(app, api.list, { permission: "signed-in", handler: ({ user }) => service.list(userId(user)) });
  trackUserStreams(app);
  // Each new notification as one event (the notification itself as data).
  route(app, api.stream, {
    permission: "signed-in",
    handler: ({ user, req, reply }) =>
      sendUserStream(app, {
        pubsub: ctx.pubsub,
        userId: userId(user),
        heartbeatMs: ctx.config.SSE_HEARTBEAT_MS,
        req,
        reply,
        pick: (e) => (e.type === "notification" ? { name: "notification", data: e.notification } : undefined),
      }),
  });
  route(app, api.markRead, {
    permission: "signed-in",
    handler: ({ user, params }) => service.markRead(userId(user), params.id),
  });
  route(app, api.markAllRead, {
    permission: "signed-in",
    handler: ({ user }) => service.markAllRead(userId(user)),
  });

  ctx.jobs.register(deliverNotificationsJob(service));
  if (!ctx.chain || !ctx.config.WORKERS) return;
  let unsubscribe: (() => Promise<void>) | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook("onReady", async () => {
    // Each batch the indexer applies may carry notifications: deliver at once.
    unsubscribe = await ctx.pubsub.subscribe(CHAIN_EVENTS_CHANNEL, () => {
      running = running
        .then(() => service.deliverChainNotifications())
        .catch((err) => app.log.warn({ err }, "notifications: delivery after chain events failed"));
    });
  });
  app.addHook("preClose", async () => {
    await unsubscribe?.();
    await running;
  });
}
