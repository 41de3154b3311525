// Issue 21 point 5: the public market stream (GET /api/v1/market/events) forwards every batch the
// indexer announces on its pub/sub channel as `chain.updated` with the tokens it touched, so pages
// showing tokens, auctions and the market read them again instead of polling.
import type { AddressInfo } from "node:net";
import type { MarketEvent } from "@diginoor/api/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStreamCount } from "../src/modules/events/service.ts";
import { CHAIN_EVENTS_CHANNEL, type ChainEventsMessage } from "../src/modules/indexer/service.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { openEventStream } from "./sse-client.ts";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ SSE_HEARTBEAT_MS: "5000" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  t.app.server.closeAllConnections();
  await t.close();
});

const batch = (over: Partial<ChainEventsMessage>): ChainEventsMessage => ({
  chainId: 31337,
  kind: "batch",
  fromBlock: "10",
  toBlock: "12",
  events: 2,
  tokenIds: [],
  more: false,
  notificationIds: [],
  ...over,
});
const sent = (text: string): MarketEvent[] =>
  [...text.matchAll(/^event: chain\.updated\ndata: (.+)$/gm)].map((m) => JSON.parse(m[1] as string));

describe("the market stream", () => {
  it("sends each indexed batch to anonymous watchers as chain.updated with the tokens it touched; a rollback says more", async () => {
    const s = await openEventStream(`${base}/api/v1/market/events`);
    try {
      expect(s.status).toBe(200);
      expect(s.contentType).toMatch(/^text\/event-stream/);
      await s.waitFor((text) => text.includes(": connected"));
      await t.ctx.pubsub.publish(CHAIN_EVENTS_CHANNEL, batch({ tokenIds: ["7", "9"] }));
      await t.ctx.pubsub.publish(CHAIN_EVENTS_CHANNEL, batch({ kind: "rollback", events: 0 }));
      await s.waitFor((text) => sent(text).length === 2);
      expect(sent(s.text())).toEqual([
        { type: "chain.updated", tokenIds: ["7", "9"], more: false },
        { type: "chain.updated", tokenIds: [], more: true },
      ]);
      // Nothing a watcher need not see: no chain id, blocks or notification ids.
      expect(s.text()).not.toContain("notificationIds");
    } finally {
      s.close();
    }
    // The server's books show the stream gone (it unsubscribed).
    const end = Date.now() + 5000;
    while (openStreamCount(t.app) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(openStreamCount(t.app)).toBe(0);
  });
});
