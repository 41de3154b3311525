import { lotteryEndpoints as api, lotteryLiveEventSchema } from "@diginoor/api/lottery";
import type { FastifyInstance } from "fastify";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { route } from "../../http/route.ts";
import { anonymousHolder, sendChannelStream, trackUserStreams } from "../events/service.ts";
import { type LotteryService, lotteryChannel } from "./service.ts";

/** Lotteries: public reads, the ticket list, my tickets (the close-and-draw job is in jobs.ts). */
export async function registerLottery(
  app: FastifyInstance,
  ctx: {
    lottery: LotteryService;
    pubsub: PubSub;
    sse: { maxStreamsPerAddress: number; heartbeatMs: number };
  },
): Promise<void> {
  const { lottery } = ctx;
  route(app, api.list, { permission: "public", handler: () => lottery.list() });
  route(app, api.winners, { permission: "public", handler: () => lottery.winners() });
  route(app, api.get, { permission: "public", handler: ({ params }) => lottery.get(params.id) });
  route(app, api.ticketsCsv, {
    permission: "public",
    handler: async ({ params, reply }) => {
      const csv = await lottery.ticketsCsv(params.id);
      // The exact bytes whose sha256 is the draw's ticketListHash: never re-encoded or compressed.
      return reply
        .type("text/csv; charset=utf-8")
        .header("cache-control", "public, max-age=3600, immutable")
        .header("content-disposition", `inline; filename="lottery-${params.id}-tickets.csv"`)
        .send(csv);
    },
  });
  trackUserStreams(app);
  route(app, api.events, {
    permission: "public",
    handler: async ({ params, req, reply }) => {
      await lottery.get(params.id); // 404 for a lottery that does not exist
      return sendChannelStream(app, {
        kind: "lottery",
        pubsub: ctx.pubsub,
        channel: lotteryChannel(params.id),
        // Anyone may watch: streams are counted per client address (SSE_MAX_STREAMS_PER_ADDRESS).
        holder: anonymousHolder(req, ctx.sse.maxStreamsPerAddress),
        heartbeatMs: ctx.sse.heartbeatMs,
        req,
        reply,
        pick: (message) => {
          const e = lotteryLiveEventSchema.safeParse(message);
          return e.success ? { name: e.data.type, data: e.data } : undefined;
        },
      });
    },
  });
  route(app, api.myTickets, {
    permission: "signed-in",
    handler: ({ user }) => lottery.myTickets((user as { id: string }).id),
  });
}
