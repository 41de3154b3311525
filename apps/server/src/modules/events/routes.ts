import { PassThrough } from "node:stream";
import { eventsEndpoints, liveEventSchema } from "@diginoor/api/events";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import { route } from "../../http/route.ts";
import { userChannel } from "./service.ts";

/**
 * GET /api/v1/events: the signed-in user's live events as Server-Sent Events. Each stream
 * subscribes to the user's pub/sub channel, so an event published by any server process reaches
 * every open stream of that user; a comment line every SSE_HEARTBEAT_MS keeps it open through
 * proxies and tells a dead connection apart.
 */
export async function registerEvents(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const open = new Set<() => void>();
  // Streams never end by themselves: close them so the server can shut down.
  app.addHook("preClose", async () => {
    for (const end of open) end();
  });

  route(app, eventsEndpoints.stream, {
    permission: "signed-in",
    handler: async ({ user, req, reply }) => {
      const userId = (user as { id: string }).id;
      const stream = new PassThrough();
      const write = (text: string) => {
        if (!stream.writableEnded) stream.write(text);
      };
      const unsubscribe = await ctx.pubsub.subscribe(userChannel(userId), (message) => {
        const event = liveEventSchema.safeParse(message);
        if (!event.success) return;
        write(`event: ${event.data.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
      });
      const heartbeat = setInterval(() => write(": heartbeat\n\n"), ctx.config.SSE_HEARTBEAT_MS);
      const end = () => {
        if (!open.delete(end)) return;
        clearInterval(heartbeat);
        unsubscribe().catch((err) => req.log.warn({ err }, "event stream: unsubscribe failed"));
        stream.end();
      };
      open.add(end);
      req.raw.once("close", end);
      // The client reconnects after 3 s if the connection drops.
      write("retry: 3000\n: connected\n\n");
      return reply
        .header("content-type", "text/event-stream; charset=utf-8")
        .header("cache-control", "no-store")
        .header("x-accel-buffering", "no")
        .send(stream);
    },
  });
}
