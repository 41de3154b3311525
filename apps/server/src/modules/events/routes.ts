import { eventsEndpoints } from "@diginoor/api/events";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../http/route.ts";
import { sendUserStream, trackUserStreams } from "./service.ts";

/**
 * GET /api/v1/events: the signed-in user's live events as Server-Sent Events. Each stream
 * subscribes to the user's pub/sub channel, so an event published by any server process reaches
 * every open stream of that user; a comment line every SSE_HEARTBEAT_MS keeps it open through
 * proxies and tells a dead connection apart.
 */
export async function registerEvents(app: FastifyInstance, ctx: AppContext): Promise<void> {
  trackUserStreams(app);
  route(app, eventsEndpoints.stream, {
    permission: "signed-in",
    handler: ({ user, req, reply }) =>
      sendUserStream(app, {
        pubsub: ctx.pubsub,
        userId: (user as { id: string }).id,
        heartbeatMs: ctx.config.SSE_HEARTBEAT_MS,
        req,
        reply,
      }),
  });
}
