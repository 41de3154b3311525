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

/**
 * Events of the public market stream (GET /api/v1/market/events), for everyone watching a page with
 * tokens on it: the indexer applied a batch of chain events (a bid, a sale, a listing, an auction
 * settled) or rolled one back. `tokenIds` names the tokens touched (at most 50; `more` when there
 * were others, and on a rollback, which may touch any). Pages read those tokens again; the event
 * carries no state of its own.
 */
export const marketEventSchema = z.object({
  type: z.literal("chain.updated"),
  tokenIds: z.array(z.string()),
  more: z.boolean(),
});
export type MarketEvent = z.infer<typeof marketEventSchema>;

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
  market: endpoint({
    operationId: "streamMarketEvents",
    method: "GET",
    path: "/api/v1/market/events",
    summary:
      "What changed on the chain, for everyone watching tokens, auctions and the market (Server-Sent Events: `event: chain.updated`, heartbeat comments)",
    tags: ["events"],
    success: {
      status: 200,
      schema: z
        .string()
        .describe(
          "An endless text/event-stream. Events carry no id and are not replayed: each names the tokens to read again, and a client that reconnects reads its pages again. One client address may hold a few anonymous streams at once (SSE_MAX_STREAMS_PER_ADDRESS, 20 by default): beyond it 429 `too_many_streams`",
        ),
      contentType: "text/event-stream",
    },
    errors: ["too_many_streams"],
  }),
};
