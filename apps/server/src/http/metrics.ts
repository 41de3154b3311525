import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Database } from "../db/client.ts";
import type { ChainRuntime } from "../modules/chain/runtime.ts";
import type { Jobs } from "../platform/jobs/jobs.ts";
import { sendNotFound } from "./error-handler.ts";

export interface MetricsOptions {
  /** GET /metrics answers only `Authorization: Bearer <token>`; without a token there is no endpoint. */
  token?: string;
  database: Database;
  jobs: Jobs;
  chain?: ChainRuntime;
  /** The process's open event streams by kind (every kind named, 0 included). */
  streams: () => Record<string, number>;
}

/** Webhook routes, by the provider they receive. */
const WEBHOOKS: Record<string, string> = {
  "/api/v1/webhooks/sandbox": "sandbox",
  "/api/v1/webhooks/stripe": "stripe",
  "/api/v1/webhooks/cashfree": "cashfree",
};

/** A webhook answer's result label: accepted (2xx), rejected (4xx: signature, timestamp, body), error. */
const webhookResult = (status: number) => (status < 300 ? "accepted" : status < 500 ? "rejected" : "error");

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Prometheus metrics (prom-client; docs/operations.md lists each with its alert). Counters and the
 * request histogram count this process; the gauges read the shared database when scraped, so
 * every process reports the same orders, queue and indexer figures (alert on max(), not sum()).
 * Registered before the routes, so its hooks see every request.
 */
export function installMetrics(app: FastifyInstance, opts: MetricsOptions): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client's defaults include gauges named `…_total` (nodejs_active_handles_total, …_requests_,
  // …_resources_), a suffix Prometheus keeps for counters (`promtool check metrics` refuses them).
  // Each is the sum of the gauge of the same name without `_total`, by `type`: that one stays.
  for (const m of registry.getMetricsAsArray())
    if (String(m.type) === "gauge" && m.name.endsWith("_total")) registry.removeSingleMetric(m.name);
  const { database, jobs, chain } = opts;

  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by route pattern, method and status",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: "diginoor_webhooks_total",
    help: "Payment provider webhooks received, by provider and result (accepted, rejected, error)",
    labelNames: ["provider", "result"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "diginoor_event_streams",
    help: "Live event streams (Server-Sent Events) open on this process, by stream (events, market, notifications, lottery)",
    labelNames: ["stream"] as const,
    registers: [registry],
    collect() {
      for (const [stream, n] of Object.entries(opts.streams())) this.set({ stream }, n);
    },
  });
  new Gauge({
    name: "diginoor_db_pool_in_use",
    help: "Database connections of this process checked out of its pool (PGlite: its one connection, 0 or 1)",
    registers: [registry],
    collect() {
      const raw = database.raw;
      this.set(raw.kind === "postgres" ? raw.pool.totalCount - raw.pool.idleCount : 0);
    },
  });
  const jobsFailed = new Counter({
    name: "diginoor_jobs_failed_total",
    help: "Job attempts that failed in this process, by job (each is retried with backoff until its limit)",
    labelNames: ["job"] as const,
    registers: [registry],
  });
  const jobsCompleted = new Counter({
    name: "diginoor_jobs_completed_total",
    help: "Jobs completed by this process, by job",
    labelNames: ["job"] as const,
    registers: [registry],
  });
  jobs.onAttempt((name, ok) => (ok ? jobsCompleted : jobsFailed).inc({ job: name }));
  /** A gauge of counts by one label, read from the shared database when scraped. */
  const countsGauge = (name: string, help: string, label: string, sql: string) =>
    new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await database.query<{ key: string; n: number }>(sql))
          this.set({ [label]: r.key }, r.n);
      },
    });
  countsGauge(
    "diginoor_jobs_queued",
    "Jobs waiting to run (created or waiting for a retry), by job",
    "job",
    "SELECT name AS key, count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry') GROUP BY name",
  );
  countsGauge(
    "diginoor_jobs_dead",
    "Jobs failed for good (retries exhausted) and not yet archived, by job",
    "job",
    "SELECT name AS key, count(*)::int AS n FROM pgboss.job WHERE state = 'failed' GROUP BY name",
  );
  countsGauge(
    "diginoor_orders",
    "Orders by state",
    "state",
    "SELECT state AS key, count(*)::int AS n FROM orders GROUP BY state",
  );
  new Gauge({
    name: "diginoor_indexer_lag_blocks",
    help: "Blocks between the chain head and the indexer's checkpoint, by chain (absent without a chain or while its RPC cannot be reached)",
    labelNames: ["chain_id"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!chain) return;
      const [row] = await database.query<{ block_number: string | number }>(
        "SELECT block_number FROM indexer_checkpoints WHERE chain_id = $1",
        [chain.chainId],
      );
      const head = await Promise.race([
        chain.publicClient.getBlockNumber({ cacheTime: 0 }).catch(() => undefined),
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000).unref()),
      ]);
      if (head === undefined) return;
      const at = row ? BigInt(row.block_number) : BigInt(chain.deployment.blockNumber);
      this.set({ chain_id: String(chain.chainId) }, Number(head > at ? head - at : 0n));
    },
  });

  app.addHook("onResponse", async (req, reply) => {
    const route = req.routeOptions.url ?? "unmatched";
    if (route === "/metrics") return;
    duration.observe(
      { route, method: req.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    const provider = WEBHOOKS[route];
    if (provider && req.method === "POST")
      webhooks.inc({ provider, result: webhookResult(reply.statusCode) });
  });

  const token = opts.token;
  if (token) {
    app.get("/metrics", { schema: { hide: true } }, async (req, reply) => {
      const auth = req.headers.authorization ?? "";
      const given = auth.startsWith("Bearer ") ? auth.slice(7) : "";
      // Not found rather than 401: the endpoint does not show itself to anyone without the token.
      if (!sameSecret(given, token)) {
        return sendNotFound(reply);
      }
      reply.header("cache-control", "no-store").type(registry.contentType);
      return registry.metrics();
    });
  }
  return registry;
}
