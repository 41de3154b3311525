import net from "node:net";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { closeConnectionsWhenIdle } from "./closing.ts";

async function appWithSlowRoute() {
  // An idle timeout far longer than the test: only the hook can close what is left open.
  const app = Fastify({ connectionTimeout: 120_000, keepAliveTimeout: 72_000 });
  closeConnectionsWhenIdle(app, 50);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  app.get("/slow", async () => {
    await released;
    return { done: true };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, release };
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => resolve(s));
  });
const closed = (s: net.Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once("close", () => r())));

describe("closeConnectionsWhenIdle", () => {
  it("closes a connection that never sent a request, which Node's own shutdown leaves open", async () => {
    const { app, port } = await appWithSlowRoute();
    const silent = await connect(port);
    silent.on("error", () => {});
    const started = Date.now();
    await app.close();
    await closed(silent);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("lets an in-flight request complete, then closes its keep-alive connection", async () => {
    const { app, port, release } = await appWithSlowRoute();
    const socket = await connect(port);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.write("GET /slow HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n");
    // The request reaches the handler before the shutdown starts.
    await new Promise((r) => setTimeout(r, 100));
    const closing = app.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(socket.destroyed, "still open while its request is in flight").toBe(false);
    release();
    await closing;
    await closed(socket);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('{"done":true}');
  });
});
