import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./harness.ts";
import { parseMetrics, sample, sum } from "./metrics.ts";

/**
 * GET /metrics (issue 26): Prometheus text through prom-client, only with the bearer token. The
 * storm test (orders-storm.test.ts) shows the webhook, job and order figures moving under load.
 */
const TOKEN = "metrics-token-for-tests-0123456789";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, CHAIN_DISABLED: "1" });
});
afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) =>
  t.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });

describe("GET /metrics", () => {
  it("is not public: 404 without the token, with a wrong one, and when no token is configured", async () => {
    for (const auth of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const res = await scrape(auth);
      expect(res.statusCode, String(auth)).toBe(404);
      expect(res.body).not.toContain("http_request_duration_seconds");
    }
    const off = await createTestApp({ CHAIN_DISABLED: "1" });
    try {
      const res = await off.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain("http_request_duration_seconds");
    } finally {
      await off.close();
    }
  });

  it("names every metric of the runbook, with labels, in the Prometheus text format", async () => {
    await t.app.inject("/api/v1/nfts");
    await t.app.inject("/api/v1/nfts");
    await t.app.inject("/api/v1/no-such-route");
    // A forged webhook: rejected, counted.
    await t.app.inject({
      method: "POST",
      url: "/api/v1/webhooks/sandbox",
      payload: "{}",
      headers: { "content-type": "application/json", "x-sandbox-signature": "t=1,v1=00" },
    });
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const text = res.body;
    for (const name of [
      "http_request_duration_seconds",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
      "diginoor_db_pool_in_use",
      "diginoor_jobs_queued",
      "diginoor_jobs_failed_total",
      "diginoor_jobs_completed_total",
      "diginoor_jobs_dead",
      "diginoor_indexer_lag_blocks",
      "diginoor_orders",
      "diginoor_webhooks_total",
      "diginoor_event_streams",
    ]) {
      expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    }
    expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    const s = parseMetrics(text);
    expect(
      sample(s, "http_request_duration_seconds_count", {
        route: "/api/v1/nfts",
        method: "GET",
        status: "200",
      }),
    ).toBe(2);
    expect(sum(s, "http_request_duration_seconds_count", { route: "unmatched", status: "404" })).toBe(1);
    expect(sample(s, "diginoor_webhooks_total", { provider: "sandbox", result: "rejected" })).toBe(1);
    expect(sample(s, "diginoor_event_streams", { stream: "events" })).toBe(0);
    expect(s.has(`diginoor_event_streams{stream="events"}`)).toBe(true);
    // Without a chain there is no lag to report.
    expect(text).not.toMatch(/^diginoor_indexer_lag_blocks/m);
  });
});
