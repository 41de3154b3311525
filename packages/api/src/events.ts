import { z } from "zod";
import { userSchema } from "./auth.ts";
import { endpoint } from "./endpoint.ts";
import { notificationSchema } from "./notifications.ts";
import { orderStateSchema } from "./orders.ts";
import { streamNotes } from "./streams.ts";

/**
 * Live events of the signed-in user, sent on GET /api/v1/events as Server-Sent Events: the SSE
 * `event` field is the `type`, the `data` field this JSON, the `id` field the event's number (one
 * increasing sequence per user, shared by both user streams). Comment lines (`: heartbeat`) keep the
 * connection open through proxies.
 */
export const liveEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("profile.updated"), user: userSchema }),
  /** One of the user's orders changed state (the confirmation page follows it). */
  z.object({ type: z.literal("order.updated"), orderId: z.string(), state: orderStateSchema }),
  /** A new notification for the user (the bell counts it at once). */
  z.object({ type: z.literal("notification"), notification: notificationSchema }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

export const eventsEndpoints = {
  stream: endpoint({
    operationId: "streamEvents",
    method: "GET",
    path: "/api/v1/events",
    summary:
      "Live events of the signed-in user (Server-Sent Events: `id: <n>`, `event: <type>` and `data: <JSON>`, heartbeat comments)",
    tags: ["events"],
    success: {
      status: 200,
      schema: z.string().describe(`An endless text/event-stream. ${streamNotes}`),
      contentType: "text/event-stream",
    },
    errors: ["too_many_streams"],
  }),
};
