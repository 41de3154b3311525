import { notificationEndpoints as api } from "@diginoor/api/notifications";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import { sendUserStream, trackUserStreams } from "../events/service.ts";
import { rawBodyRoutes } from "../../http/raw-body.ts";
import type { RateLimitRule } from "../../lib/rate-limit.ts";
import type { Database } from "../../db/client.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { NotificationsService } from "./service.ts";

/** Preference changes a user may make in a minute. */
const PREFERENCE_WRITES: RateLimitRule = { name: "notifications:prefs", limit: 60, windowSeconds: 60 };
/** Unsubscribe requests (reads and changes) per client address in a minute. */
const UNSUBSCRIBES: RateLimitRule = { name: "notifications:unsubscribe", limit: 30, windowSeconds: 60 };

/** What the notifications routes use. */
export interface NotificationsRoutesDeps {
  notifications: NotificationsService;
  pubsub: PubSub;
  database: Database;
  sse: { maxStreamsPerUser: number; heartbeatMs: number };
}

/** The signed-in user's notifications (their stream, marks, preferences and the unsubscribe link). */
export async function registerNotifications(
  app: FastifyInstance,
  ctx: NotificationsRoutesDeps,
): Promise<void> {
  const service = ctx.notifications;
  const userId = (u: { id: string } | null) => (u as { id: string }).id;
  route(app, api.list, { permission: "signed-in", handler: ({ user }) => service.list(userId(user)) });
  trackUserStreams(app);
  // Each new notification as one event (the notification itself as data).
  route(app, api.stream, {
    permission: "signed-in",
    handler: ({ user, req, reply }) =>
      sendUserStream(app, {
        kind: "notifications",
        pubsub: ctx.pubsub,
        database: ctx.database,
        userId: userId(user),
        sessionIdHash: user?.sessionIdHash,
        maxStreams: ctx.sse.maxStreamsPerUser,
        heartbeatMs: ctx.sse.heartbeatMs,
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

  route(app, api.getPreferences, {
    permission: "signed-in",
    handler: ({ user }) => service.preferences(userId(user)),
  });
  route(app, api.updatePreferences, {
    permission: "signed-in",
    rateLimits: [{ rule: PREFERENCE_WRITES, by: "user" }],
    handler: ({ user, body }) => service.setPreferences(userId(user), body.items),
  });
  const unsubscribeLimit = [{ rule: UNSUBSCRIBES, by: "ip" as const }];
  route(app, api.unsubscribeInfo, {
    permission: "public",
    rateLimits: unsubscribeLimit,
    handler: ({ query }) => service.unsubscribeInfo(query.token),
  });
  // RFC 8058: mail providers POST `List-Unsubscribe=One-Click` as a form (urlencoded or multipart),
  // our page POSTs nothing: any small body is accepted and ignored; the token authorises.
  await rawBodyRoutes(
    app,
    (scope) =>
      route(scope, api.unsubscribe, {
        permission: "public",
        rateLimits: unsubscribeLimit,
        handler: ({ query }) => service.unsubscribe(query.token),
      }),
    { bodyLimit: 4096 },
  );
}
