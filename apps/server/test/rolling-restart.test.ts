import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { LoadRecorder } from "./load-recorder.ts";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";
import { killAllServers, type ServerProcess, startServerProcess } from "./server-process.ts";
import { type EventStream, openEventStream } from "./sse-client.ts";
import { postgresPass } from "./passes.ts";

/**
 * Issue 26: a rolling restart. Two API processes and one worker on one database, behind a small
 * load balancer (below: round robin over the processes whose /readyz answers, checked every 100 ms,
 * like a real one's health check; a request refused at connection time, or answered with Fastify's
 * own "closing" 503, which is sent before any handler runs, is tried on the other process, as
 * nginx's proxy_next_upstream does; a request reset on an open connection is a failure). The
 * processes drain for SHUTDOWN_DRAIN_MS on SIGTERM (readiness 503, still serving). Each API process in turn gets SIGTERM under load and is started
 * again: the load sees no failed request, requests in flight at the SIGTERM complete, event streams
 * on the stopped process end with a reconnect hint and reconnect through the balancer.
 */
const SESSION_SECRET = "rolling-restart-secret-rolling-0001";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-rolling-"));
let db: ServerDatabase;

interface Backend {
  name: string;
  server: ServerProcess;
  ready: boolean;
}
interface Routed {
  backend: string;
  start: number;
  end: number;
  status: number;
  retried: number;
}

function startBalancer(backends: Backend[], t0: number) {
  const agent = new http.Agent({ keepAlive: true });
  const routed: Routed[] = [];
  let next = 0;
  let stopped = false;
  const health = (async () => {
    while (!stopped) {
      await Promise.all(
        backends.map(async (b) => {
          b.ready = await fetch(`${b.server.base}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
            (r) => r.ok,
            () => false,
          );
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const pick = async (): Promise<Backend | undefined> => {
    for (let i = 0; i < 100; i++) {
      const ready = backends.filter((b) => b.ready);
      if (ready.length > 0) return ready[next++ % ready.length];
      await new Promise((r) => setTimeout(r, 50));
    }
    return undefined;
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const start = Date.now() - t0;
    for (let attempt = 0; attempt < 4; attempt++) {
      const b = await pick();
      if (!b) break;
      const url = new URL(req.url ?? "/", b.server.base);
      const outcome = await new Promise<"retry" | "done">((resolve) => {
        const up = http.request(
          url,
          { method: req.method, headers: { ...req.headers, host: url.host }, agent },
          (upRes) => {
            const closing = upRes.statusCode === 503 && upRes.headers.connection === "close";
            if (closing) {
              upRes.resume();
              b.ready = false;
              resolve("retry");
              return;
            }
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
            upRes.on("end", () => {
              routed.push({
                backend: b.name,
                start,
                end: Date.now() - t0,
                status: upRes.statusCode ?? 0,
                retried: attempt,
              });
              resolve("done");
            });
            upRes.on("error", () => resolve("done"));
          },
        );
        up.on("error", (err: NodeJS.ErrnoException) => {
          // Refused: nothing reached the process, so any request may go elsewhere.
          if (err.code === "ECONNREFUSED" && !res.headersSent) {
            // Out of rotation until its health check passes again (a passive check, as nginx's max_fails).
            b.ready = false;
            resolve("retry");
          } else {
            routed.push({ backend: b.name, start, end: Date.now() - t0, status: 502, retried: attempt });
            if (!res.headersSent) res.writeHead(502).end(String(err.code));
            else res.destroy();
            resolve("done");
          }
        });
        up.end(body);
      });
      if (outcome === "done") return;
    }
    if (!res.headersSent) res.writeHead(502).end("no backend");
  });
  return {
    routed,
    server,
    listen: () =>
      new Promise<string>((r) =>
        server.listen(0, "127.0.0.1", () =>
          r(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
        ),
      ),
    close: async () => {
      stopped = true;
      await health;
      server.closeAllConnections();
      server.close();
      agent.destroy();
    },
  };
}

beforeAll(async () => {
  db = await createServerDatabase();
}, 60_000);
afterAll(async () => {
  killAllServers();
  await db?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.runIf(postgresPass)("rolling restart", () => {
  it("each API process in turn gets SIGTERM under load: no failed request, streams told to reconnect", async () => {
    const env = (name: string, workers: "on" | "off") => ({
      DATABASE_URL: db.url,
      DATA_DIR: path.join(tmp, name),
      SESSION_SECRET,
      SEED_ON_START: "0",
      LOG_LEVEL: "warn",
      // No chain: requests and streams are what is restarted (each process would otherwise start its
      // own anvil, deploy every contract and start a bundler).
      CHAIN_DISABLED: "1",
      WORKERS: workers,
      // The balancer checks every 100 ms: out of rotation well within the drain.
      SHUTDOWN_DRAIN_MS: "1000",
    });
    const start = (name: string): Promise<ServerProcess> =>
      startServerProcess(env(name, "off"), { waitReady: true });
    const [a, b, worker] = await Promise.all([
      start("api-a"),
      start("api-b"),
      startServerProcess(env("worker", "on"), { waitReady: true }),
    ]);
    const backends: Backend[] = [
      { name: "api-a", server: a, ready: true },
      { name: "api-b", server: b, ready: true },
    ];
    const load = new LoadRecorder(50_000);
    const lb = startBalancer(backends, load.t0);
    const base = await lb.listen();
    const fans = await Promise.all([0, 1, 2, 3].map(() => newSignedInUser(db.database)));

    const lanes = fans.map(async (fan, lane) => {
      for (let i = 0; load.running; i++) {
        const url = ["/api/v1/nfts", "/api/v1/me", "/api/v1/orders", "/api/v1/films"][(lane + i) % 4]!;
        await load.send(`GET ${url}`, "lb", () =>
          fetch(`${base}${url}`, { headers: { cookie: fan.cookie }, signal: AbortSignal.timeout(15_000) }),
        );
        await new Promise((r) => setTimeout(r, 10));
      }
    });

    const restarts: string[] = [];
    let streamsEnded = 0;
    let streamsHinted = 0;
    let reconnected = 0;
    for (const backend of [...backends]) {
      // A surge, as a rolling update does: the replacement is ready and in rotation before its
      // predecessor is told to stop.
      const replacement: Backend = {
        name: `${backend.name}-2`,
        server: await start(`${backend.name}-2`),
        ready: true,
      };
      // Streams through the balancer: some land on the process about to stop.
      const streams: EventStream[] = [];
      for (const fan of fans)
        streams.push(await openEventStream(`${base}/api/v1/events`, { cookie: fan.cookie }));
      await Promise.all(streams.map((s) => s.waitFor((t) => t.includes(": connected"), 15_000)));
      backends.push(replacement);
      const sigtermAt = load.now();
      console.log(`[rolling-restart] ${sigtermAt} ms: SIGTERM to ${backend.name}`);
      const code = await Promise.race([
        backend.server.terminate(),
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`${backend.name} did not exit: ${backend.server.stderr()}`)),
            30_000,
          ),
        ),
      ]);
      console.log(`[rolling-restart] ${load.now()} ms: ${backend.name} exited`);
      const stoppedAt = load.now();
      const inFlight = lb.routed.filter(
        (r) => r.backend === backend.name && r.start < sigtermAt && r.end > sigtermAt,
      ).length;
      // Streams on the stopped process ended (cleanly, with the hint); the others are still open.
      for (const [i, s] of streams.entries()) {
        const ended = await s.ended(500).then(
          () => true,
          () => false,
        );
        if (!ended) continue;
        streamsEnded++;
        if (s.text().includes("retry: 1000\n: server restarting, reconnect")) streamsHinted++;
        const again = await openEventStream(`${base}/api/v1/events`, { cookie: fans[i]!.cookie });
        await again.waitFor((t) => t.includes(": connected"), 15_000);
        reconnected++;
        again.close();
      }
      for (const s of streams) s.close();
      restarts.push(
        `${backend.name}: exit code ${code} ${stoppedAt - sigtermAt} ms after SIGTERM, ${inFlight} requests in flight then completed`,
      );
      expect(code).toBe(0);
      backends.splice(backends.indexOf(backend), 1);
    }
    load.stop();
    await lanes;
    await lb.close();

    const failed = load.samples.filter((s) => s.status !== 200);
    const retried = lb.routed.filter((r) => r.retried > 0).length;
    const perBackend: Record<string, number> = {};
    for (const r of lb.routed) perBackend[r.backend] = (perBackend[r.backend] ?? 0) + 1;
    console.log(
      `[rolling-restart] ${load.samples.length} requests through the balancer, ${failed.length} failed (${JSON.stringify(load.summary())}); ${retried} retried on the other process by the balancer; served: ${JSON.stringify(perBackend)}; ${restarts.join("; ")}; event streams: ${streamsEnded} ended by a stopping process, ${streamsHinted} of them with the reconnect hint, ${reconnected} reconnected through the balancer`,
    );
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    expect(streamsEnded).toBeGreaterThan(0);
    expect(streamsHinted).toBe(streamsEnded);
    expect(reconnected).toBe(streamsEnded);
    expect(worker.exited()).toBe(false);
    await Promise.all([...backends.map((x) => x.server.terminate()), worker.terminate()]);
  }, 300_000);
});
