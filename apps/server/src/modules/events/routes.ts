import { eventsEndpoints, type MarketEvent } from "@diginoor/api/events";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client.ts";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import { route } from "../../http/route.ts";
import { type AccountsService, SESSIONS_ENDED_CHANNEL, sessionsEndedSchema } from "../accounts/service.ts";
import { CHAIN_EVENTS_CHANNEL, type ChainEventsMessage } from "../indexer/service.ts";
import {
  anonymousHolder,
  endStreamsOfEndedSessions,
  sendChannelStream,
  sendUserStream,
  trackUserStreams,
  watchSessions,
} from "./service.ts";

/**
 * GET /api/v1/events: the signed-in user's live events as Server-Sent Events. Each stream
 * subscribes to the user's pub/sub channel, so an event published by any server process reaches
 * every open stream of that user; a comment line every SSE_HEARTBEAT_MS keeps it open through
 * proxies and tells a dead connection apart. Each event has the id of the user's sequence, and a
 * client reconnecting with Last-Event-ID gets the kept events it missed first. A user holds at most
 * SSE_MAX_STREAMS_PER_USER streams per process; a stream ends when its session does.
 */
export async function registerEvents(
  app: FastifyInstance,
  ctx: {
    accounts: Pick<AccountsService, "liveSessionHashes">;
    pubsub: PubSub;
    database: Database;
    sse: { maxStreamsPerUser: number; maxStreamsPerAddress: number; heartbeatMs: number };
  },
): Promise<void> {
  trackUserStreams(app);
  watchSessions(app, (hashes) => ctx.accounts.liveSessionHashes(hashes));
  route(app, eventsEndpoints.stream, {
    permission: "signed-in",
    handler: ({ user, req, reply }) =>
      sendUserStream(app, {
        kind: "events",
        pubsub: ctx.pubsub,
        database: ctx.database,
        userId: (user as { id: string }).id,
        sessionIdHash: user?.sessionIdHash,
        maxStreams: ctx.sse.maxStreamsPerUser,
        heartbeatMs: ctx.sse.heartbeatMs,
        req,
        reply,
      }),
  });

  // GET /api/v1/market/events: every batch the indexer applies (or rolls back), as the tokens it
  // touched, for anyone watching tokens, auctions or the market (the web reads them again).
  route(app, eventsEndpoints.market, {
    permission: "public",
    handler: ({ req, reply }) =>
      sendChannelStream(app, {
        kind: "market",
        pubsub: ctx.pubsub,
        channel: CHAIN_EVENTS_CHANNEL,
        holder: anonymousHolder(req, ctx.sse.maxStreamsPerAddress),
        heartbeatMs: ctx.sse.heartbeatMs,
        req,
        reply,
        pick: (message) => {
          const m = message as Partial<ChainEventsMessage> | null;
          if (!m || !Array.isArray(m.tokenIds)) return undefined;
          const data: MarketEvent = {
            type: "chain.updated",
            tokenIds: m.tokenIds.map(String),
            more: m.more === true || m.kind === "rollback",
          };
          return { name: data.type, data };
        },
      }),
  });

  // The accounts module announces ended sessions (sign-out, suspension, password change) from any
  // process: this process ends its streams whose session is over.
  let unsubscribe: (() => Promise<void>) | undefined;
  app.addHook("onReady", async () => {
    unsubscribe = await ctx.pubsub.subscribe(SESSIONS_ENDED_CHANNEL, (message) => {
      const m = sessionsEndedSchema.safeParse(message);
      if (!m.success) return;
      endStreamsOfEndedSessions(app, m.data.userId).catch((err) =>
        app.log.warn({ err }, "event streams: could not check the sessions of a user"),
      );
    });
  });
  app.addHook("preClose", async () => {
    await unsubscribe?.();
  });
}
