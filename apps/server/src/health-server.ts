// A worker process's only HTTP surface (ROLE=worker): liveness and readiness on the API's paths,
// nothing else. Plain node:http: a worker builds no Fastify app and registers no routes.
import http from "node:http";
import { platformEndpoints } from "@diginoor/api/platform";

export function startHealthServer(o: {
  port: number;
  host: string;
  /** Rejects when the process is not ready (its database does not answer). */
  ready: () => Promise<unknown>;
}): Promise<{ close(): Promise<void>; port: number }> {
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = req.method === "GET" || req.method === "HEAD" ? (req.url ?? "/").split("?")[0] : undefined;
    if (path === platformEndpoints.health.path) return send(res, 200, { status: "ok" });
    if (path === platformEndpoints.readiness.path) {
      o.ready().then(
        () => send(res, 200, { status: "ready" }),
        () => send(res, 503, { error: { code: "unavailable", message: "Database unreachable" } }),
      );
      return;
    }
    send(res, 404, {
      error: { code: "not_found", message: "A worker process serves only /healthz and /readyz" },
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : o.port,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
