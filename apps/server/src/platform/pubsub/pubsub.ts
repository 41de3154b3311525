import { EventEmitter } from "node:events";
import pg from "pg";
import type { Database } from "../../db/client.ts";
import type { Tx } from "../tx.ts";

/** JSON-serialisable message body. */
export type Message = unknown;
export type Handler = (message: Message) => void;

/**
 * Messages between server processes (live notifications, cache invalidation). On the PostgreSQL
 * server it is LISTEN/NOTIFY, so every process connected to the database hears it; on PGlite (one
 * process by construction) it is in-process. Delivery is at most once, to whoever is subscribed at
 * the time: durable work belongs on jobs, not here.
 */
export interface PubSub {
  readonly kind: "postgres" | "in-process";
  /**
   * Publishes `message` on `channel`. With `tx`, it is sent only if and when that transaction commits
   * (NOTIFY is transactional on the server; on PGlite it waits for the commit hook).
   */
  publish(channel: string, message: Message, opts?: { tx?: Tx }): Promise<void>;
  /** Calls `handler` for every message on `channel` until the returned function is called. */
  subscribe(channel: string, handler: Handler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Channel names: short, lower-case, safe as a quoted SQL identifier. */
const CHANNEL = /^[a-z][a-z0-9_.:-]{0,62}$/;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7999;

export class PubSubError extends Error {}

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) {
    throw new PubSubError(
      `pub/sub: channel "${channel.slice(0, 80)}" must be 1-63 characters of a-z, 0-9, _ . : - starting with a letter`,
    );
  }
}

function encode(message: Message): string {
  const text = JSON.stringify(message);
  if (text === undefined) throw new PubSubError("pub/sub: message must be JSON-serialisable");
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
    throw new PubSubError(
      `pub/sub: message is over ${MAX_PAYLOAD_BYTES} bytes; publish an id and load the rest`,
    );
  }
  return text;
}

export interface PubSubOptions {
  /** Reports handler errors and lost connections; defaults to console.error. */
  onError?: (err: unknown) => void;
}

export function createPubSub(database: Database, opts: PubSubOptions = {}): PubSub {
  return database.raw.kind === "postgres"
    ? createPostgresPubSub(database.raw.pool, opts)
    : createInProcessPubSub(opts);
}

function dispatch(emitter: EventEmitter, channel: string, message: Message, onError: (e: unknown) => void) {
  for (const listener of emitter.listeners(channel) as Handler[]) {
    try {
      listener(message);
    } catch (err) {
      onError(err);
    }
  }
}

export function createInProcessPubSub(opts: PubSubOptions = {}): PubSub {
  const onError = opts.onError ?? console.error;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let closed = false;
  return {
    kind: "in-process",
    async publish(channel, message, o) {
      checkChannel(channel);
      // Round-trip through JSON so subscribers see what they would see across processes.
      const text = encode(message);
      const deliver = () => {
        if (!closed) dispatch(emitter, channel, JSON.parse(text), onError);
      };
      if (o?.tx) o.tx.afterCommit(deliver);
      else queueMicrotask(deliver);
    },
    async subscribe(channel, handler) {
      checkChannel(channel);
      emitter.on(channel, handler);
      return async () => {
        emitter.off(channel, handler);
      };
    },
    async close() {
      closed = true;
      emitter.removeAllListeners();
    },
  };
}

function createPostgresPubSub(pool: pg.Pool, opts: PubSubOptions): PubSub {
  const onError = opts.onError ?? console.error;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const quote = (channel: string) => `"${channel}"`;

  /**
   * LISTEN and UNLISTEN one after another on the listening connection: streams opening together
   * subscribe concurrently, and pg deprecates a query sent while another is running (gone in pg@9).
   */
  let listenQueue: Promise<unknown> = Promise.resolve();
  const listenQuery = (client: pg.Client, text: string) => {
    const run = listenQueue.then(() => client.query(text));
    listenQueue = run.catch(() => {});
    return run;
  };

  /** One dedicated connection holds every LISTEN of this process; it is re-made if it drops. */
  const connect = (): Promise<pg.Client> => {
    if (listener) return Promise.resolve(listener);
    if (connecting) return connecting;
    connecting = (async () => {
      const client = new pg.Client({ ...pool.options, application_name: "diginoor-pubsub" });
      client.on("notification", (n) => {
        if (n.payload === undefined) return;
        let message: Message;
        try {
          message = JSON.parse(n.payload);
        } catch (err) {
          onError(err);
          return;
        }
        dispatch(emitter, n.channel, message, onError);
      });
      client.on("error", (err) => {
        onError(err);
        if (listener === client) listener = undefined;
        client.end().catch(() => {});
        scheduleReconnect();
      });
      await client.connect();
      for (const channel of emitter.eventNames()) await client.query(`LISTEN ${quote(String(channel))}`);
      listener = client;
      return client;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (closed || emitter.eventNames().length === 0) return;
      connect().catch((err) => {
        onError(err);
        scheduleReconnect();
      });
    }, 1000);
    retryTimer.unref();
  };

  return {
    kind: "postgres",
    async publish(channel, message, o) {
      checkChannel(channel);
      const text = encode(message);
      // pg_notify inside the transaction is delivered by the server at commit, and dropped on rollback.
      if (o?.tx) await o.tx.query("SELECT pg_notify($1, $2)", [channel, text]);
      else await pool.query("SELECT pg_notify($1, $2)", [channel, text]);
    },
    async subscribe(channel, handler) {
      checkChannel(channel);
      if (closed) throw new PubSubError("pub/sub: closed");
      const first = emitter.listenerCount(channel) === 0;
      emitter.on(channel, handler);
      try {
        const client = await connect();
        // LISTEN has taken effect when the query returns: no message published after this is missed.
        if (first) await listenQuery(client, `LISTEN ${quote(channel)}`);
      } catch (err) {
        emitter.off(channel, handler);
        throw err;
      }
      return async () => {
        emitter.off(channel, handler);
        if (emitter.listenerCount(channel) === 0 && listener) {
          await listenQuery(listener, `UNLISTEN ${quote(channel)}`).catch(onError);
        }
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      emitter.removeAllListeners();
      const client = listener ?? (await connecting?.catch(() => undefined));
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}
