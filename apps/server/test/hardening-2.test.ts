// Issue 23 (hardening, second round), the server's points: (2) event streams capped per account and
// address and closed with their session; (3) request, header and idle timeouts; (4) no error logged
// when a stream's client goes away; (5) 400s for an empty console PATCH and a cut multipart body;
// (15) `id:` on stream events and replay from Last-Event-ID.
import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { openStreamCount } from "../src/modules/events/service.ts";
import { unsubscribeKey } from "../src/modules/notifications/service.ts";
import { sandboxSecret } from "../src/modules/orders/sandbox.ts";
import { ORIGIN, samplePng } from "./fixtures/accounts.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SSE_HEARTBEAT_MS: "200" });
});
afterAll(() => t.close());

const until = async (what: string, test: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Another server on the test database with its own configuration and log, listening on a free port. */
async function listeningApp(env: Record<string, string>) {
  const o = await otherApp(env);
  await o.app.listen({ port: 0, host: "127.0.0.1" });
  return { ...o, base: `http://127.0.0.1:${(o.app.server.address() as AddressInfo).port}` };
}

/** Another server on the test database with its own configuration and log. */
async function otherApp(env: Record<string, string>) {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: t.config.DATA_DIR,
    PUBLIC_URL: "http://localhost:3000",
    CHAIN_DISABLED: "1",
    SESSION_SECRET: "test-secret-test-secret-test-secret-123",
    LOG_LEVEL: "info",
    ...env,
  });
  const ctx = await bootstrap(config, { database: t.ctx.database, chain: null, pollingIntervalSeconds: 0.5 });
  const app = await buildApp(ctx, { webDistDir: "/nonexistent", logStream });
  await app.ready();
  await ctx.startWork(config.ROLE);
  return {
    app,
    ctx,
    lines,
    close: async () => {
      await app.close();
      await ctx.close();
    },
  };
}

describe("point 4: a stream's client going away is not an error", () => {
  let s: Awaited<ReturnType<typeof listeningApp>>;
  beforeAll(async () => {
    s = await listeningApp({ SSE_HEARTBEAT_MS: "100" });
  });
  afterAll(() => s.close());

  it("logs no ERR_HTTP_HEADERS_SENT and no 500 when clients disconnect from both stream endpoints", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    for (const path of ["/api/v1/events", "/api/v1/notifications/stream"]) {
      // A plain HTTP client that reads a heartbeat, then drops the connection (as a closed tab does).
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${s.base}${path}`, { headers: { cookie } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.on("data", (chunk: Buffer) => {
            if (chunk.toString().includes(": heartbeat")) {
              req.destroy();
              resolve();
            }
          });
        });
        req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
      });
    }
    // The server has seen both closes when both streams are gone from its books.
    await until("both streams closed on the server", () => openStreamCount(s.app) === 0);
    await new Promise((r) => setTimeout(r, 300));
    const bad = s.lines.filter(
      (l) => /ERR_HTTP_HEADERS_SENT|already sent|"statusCode":500/.test(l) || /"level":[56]0/.test(l),
    );
    expect(bad).toEqual([]);
  });
});

describe("point 5: 400, not 500, for an empty console PATCH and a cut upload", () => {
  let admin: { cookie: string };
  beforeAll(async () => {
    admin = await newSignedInUser(t.ctx, { role: "admin" });
  });
  const headers = () => ({ origin: ORIGIN, cookie: admin.cookie, "content-type": "application/json" });

  it("answers an empty PATCH of each console resource with 400 naming the mistake", async () => {
    const made = await t.app.inject({
      method: "POST",
      url: "/api/v1/admin/studios",
      headers: headers(),
      payload: JSON.stringify({ slug: "empty-patch", name: "Empty Patch Films", logoUrl: "/media/l.webp" }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const studioId = made.json().id as number;
    for (const url of [
      `/api/v1/admin/studios/${studioId}`,
      "/api/v1/admin/films/1",
      "/api/v1/admin/nfts/abcdefgh",
      "/api/v1/admin/posts/some-post",
      "/api/v1/admin/celebrities/1",
    ]) {
      const res = await t.app.inject({ method: "PATCH", url, headers: headers(), payload: "{}" });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe("validation_failed");
      expect(res.body).toContain("at least one field");
    }
  });

  it("answers a multipart body cut off inside its file part with 400", async () => {
    const png = await samplePng();
    const boundary = "----diginoorcut";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const cut = Buffer.concat([Buffer.from(head), png.subarray(0, Math.floor(png.length / 2))]);
    for (const url of ["/api/v1/admin/images?purpose=nft", "/api/v1/me/avatar"]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: {
          origin: ORIGIN,
          cookie: admin.cookie,
          "content-type": `multipart/form-data; boundary=${boundary}`,
        },
        payload: cut,
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe("bad_request");
    }
  });
});

describe("point 9: behind a trusted proxy, CSRF compares against PUBLIC_URL, not X-Forwarded-Host", () => {
  it("refuses an Origin that only matches the forwarded host", async () => {
    const o = await otherApp({ TRUST_PROXY: "true", PUBLIC_URL: "http://localhost:3000" });
    try {
      const send = (origin: string, forwardedHost: string) =>
        o.app.inject({
          method: "POST",
          url: "/api/v1/newsletter",
          headers: {
            "content-type": "application/json",
            host: "localhost:3000",
            origin,
            "x-forwarded-host": forwardedHost,
            "x-forwarded-proto": "http",
          },
          payload: JSON.stringify({ email: `proxy-${Date.now()}@example.com` }),
        });
      const forged = await send("http://evil.example", "evil.example");
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error.code).toBe("forbidden");
      const ours = await send("http://localhost:3000", "evil.example");
      expect(ours.statusCode, ours.body).toBe(201);
    } finally {
      await o.close();
    }
  });
});

describe("point 8: without SESSION_SECRET, the sandbox and unsubscribe keys are random and kept in DATA_DIR", () => {
  it("makes each key once per DATA_DIR, unguessable from the source, and keeps it across restarts", () => {
    const dirA = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-keys-"));
    const dirB = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-keys-"));
    const a = loadConfig({ NODE_ENV: "development", DATA_DIR: dirA });
    const b = loadConfig({ NODE_ENV: "development", DATA_DIR: dirB });
    // What the old code derived from a constant in the source: anyone could sign with these.
    const publicSandbox = createHash("sha256").update("diginoor sandbox webhooks:development").digest("hex");
    const publicUnsubscribe = createHmac("sha256", "development")
      .update("diginoor unsubscribe links v1")
      .digest();
    const sandboxA = sandboxSecret(a);
    expect(sandboxA).toMatch(/^[0-9a-f]{64}$/);
    expect(sandboxA).not.toBe(publicSandbox);
    expect(sandboxSecret(b)).not.toBe(sandboxA);
    // A restart (a new config on the same DATA_DIR) reads the same key back.
    expect(sandboxSecret(loadConfig({ NODE_ENV: "development", DATA_DIR: dirA }))).toBe(sandboxA);
    const keyA = unsubscribeKey(a);
    expect(keyA.length).toBe(32);
    expect(keyA.equals(publicUnsubscribe)).toBe(false);
    expect(unsubscribeKey(b).equals(keyA)).toBe(false);
    expect(unsubscribeKey(loadConfig({ NODE_ENV: "development", DATA_DIR: dirA })).equals(keyA)).toBe(true);
    // Kept under DATA_DIR, readable by this user only.
    for (const name of ["sandbox-webhook", "unsubscribe-links"]) {
      const stat = fs.statSync(path.join(a.paths.secrets, name));
      expect(stat.mode & 0o077).toBe(0);
    }
    // With SESSION_SECRET, every process of a deployment derives the same keys from it, as before.
    const withSecret = { NODE_ENV: "development", SESSION_SECRET: "s".repeat(40) };
    expect(sandboxSecret(loadConfig({ ...withSecret, DATA_DIR: dirA }))).toBe(
      sandboxSecret(loadConfig({ ...withSecret, DATA_DIR: dirB })),
    );
  });
});

describe("point 3: slow and silent connections are closed", () => {
  let s: Awaited<ReturnType<typeof listeningApp>>;
  beforeAll(async () => {
    s = await listeningApp({
      HTTP_REQUEST_TIMEOUT_MS: "1500",
      HTTP_HEADERS_TIMEOUT_MS: "1000",
      // Longer than the request timeout, so a trickled body meets the request timeout first even
      // when a loaded machine delays the trickle.
      HTTP_IDLE_TIMEOUT_MS: "8000",
      SSE_HEARTBEAT_MS: "500",
    });
  });
  afterAll(() => s.close());

  /** A raw connection; resolves with what the server sent and how long it stayed open. */
  function rawConnection(act: (socket: net.Socket) => void) {
    const { port } = new URL(s.base);
    return new Promise<{ received: string; openMs: number }>((resolve) => {
      const started = Date.now();
      let received = "";
      const socket = net.connect(Number(port), "127.0.0.1", () => act(socket));
      socket.on("data", (d) => {
        received += d.toString();
      });
      socket.on("error", () => {});
      socket.on("close", () => resolve({ received, openMs: Date.now() - started }));
      // The test's own bound: a connection the server never closes fails the assertions below.
      setTimeout(() => socket.destroy(), 20_000).unref();
    });
  }

  it("closes a connection that sends nothing", async () => {
    const r = await rawConnection(() => {});
    expect(r.openMs).toBeLessThan(14_000);
  });

  it("closes a connection whose body trickles in a byte at a time (408)", async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await rawConnection((socket) => {
      socket.write(
        "POST /api/v1/newsletter HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
      );
      // A byte every 200 ms: never silent long enough for the idle timeout.
      timer = setInterval(() => socket.writable && socket.write("{"), 200);
    });
    clearInterval(timer);
    // Well before the idle timeout could have closed it: the request timeout did.
    expect(r.openMs).toBeLessThan(7000);
    // Node answers 408 when it can; a loaded machine may find the socket gone first.
    expect(r.received === "" || /^HTTP\/1\.1 408/.test(r.received)).toBe(true);
  });

  it("keeps an event stream open past the idle timeout through its heartbeats", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const r = await new Promise<{ heartbeats: number; endedByServer: boolean }>((resolve) => {
      let text = "";
      let endedByServer = false;
      const req = http.get(`${s.base}/api/v1/events`, { headers: { cookie } }, (res) => {
        res.on("data", (d: Buffer) => {
          text += d.toString();
        });
        res.on("end", () => {
          endedByServer = true;
        });
      });
      req.on("error", () => {});
      // Well past the 8 s idle timeout, then the client leaves.
      setTimeout(() => {
        resolve({ heartbeats: text.split(": heartbeat").length - 1, endedByServer });
        req.destroy();
      }, 10_000);
    });
    expect(r.endedByServer).toBe(false);
    expect(r.heartbeats).toBeGreaterThanOrEqual(3);
  });

  it("refuses headers and idle timeouts that would cut requests or streams short", () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: "9000", HTTP_REQUEST_TIMEOUT_MS: "5000" })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ HTTP_IDLE_TIMEOUT_MS: "20000", SSE_HEARTBEAT_MS: "25000" })).toThrow(
      /HTTP_IDLE_TIMEOUT_MS/,
    );
  });
});
