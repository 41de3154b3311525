import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineOfThisPass, postgresPass } from "../../../test/passes.ts";
import { type ServerDatabase, createServerDatabase } from "../../../test/pg-server.ts";
import type { Database } from "../../db/client.ts";
import { withTransaction } from "../tx.ts";
import { MAX_PAYLOAD_BYTES, type PubSub, PubSubError, createPubSub } from "./pubsub.ts";

/** Resolves with the next message on `channel`, or rejects after `ms`. */
function next(pubsub: PubSub, channel: string, ms = 2000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let off: (() => Promise<void>) | undefined;
    const timer = setTimeout(() => {
      void off?.();
      reject(new Error(`no message on ${channel} within ${ms} ms`));
    }, ms);
    void pubsub
      .subscribe(channel, (m) => {
        clearTimeout(timer);
        void off?.();
        resolve(m);
      })
      .then((o) => {
        off = o;
      }, reject);
  });
}

/** Collects what arrives on `channel` for `ms`. */
async function collect(pubsub: PubSub, channel: string, during: () => Promise<void>, ms = 300) {
  const got: unknown[] = [];
  const off = await pubsub.subscribe(channel, (m) => got.push(m));
  await during();
  await new Promise((r) => setTimeout(r, ms));
  await off();
  return got;
}

describe.each(engineOfThisPass)("pub/sub on %s", (name, open) => {
  let t: { database: Database; dispose(): Promise<void> };
  let pubsub: PubSub;
  beforeAll(async () => {
    t = await open();
    pubsub = createPubSub(t.database);
  });
  afterAll(async () => {
    await pubsub.close();
    await t.dispose();
  });

  it("uses LISTEN/NOTIFY on the server and the in-process bus on PGlite", () => {
    expect(pubsub.kind).toBe(name === "postgres" ? "postgres" : "in-process");
  });

  it("delivers a published message to every subscriber of the channel, and only of that channel", async () => {
    const a = next(pubsub, "orders.paid");
    const b = next(pubsub, "orders.paid");
    const other = collect(pubsub, "orders.other", async () => {});
    await new Promise((r) => setTimeout(r, 20));
    await pubsub.publish("orders.paid", { id: 7, amount: 1200 });
    expect(await a).toEqual({ id: 7, amount: 1200 });
    expect(await b).toEqual({ id: 7, amount: 1200 });
    expect(await other).toEqual([]);
  });

  it("publishes inside a transaction only when it commits", async () => {
    const got = await collect(pubsub, "tx.events", async () => {
      await withTransaction(t.database, async (tx) => {
        await pubsub.publish("tx.events", { n: 1 }, { tx });
      });
      await expect(
        withTransaction(t.database, async (tx) => {
          await pubsub.publish("tx.events", { n: 2 }, { tx });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
    });
    expect(got).toEqual([{ n: 1 }]);
  });

  it("stops delivering after unsubscribe, and a throwing handler does not stop the others", async () => {
    const errors: unknown[] = [];
    const own = createPubSub(t.database, { onError: (e) => errors.push(e) });
    const got: unknown[] = [];
    const offBad = await own.subscribe("unsub.test", () => {
      throw new Error("handler bug");
    });
    const off = await own.subscribe("unsub.test", (m) => got.push(m));
    await own.publish("unsub.test", 1);
    await new Promise((r) => setTimeout(r, 200));
    await off();
    await offBad();
    await own.publish("unsub.test", 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual([1]);
    expect(errors).toHaveLength(1);
    await own.close();
  });

  it("refuses bad channel names and oversized or non-JSON messages with a clear error", async () => {
    await expect(pubsub.publish('x"; DROP TABLE y; --', {})).rejects.toBeInstanceOf(PubSubError);
    await expect(pubsub.subscribe("", () => {})).rejects.toThrow(/channel/);
    await expect(pubsub.publish("big", "x".repeat(MAX_PAYLOAD_BYTES + 1))).rejects.toThrow(/over 7999 bytes/);
    await expect(pubsub.publish("undef", undefined)).rejects.toThrow(/JSON/);
  });
});

describe.runIf(postgresPass)("pub/sub across two processes on one PostgreSQL", () => {
  let server: ServerDatabase;
  const children: ChildProcess[] = [];
  const peer = path.join(import.meta.dirname, "../../../test/fixtures/pubsub-peer.ts");
  const tsx = path.join(import.meta.dirname, "../../../../../node_modules/.bin/tsx");

  beforeAll(async () => {
    server = await createServerDatabase({ migrated: false });
  });
  afterAll(async () => {
    await Promise.all(
      children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise((r) => c.once("exit", r).kill("SIGTERM"))),
    );
    await server.dispose();
  });

  it("a message published in one process reaches a subscriber in the other within 1 s", async () => {
    const sub = spawn(tsx, [peer, server.url, "subscribe", "live.notifications"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(sub);
    const lines: string[] = [];
    let buffered = "";
    const waitFor = (pred: (l: string) => boolean, ms: number) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; got ${JSON.stringify(lines)}`)), ms);
        const check = () => {
          const hit = lines.find(pred);
          if (hit) {
            clearTimeout(timer);
            sub.stdout?.off("data", onData);
            resolve(hit);
          }
        };
        const onData = () => check();
        sub.stdout?.on("data", onData);
        check();
      });
    sub.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      lines.push(...parts);
    });
    await waitFor((l) => l === "ready", 20_000);

    const pub = spawn(
      tsx,
      [peer, server.url, "publish", "live.notifications", '{"userId":42,"kind":"outbid"}'],
      {
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    children.push(pub);
    const line = await waitFor((l) => l.startsWith("{"), 20_000);
    const { receivedAt, message } = JSON.parse(line) as {
      receivedAt: number;
      message: { userId: number; kind: string; sentAt: number };
    };
    expect(message).toMatchObject({ userId: 42, kind: "outbid" });
    expect(pub.pid).not.toBe(sub.pid);
    const latency = receivedAt - message.sentAt;
    expect(latency).toBeGreaterThanOrEqual(0);
    expect(latency).toBeLessThan(1000);
  });
});
