import { PassThrough } from "node:stream";
import { type LiveEvent, liveEventSchema } from "@diginoor/api/events";
import { REPLAY_EVENTS, REPLAY_HOURS } from "@diginoor/api/streams";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { ipSubject } from "../../lib/rate-limit.ts";
import { MAX_PAYLOAD_BYTES, type PubSub, PubSubError } from "../../platform/pubsub/pubsub.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";

export { REPLAY_EVENTS, REPLAY_HOURS };

/** The pub/sub channel of one user's live events (every server process hears it). */
export function userChannel(userId: string): string {
  return `user.${userId.toLowerCase()}`;
}

/** What travels on a user's channel: the event and its id (the user's sequence). */
interface Numbered {
  id: number;
  event: LiveEvent;
}

type Queryable = Pick<Tx, "query">;

/**
 * Stores a live event of the user under the next id of the user's sequence (kept for replay), and
 * sends it to every open event stream of the user, in any process. With `tx`, both happen only if
 * that transaction commits; the user's counter row stays locked until then, so the user's events
 * commit, and reach streams, in the order of their ids. Without `tx` it runs in its own transaction.
 */
export async function publishToUser(
  pubsub: PubSub,
  userId: string,
  event: LiveEvent,
  opts: { tx: Tx } | { database: Database },
): Promise<void> {
  // Refused before any SQL (an oversized event must not abort the caller's transaction).
  const text = JSON.stringify(event);
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES - 64) {
    throw new PubSubError(`live event ${event.type}: over ${MAX_PAYLOAD_BYTES - 64} bytes`);
  }
  const run = async (tx: Tx) => {
    const id = await storeEvent(tx, userId, text);
    await pubsub.publish(userChannel(userId), { id, event } satisfies Numbered, { tx });
  };
  if ("tx" in opts) await run(opts.tx);
  else await withTransaction(opts.database, run);
}

async function storeEvent(tx: Queryable, userId: string, eventJson: string): Promise<number> {
  const [row] = await tx.query<{ id: string }>(
    `WITH next AS (
       INSERT INTO live_event_counters (user_id, last_id) VALUES ($1, 1)
       ON CONFLICT (user_id) DO UPDATE SET last_id = live_event_counters.last_id + 1
       RETURNING last_id
     ), kept AS (
       INSERT INTO live_events (user_id, id, event) SELECT $1, last_id, $2::jsonb FROM next
     ), trimmed AS (
       DELETE FROM live_events WHERE user_id = $1 AND id <= (SELECT last_id FROM next) - $3::int
     )
     SELECT last_id::text AS id FROM next`,
    [userId, eventJson, REPLAY_EVENTS],
  );
  return Number(row?.id);
}

/** The user's kept events after `afterId`, oldest first (at most REPLAY_EVENTS, REPLAY_HOURS old). */
export async function eventsSince(db: Queryable, userId: string, afterId: number): Promise<Numbered[]> {
  const rows = await db.query<{ id: string; event: unknown }>(
    `SELECT id::text AS id, event FROM live_events
     WHERE user_id = $1 AND id > $2::bigint AND created_at > now() - make_interval(hours => $3::int)
     ORDER BY id LIMIT $4::int`,
    [userId, String(afterId), REPLAY_HOURS, REPLAY_EVENTS],
  );
  return rows.flatMap((r) => {
    const event = liveEventSchema.safeParse(typeof r.event === "string" ? JSON.parse(r.event) : r.event);
    return event.success ? [{ id: Number(r.id), event: event.data }] : [];
  });
}

/** Drops kept events older than REPLAY_HOURS (the hourly events.prune job); returns how many. */
export async function pruneLiveEvents(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query(
    `DELETE FROM live_events WHERE created_at < $1::timestamptz - make_interval(hours => $2::int) RETURNING 1`,
    [now.toISOString(), REPLAY_HOURS],
  );
  return rows.length;
}

/**
 * The kinds of event stream the API serves, one per endpoint (the `stream` label of the
 * `diginoor_event_streams` gauge): the user's events, the market's, the user's notifications, a
 * lottery's live counts.
 */
export const STREAM_KINDS = ["events", "market", "notifications", "lottery"] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];

/** One open stream, as the caps and the end of sessions see it. */
interface OpenStream {
  kind: StreamKind;
  /** Ends the stream; `last` is written first (the reconnect hint of a server shutting down). */
  end(last?: string): void;
  /** Signed-in streams: the account and the session that opened it. */
  userId?: string;
  sessionIdHash?: string;
  /** Anonymous streams: the client address (IPv6 per /64). */
  address?: string;
}

const openStreams = new WeakMap<FastifyInstance, Set<OpenStream>>();

/** What a stream's last bytes are when its server shuts down: reconnect in a second. */
export const RESTART_HINT = "retry: 1000\n: server restarting, reconnect\n\n";

/** Open streams of an app; they never end by themselves, so they are closed when the app closes. */
function streamsOf(app: FastifyInstance): Set<OpenStream> {
  let open = openStreams.get(app);
  if (!open) {
    const set = new Set<OpenStream>();
    open = set;
    openStreams.set(app, set);
    // A server shutting down (a rolling restart) tells each client to come back soon: EventSource
    // reconnects by itself after `retry` ms, through the load balancer to a process still running.
    app.addHook("preClose", async () => {
      for (const s of set) s.end(RESTART_HINT);
    });
  }
  return open;
}

/** How many event streams the app has open (tests and the stream caps). */
export function openStreamCount(app: FastifyInstance): number {
  return openStreams.get(app)?.size ?? 0;
}

/** The app's open event streams by kind, every kind named (0 when none is open): the metrics' gauge. */
export function openStreamsByKind(app: FastifyInstance): Record<StreamKind, number> {
  const counts = Object.fromEntries(STREAM_KINDS.map((k) => [k, 0])) as Record<StreamKind, number>;
  for (const s of openStreams.get(app) ?? []) counts[s.kind]++;
  return counts;
}

/** Registers the app's stream bookkeeping (call while registering routes, before the app is ready). */
export function trackUserStreams(app: FastifyInstance): void {
  streamsOf(app);
}

/** Says which of the given session hashes belong to live sessions (the accounts module decides). */
export type SessionCheck = (sessionIdHashes: string[]) => Promise<Set<string>>;

const sessionChecks = new WeakMap<FastifyInstance, SessionCheck>();

/**
 * Binds the app's signed-in streams to their sessions: `live` is asked when the accounts module
 * announces ended sessions of a user (`endStreamsOfEndedSessions`), and once when a stream opens
 * (a session ended between the request's sign-in check and the stream's registration would
 * otherwise go unnoticed).
 */
export function watchSessions(app: FastifyInstance, live: SessionCheck): void {
  sessionChecks.set(app, live);
}

/**
 * Ends the app's open streams of `userId` whose session is over. Called when the accounts module
 * announces that sessions of the user ended (sign-out, suspension, password change).
 */
export async function endStreamsOfEndedSessions(app: FastifyInstance, userId: string): Promise<number> {
  const live = sessionChecks.get(app);
  const mine = [...streamsOf(app)].filter((s) => s.userId === userId);
  if (!live || mine.length === 0) return 0;
  const hashes = [...new Set(mine.flatMap((s) => (s.sessionIdHash ? [s.sessionIdHash] : [])))];
  const still = await live(hashes);
  const over = mine.filter((s) => !s.sessionIdHash || !still.has(s.sessionIdHash));
  for (const s of over) s.end();
  return over.length;
}

/** Who holds a stream, and how many streams that holder may have open at once. */
export type StreamHolder =
  | { userId: string; sessionIdHash?: string; max: number }
  | { address: string; max: number };

/** Reserves a slot for a new stream of `holder`, or refuses with 429 too_many_streams. */
function reserve(open: Set<OpenStream>, holder: StreamHolder, entry: OpenStream): void {
  const held =
    "userId" in holder
      ? [...open].filter((s) => s.userId === holder.userId).length
      : [...open].filter((s) => s.address === holder.address).length;
  if (held >= holder.max) {
    throw new AppError(
      "too_many_streams",
      "userId" in holder
        ? `Your account already has ${holder.max} live event streams open, the most it may have at once: close another tab or window of Diginoor and try again`
        : `This address already has ${holder.max} live event streams open, the most it may have at once: close some and try again`,
      { max: holder.max },
    );
  }
  if ("userId" in holder) {
    entry.userId = holder.userId;
    entry.sessionIdHash = holder.sessionIdHash;
  } else entry.address = holder.address;
  open.add(entry);
}

/** The holder of an anonymous stream: the client's address. */
export function anonymousHolder(req: FastifyRequest, max: number): StreamHolder {
  return { address: ipSubject(req.ip), max };
}

/** A `Last-Event-ID` header as a number, or undefined when absent or not one of our ids. */
export function lastEventId(req: FastifyRequest): number | undefined {
  const raw = req.headers["last-event-id"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * Answers with a Server-Sent Events stream of a user's live events: subscribes to the user's pub/sub
 * channel (so events published by any server process arrive), sends the events `pick` keeps as
 * `id: <n>` / `event: <name>` / `data: <JSON>`, and a comment every `heartbeatMs`. With
 * `Last-Event-ID`, the kept events after it are sent first (no event twice, none out of order).
 */
export async function sendUserStream(
  app: FastifyInstance,
  o: {
    /** Which endpoint serves it (the metrics count streams by kind). */
    kind: StreamKind;
    pubsub: PubSub;
    database: Database;
    userId: string;
    /** The session that opened the stream: the stream ends when it does. */
    sessionIdHash?: string;
    /** Streams the user may have open at once (SSE_MAX_STREAMS_PER_USER). */
    maxStreams: number;
    heartbeatMs: number;
    req: FastifyRequest;
    reply: FastifyReply;
    /** What to send for an event (name and data), or undefined to skip it; default: every event as is. */
    pick?: (event: LiveEvent) => { name: string; data: unknown } | undefined;
  },
) {
  const pick = o.pick ?? ((e: LiveEvent) => ({ name: e.type, data: e }));
  return sendChannelStream(app, {
    ...o,
    holder: { userId: o.userId, sessionIdHash: o.sessionIdHash, max: o.maxStreams },
    channel: userChannel(o.userId),
    numbered: {
      lastId: lastEventId(o.req),
      idOf: (message) => {
        const id = (message as Partial<Numbered> | null)?.id;
        return typeof id === "number" && Number.isSafeInteger(id) ? id : undefined;
      },
      since: (afterId) => eventsSince(o.database, o.userId, afterId),
    },
    pick: (message) => {
      const event = liveEventSchema.safeParse((message as Partial<Numbered> | null)?.event);
      return event.success ? pick(event.data) : undefined;
    },
  });
}

/** A channel whose messages carry increasing ids, kept where `since` can read them again. */
interface NumberedChannel {
  /** The client's Last-Event-ID: the messages after it are sent first. */
  lastId?: number;
  idOf(message: unknown): number | undefined;
  /** The kept messages after `afterId`, oldest first. */
  since(afterId: number): Promise<unknown[]>;
}

/**
 * Answers with a Server-Sent Events stream of one pub/sub channel (any process may publish to it):
 * each message `pick` keeps is sent as `event: <name>` / `data: <JSON>`, with a comment every
 * `heartbeatMs`. Public channels (a lottery's live counts) use it directly. The holder's cap is
 * checked first.
 *
 * On a `numbered` channel each message is sent with `id: <n>`, and ids only grow: a message at or
 * below the last id handled is dropped. With a Last-Event-ID the kept messages after it are sent
 * first; a live message whose id skips some (pub/sub is at most once: a listening connection that
 * dropped) has the skipped ones read and sent before it. Live messages arriving meanwhile wait.
 */
export async function sendChannelStream(
  app: FastifyInstance,
  o: {
    /** Which endpoint serves it (the metrics count streams by kind). */
    kind: StreamKind;
    pubsub: PubSub;
    channel: string;
    holder: StreamHolder;
    heartbeatMs: number;
    req: FastifyRequest;
    reply: FastifyReply;
    pick: (message: unknown) => { name: string; data: unknown } | undefined;
    numbered?: NumberedChannel;
  },
) {
  const open = streamsOf(app);
  const stream = new PassThrough();
  const write = (text: string) => {
    if (!stream.writableEnded) stream.write(text);
  };
  const numbered = o.numbered;
  /** The highest id handled (sent or skipped by `pick`); undefined until one is known. */
  let lastId = numbered?.lastId;
  const send = (message: unknown) => {
    const id = numbered?.idOf(message);
    if (numbered) {
      if (id === undefined || (lastId !== undefined && id <= lastId)) return;
      lastId = id;
    }
    const out = o.pick(message);
    if (!out) return;
    write(
      `${id === undefined ? "" : `id: ${id}\n`}event: ${out.name}\ndata: ${JSON.stringify(out.data)}\n\n`,
    );
  };
  /** Live messages waiting while missed ones are read; undefined when none are being read. */
  let waiting: unknown[] | undefined;
  const catchUp = async () => {
    try {
      if (numbered && lastId !== undefined) for (const m of await numbered.since(lastId)) send(m);
    } catch (err) {
      o.req.log.warn({ err }, "event stream: could not read the missed events");
    }
    const queued = waiting ?? [];
    waiting = undefined;
    // Sent as they are, even if some are still missing (beyond what is kept): no second read.
    for (const m of queued) send(m);
  };
  const deliver = (message: unknown) => {
    if (waiting) {
      waiting.push(message);
      return;
    }
    const id = numbered?.idOf(message);
    if (numbered && id !== undefined && lastId !== undefined && id > lastId + 1) {
      waiting = [message];
      void catchUp();
    } else send(message);
  };
  let unsubscribe: (() => Promise<void>) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const entry: OpenStream = {
    kind: o.kind,
    end: (last?: string) => {
      if (!open.delete(entry)) return;
      clearInterval(heartbeat);
      unsubscribe?.().catch((err) => o.req.log.warn({ err }, "event stream: unsubscribe failed"));
      if (typeof last === "string") write(last);
      stream.end();
    },
  };
  // The slot is taken before anything is awaited, so streams opened together cannot pass the cap.
  reserve(open, o.holder, entry);
  o.req.raw.once("close", entry.end);
  // With a Last-Event-ID, live messages wait until the missed ones are sent.
  if (lastId !== undefined) waiting = [];
  try {
    const off = await o.pubsub.subscribe(o.channel, deliver);
    // Ended (client gone, session over) while subscribing: nothing to keep.
    if (!open.has(entry)) await off();
    else unsubscribe = off;
    // A session that ended after the request's sign-in check but before the stream was registered
    // (its announcement found no stream to end): the stream is refused as signed out.
    const live = sessionChecks.get(app);
    const session = entry.sessionIdHash;
    if (session && live && !(await live([session])).has(session)) throw AppError.unauthorized();
  } catch (err) {
    entry.end();
    throw err;
  }
  // The client reconnects after 3 s if the connection drops.
  write("retry: 3000\n: connected\n\n");
  if (waiting) await catchUp();
  if (open.has(entry)) heartbeat = setInterval(() => write(": heartbeat\n\n"), o.heartbeatMs);
  return o.reply
    .header("content-type", "text/event-stream; charset=utf-8")
    .header("cache-control", "no-store")
    .header("x-accel-buffering", "no")
    .send(stream);
}

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { eraseLiveEvents } from "./personal-data.ts";
