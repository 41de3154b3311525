import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake provider received. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeAnswer = { status: number; json: unknown } | "hang";

/**
 * A local HTTP server (port 0) standing in for a payment provider's API: every request is recorded,
 * `answer` says (at once, or after a while) what to send back in the provider's wire format, or
 * "hang" to never answer (a timeout).
 */
export async function startFakeProvider(answer: (r: FakeRequest) => FakeAnswer | Promise<FakeAnswer>) {
  const requests: FakeRequest[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const r: FakeRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(r);
      const a = await answer(r);
      if (a === "hang") {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(a.status, { "content-type": "application/json", "request-id": `req_${requests.length}` });
      res.end(JSON.stringify(a.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const h of hanging) h();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
