import { execFileSync, spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStreamCount } from "../src/modules/events/service.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { newOpenLottery } from "./lottery-helpers.ts";
import { parseMetrics, sample } from "./metrics.ts";
import { type EventStream, openEventStream } from "./sse-client.ts";

/**
 * GET /metrics as Prometheus's own tool reads it (issue 37 point 6): `promtool check metrics` (Debian's
 * `prometheus` package; .ci/run installs it) finds nothing to complain about in the live output, and
 * `diginoor_event_streams` counts every kind of stream the API serves, by kind.
 */
const TOKEN = "metrics-token-for-tests-0123456789";
const PER_ADDRESS = 2;
let t: TestApp;
let base: string;
const opened: EventStream[] = [];

beforeAll(async () => {
  t = await createTestApp({
    METRICS_TOKEN: TOKEN,
    CHAIN_DISABLED: "1",
    SSE_HEARTBEAT_MS: "5000",
    SSE_MAX_STREAMS_PER_ADDRESS: String(PER_ADDRESS),
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of opened) s.close();
  t.app.server.closeAllConnections();
  await t?.close();
});

const scrape = async () => {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
};
async function open(path: string, headers: Record<string, string> = {}) {
  const s = await openEventStream(`${base}${path}`, headers);
  opened.push(s);
  if (s.status === 200) await s.waitFor((text) => text.includes(": connected"));
  return s;
}
async function serverHolds(n: number) {
  const end = Date.now() + 5000;
  while (openStreamCount(t.app) !== n) {
    if (Date.now() > end) throw new Error(`server holds ${openStreamCount(t.app)} streams, not ${n}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** promtool, or a failure that says how to get it (never a skipped check). */
function promtool(): string {
  const found = spawnSync("promtool", ["--version"], { encoding: "utf8" });
  if (found.error || found.status !== 0)
    throw new Error(
      "promtool is not installed: `apt-get install prometheus` (Debian's package ships /usr/bin/promtool; .ci/run installs it)",
    );
  return "promtool";
}

describe("GET /metrics, read by promtool and by stream", () => {
  it("counts the open event streams of every kind, by kind; a refused stream is not counted", async () => {
    const kinds = (s: ReturnType<typeof parseMetrics>) =>
      Object.fromEntries(
        ["events", "market", "notifications", "lottery"].map((k) => [
          k,
          sample(s, "diginoor_event_streams", { stream: k }),
        ]),
      );
    const before = parseMetrics(await scrape());
    expect(kinds(before)).toEqual({ events: 0, market: 0, notifications: 0, lottery: 0 });
    // Every kind is a series of its own, even at 0.
    expect(before.has('diginoor_event_streams{stream="lottery"}')).toBe(true);

    const fan = await newSignedInUser(t.ctx);
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const lottery = await newOpenLottery(base, admin.cookie, "Metrics draw");
    expect((await open("/api/v1/events", { cookie: fan.cookie })).status).toBe(200);
    expect((await open("/api/v1/notifications/stream", { cookie: fan.cookie })).status).toBe(200);
    expect((await open("/api/v1/notifications/stream", { cookie: fan.cookie })).status).toBe(200);
    expect((await open("/api/v1/market/events")).status).toBe(200);
    expect((await open(`/api/v1/lotteries/${lottery}/events`)).status).toBe(200);
    // The address's cap (2 anonymous streams): this one is refused, and must not count.
    const refused = await open(`/api/v1/lotteries/${lottery}/events`);
    expect(refused.status).toBe(429);
    await refused.ended();
    await serverHolds(5);
    expect(kinds(parseMetrics(await scrape()))).toEqual({
      events: 1,
      market: 1,
      notifications: 2,
      lottery: 1,
    });

    for (const s of opened.splice(0)) s.close();
    await serverHolds(0);
    expect(kinds(parseMetrics(await scrape()))).toEqual({
      events: 0,
      market: 0,
      notifications: 0,
      lottery: 0,
    });
  });

  it("passes `promtool check metrics` with no complaint, streams open", async () => {
    const tool = promtool();
    const fan = await newSignedInUser(t.ctx);
    await open("/api/v1/events", { cookie: fan.cookie });
    await open("/api/v1/market/events");
    await fetch(`${base}/api/v1/nfts`);
    await fetch(`${base}/api/v1/no-such-route`);
    const text = await scrape();
    expect(text).toMatch(/^# TYPE diginoor_event_streams gauge$/m);
    // promtool reads the exposition on stdin; it prints each problem and exits 1 (3 for a parse error).
    const run = spawnSync(tool, ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe("");
    expect(run.status).toBe(0);
    // The check can fail: a gauge named like a counter is refused.
    const bad = "# HELP x_total A gauge.\n# TYPE x_total gauge\nx_total 1\n";
    expect(() => execFileSync(tool, ["check", "metrics"], { input: bad, stdio: "pipe" })).toThrow();
  });
});
