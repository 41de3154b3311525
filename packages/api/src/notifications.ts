import { z } from "zod";
import { endpoint } from "./endpoint.ts";

export const notificationKindSchema = z.enum([
  "outbid",
  "auction_won",
  "auction_ended",
  "nft_sold",
  "purchase_confirmed",
  "new_follower",
]);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  text: z.string(),
  /** A page of the site (starts with "/"). */
  link: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/v1/notifications: the newest 50 and how many are unread in all. */
export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationParamsSchema = z
  .object({ id: z.string().regex(/^\d{1,18}$/, "must be a notification id") })
  .strict();

export const notificationEndpoints = {
  list: endpoint({
    operationId: "listNotifications",
    method: "GET",
    path: "/api/v1/notifications",
    summary: "The signed-in user's newest notifications and the unread count",
    tags: ["notifications"],
    success: { status: 200, schema: notificationListSchema },
  }),
  stream: endpoint({
    operationId: "streamNotifications",
    method: "GET",
    path: "/api/v1/notifications/stream",
    summary:
      "The signed-in user's new notifications as Server-Sent Events (`event: notification`, `data: <Notification JSON>`; heartbeat comments)",
    tags: ["notifications"],
    success: {
      status: 200,
      schema: z.string().describe("An endless text/event-stream"),
      contentType: "text/event-stream",
    },
  }),
  markRead: endpoint({
    operationId: "markNotificationRead",
    method: "POST",
    path: "/api/v1/notifications/{id}/read",
    summary: "Mark one of the signed-in user's notifications read (404 for anyone else's)",
    tags: ["notifications"],
    params: notificationParamsSchema,
    success: { status: 200, schema: notificationListSchema },
    errors: ["not_found"],
  }),
  markAllRead: endpoint({
    operationId: "markAllNotificationsRead",
    method: "POST",
    path: "/api/v1/notifications/read-all",
    summary: "Mark all of the signed-in user's notifications read",
    tags: ["notifications"],
    success: { status: 200, schema: notificationListSchema },
  }),
};
