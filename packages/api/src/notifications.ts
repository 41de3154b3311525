import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { streamNotes } from "./streams.ts";

export const notificationKindSchema = z.enum([
  "outbid",
  "auction_won",
  "auction_ended",
  "nft_sold",
  "purchase_confirmed",
  "new_follower",
  "order_refunded",
  "lottery_won",
  "lottery_result",
  "wallet_recovery",
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

/** The kinds that are also sent by email (each can be turned off per user). */
export const emailNotificationKinds = ["outbid", "auction_won", "nft_sold", "purchase_confirmed"] as const;
export const emailNotificationKindSchema = z.enum(emailNotificationKinds);
export type EmailNotificationKind = z.infer<typeof emailNotificationKindSchema>;

/** When each email kind is sent, as the end of "Email me when …" (settings and unsubscribe pages). */
export const emailKindLabels: Record<EmailNotificationKind, string> = {
  outbid: "someone outbids you",
  auction_won: "you win an auction",
  nft_sold: "your NFT sells",
  purchase_confirmed: "a purchase reaches your wallet",
};

export const notificationPreferenceSchema = z.object({
  kind: emailNotificationKindSchema,
  /** Send this kind by email too (default true). */
  email: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;

/** GET/PUT /api/v1/me/notification-preferences: one item per email kind. */
export const notificationPreferencesSchema = z.object({ items: z.array(notificationPreferenceSchema) });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** PUT: the kinds to change (others stay as they are). */
export const updateNotificationPreferencesSchema = z
  .object({ items: z.array(notificationPreferenceSchema.strict()).min(1).max(10) })
  .strict();

/** The token of an unsubscribe link (from the mail; signed, names the user and the kind). */
export const unsubscribeQuerySchema = z
  .object({
    token: z
      .string()
      .min(10)
      .max(200)
      .regex(/^[A-Za-z0-9_.-]+$/, "must be an unsubscribe token"),
  })
  .strict();

/** What an unsubscribe link is about, and whether that mail is now on. */
export const unsubscribeStateSchema = z.object({
  kind: emailNotificationKindSchema,
  label: z.string(),
  email: z.boolean(),
});
export type UnsubscribeState = z.infer<typeof unsubscribeStateSchema>;

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
      "The signed-in user's new notifications as Server-Sent Events (`id: <n>`, `event: notification`, `data: <Notification JSON>`; heartbeat comments)",
    tags: ["notifications"],
    success: {
      status: 200,
      schema: z
        .string()
        .describe(
          `An endless text/event-stream. Ids are those of GET /api/v1/events (the notification events among them). ${streamNotes}`,
        ),
      contentType: "text/event-stream",
    },
    errors: ["too_many_streams"],
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
  getPreferences: endpoint({
    operationId: "getNotificationPreferences",
    method: "GET",
    path: "/api/v1/me/notification-preferences",
    summary: "Which notification kinds the signed-in user also receives by email",
    tags: ["notifications"],
    success: { status: 200, schema: notificationPreferencesSchema },
  }),
  updatePreferences: endpoint({
    operationId: "updateNotificationPreferences",
    method: "PUT",
    path: "/api/v1/me/notification-preferences",
    summary: "Turn email of some notification kinds on or off (the signed-in user's own only)",
    tags: ["notifications"],
    body: updateNotificationPreferencesSchema,
    success: { status: 200, schema: notificationPreferencesSchema },
  }),
  unsubscribeInfo: endpoint({
    operationId: "getUnsubscribe",
    method: "GET",
    path: "/api/v1/unsubscribe",
    summary: "What an unsubscribe link turns off (changes nothing: mail scanners open links)",
    tags: ["notifications"],
    query: unsubscribeQuerySchema,
    success: { status: 200, schema: unsubscribeStateSchema },
  }),
  unsubscribe: endpoint({
    operationId: "unsubscribe",
    method: "POST",
    path: "/api/v1/unsubscribe",
    summary:
      "One-click unsubscribe (RFC 8058): turns off the email of the token's kind, without sign-in; any body (List-Unsubscribe=One-Click) is ignored",
    tags: ["notifications"],
    query: unsubscribeQuerySchema,
    success: { status: 200, schema: unsubscribeStateSchema },
  }),
};
