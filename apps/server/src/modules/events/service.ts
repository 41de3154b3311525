import { PassThrough } from "node:stream";
import { type LiveEvent, liveEventSchema } from "@diginoor/api/events";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PubSub } from "../../platform/pubsub/pubsub.ts";
import type { Tx } from "../../platform/tx.ts";

/** The pub/sub channel of one user's live events (every server process hears it). */
export function userChannel(userId: string): string {
  return `user.${userId.toLowerCase()}`;
}

/** Sends a live event to every open event stream of the user, in any process. */
export function publishToUser(pubsub: PubSub, userId: string, event: LiveEvent, opts?: { tx?: Tx }) {
  return pubsub.publish(userChannel(userId), event, opts);
}

const openStreams = new WeakMap<FastifyInstance, Set<() => void>>();

/** Open streams of an app; they never end by themselves, so they are closed when the app closes. */
function streamsOf(app: FastifyInstance): Set<() => void> {
  let open = openStreams.get(app);
  if (!open) {
    const set = new Set<() => void>();
    open = set;
    openStreams.set(app, set);
    app.addHook("preClose", async () => {
      for (const end of set) end();
    });
  }
  return open;
}

/** How many event streams the app has open (tests and the stream caps). */
export function openStreamCount(app: FastifyInstance): number {
  return openStreams.get(app)?.size ?? 0;
}

/** Registers the app's stream bookkeeping (call while registering routes, before the app is ready). */
export function trackUserStreams(app: FastifyInstance): void {
  streamsOf(app);
}

/**
 * Answers with a Server-Sent Events stream of a user's live events: subscribes to the user's pub/sub
 * channel (so events published by any server process arrive), sends the events `pick` keeps as
 * `event: <name>` / `data: <JSON>`, and a comment every `heartbeatMs`.
 */
export async function sendUserStream(
  app: FastifyInstance,
  o: {
    pubsub: PubSub;
    userId: string;
    heartbeatMs: number;
    req: FastifyRequest;
    reply: FastifyReply;
    /** What to send for an event (name and data), or undefined to skip it; default: every event as is. */
    pick?: (event: LiveEvent) => { name: string; data: unknown } | undefined;
  },
) {
  const open = streamsOf(app);
  const pick = o.pick ?? ((e: LiveEvent) => ({ name: e.type, data: e }));
  const stream = new PassThrough();
  const write = (text: string) => {
    if (!stream.writableEnded) stream.write(text);
  };
  const unsubscribe = await o.pubsub.subscribe(userChannel(o.userId), (message) => {
    const event = liveEventSchema.safeParse(message);
    if (!event.success) return;
    const out = pick(event.data);
    if (out) write(`event: ${out.name}\ndata: ${JSON.stringify(out.data)}\n\n`);
  });
  const heartbeat = setInterval(() => write(": heartbeat\n\n"), o.heartbeatMs);
  const end = () => {
    if (!open.delete(end)) return;
    clearInterval(heartbeat);
    unsubscribe().catch((err) => o.req.log.warn({ err }, "event stream: unsubscribe failed"));
    stream.end();
  };
  open.add(end);
  o.req.raw.once("close", end);
  // The client reconnects after 3 s if the connection drops.
  write("retry: 3000\n: connected\n\n");
  return o.reply
    .header("content-type", "text/event-stream; charset=utf-8")
    .header("cache-control", "no-store")
    .header("x-accel-buffering", "no")
    .send(stream);
}
