// Issue 8, in the HTTP layer: (4) small bodies and bounded error replies; (5) no 500s from input and
// Fastify's own errors in the one error shape without echoing the URL; (6) security headers and
// request ids; (7) CSRF compares full origins; (9) contact and newsletter limits slide and group
// IPv6 per /64. Also: a raw-body route receives the exact bytes (webhook signatures).
import { createHmac } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { rawBodyRoutes } from "../src/http/raw-body.ts";
import { safeNext } from "../src/modules/accounts/google.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
/** Another app on the same database, configured otherwise; `extend` registers routes before ready. */
async function otherApp(env: Record<string, string>, extend?: (app: FastifyInstance) => Promise<void>) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: t.config.DATA_DIR,
    CHAIN_DISABLED: "1",
    SESSION_SECRET: "test-secret-test-secret-test-secret-123",
    ...env,
  });
  // The test app's context with this configuration (its background work runs already).
  const ctx = { ...t.ctx, config };
  const app = await buildApp(ctx, { webDistDir: "/nonexistent" });
  await extend?.(app);
  await app.ready();
  return app;
}
const others: FastifyInstance[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const app of others) await app.close();
  await t.close();
});

const postJson = (app: FastifyInstance, url: string, payload: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "POST", url, payload, headers: { "content-type": "application/json", ...headers } });

describe("item 4: body sizes and error replies are bounded", () => {
  it("refuses an account form over 16 KiB with 413 before reading it", async () => {
    const body = JSON.stringify({ email: "a@example.com", password: "p".repeat(20_000) });
    const res = await postJson(t.app, "/api/v1/auth/login", body);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe("payload_too_large");
  });

  it("reports at most 20 problems, and unknown keys by a sample, in a small reply", async () => {
    const junk = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, 0]));
    const res = await postJson(t.app, "/api/v1/contact", JSON.stringify(junk));
    expect(res.statusCode).toBe(400);
    const details = res.json().error.details as { field: string; message: string }[];
    expect(details.length).toBeLessThanOrEqual(21);
    expect(res.body.length).toBeLessThan(4096);
    expect(JSON.stringify(details)).toContain("more");
  });
});

describe("item 5: no 500 from input; Fastify's errors in the one error shape", () => {
  it("answers 400 to JSON nested 10,000 deep (objects and arrays)", async () => {
    const deepObject = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    const deepArray = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    for (const body of [deepObject, deepArray]) {
      const res = await postJson(t.app, "/api/v1/contact", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe("validation_failed");
    }
  });

  it("answers a bad %-encoding with 400, without echoing the URL", async () => {
    const res = await t.app.inject("/api/v1/nfts/%E0%A4%A-probe");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: "bad_request", message: "The URL is not valid" } });
  });

  it("answers an over-long path parameter with 414, without echoing it", async () => {
    const res = await t.app.inject(`/api/v1/nfts/${"probe".repeat(60)}`);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: { code: "uri_too_long", message: "The URL is too long" } });
    expect(res.body).not.toContain("probe");
  });

  it("answers refused static-file paths in the one error shape", async () => {
    for (const url of ["/media/..%2f..%2fetc%2fpasswd", "/media/.probe", "/media/%2e%2e/probe"]) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(Object.keys(res.json().error).sort()).toEqual(["code", "message"]);
      expect(res.body).not.toContain("probe");
    }
  });

  it("keeps a Google 'next' with characters outside Latin-1 as a valid, percent-encoded path", () => {
    expect(safeNext("/profile/தமிழ்")).toBe(`/profile/${encodeURIComponent("தமிழ்")}`);
    expect(safeNext("/nft/1?q=🎉 x")).toBe("/nft/1?q=%F0%9F%8E%89%20x");
    expect(safeNext("/broken\uD800")).toBe("/");
    // Whatever it returns can be a Location header.
    for (const next of ["/தமிழ்", "/🎉", "/a b", "/é"]) expect(safeNext(next)).toMatch(/^[\x21-\x7e]+$/);
  });
});

describe("item 6: security headers and request ids", () => {
  it("sends a strict CSP, Permissions-Policy and no HSTS over http", async () => {
    const res = await t.app.inject("/api/v1/films");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src-elem 'self'");
    // Only style attributes may be inline (React renders style={…} into the server-rendered HTML;
    // an attribute cannot load or run anything). No inline script or style element is allowed.
    const directives = csp.split(";").map((d) => d.trim());
    const inline = directives.filter((d) => d.includes("unsafe-inline"));
    expect(inline).toEqual(["style-src-attr 'unsafe-inline'"]);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(String(res.headers["permissions-policy"])).toContain("camera=()");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends HSTS when PUBLIC_URL is https", async () => {
    const app = await otherApp({ PUBLIC_URL: "https://diginoor.example" });
    others.push(app);
    const res = await app.inject("/healthz");
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(String(res.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
  });

  it("keeps a short safe X-Request-Id and replaces anything else", async () => {
    const kept = await t.app.inject({ url: "/healthz", headers: { "x-request-id": "lb-7f3a.42_x" } });
    expect(kept.headers["x-request-id"]).toBe("lb-7f3a.42_x");
    for (const given of ["x".repeat(8192), "a b", "id\u00e9", "x".repeat(65)]) {
      const res = await t.app.inject({ url: "/healthz", headers: { "x-request-id": given } });
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("item 7: CSRF compares the full origin", () => {
  it("refuses an http page of the same host when PUBLIC_URL is https", async () => {
    const app = await otherApp({ PUBLIC_URL: "https://diginoor.example" });
    others.push(app);
    const body = JSON.stringify({ email: "fan@example.com" });
    const host = { host: "diginoor.example" };
    const refused = await postJson(app, "/api/v1/newsletter", body, {
      ...host,
      origin: "http://diginoor.example",
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("forbidden");
    const otherPort = await postJson(app, "/api/v1/newsletter", body, {
      ...host,
      origin: "https://diginoor.example:8443",
    });
    expect(otherPort.statusCode).toBe(403);
    const ours = await postJson(app, "/api/v1/newsletter", body, {
      ...host,
      origin: "https://diginoor.example",
    });
    expect(ours.statusCode).toBe(201);
  });
});

describe("item 9: contact and newsletter limits slide and count IPv6 per /64", () => {
  for (const [url, body] of [
    ["/api/v1/contact", { name: "Fan", email: "fan@example.com", message: "Hello" }],
    ["/api/v1/newsletter", { email: "fan64@example.com" }],
  ] as const) {
    it(`${url}: ten addresses of one /64 share one limit`, async () => {
      const prefix = url.endsWith("contact") ? "2001:db8:c0:1" : "2001:db8:ae:1";
      const send = (host: number) =>
        t.app.inject({
          method: "POST",
          url,
          payload: body,
          remoteAddress: `${prefix}::${host.toString(16)}`,
        });
      for (let i = 1; i <= 10; i++) expect((await send(i)).statusCode).toBe(201);
      const eleventh = await send(0xbeef);
      expect(eleventh.statusCode).toBe(429);
      expect(Number(eleventh.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      // Another /64 is another client.
      const next = await t.app.inject({ method: "POST", url, payload: body, remoteAddress: `${prefix}1::1` });
      expect(next.statusCode).toBe(201);
    });
  }
});

describe("raw-body routes (webhook signatures)", () => {
  it("hand the handler the exact bytes received, whatever the content type", async () => {
    const secret = "whsec_test";
    const app = await otherApp({ PUBLIC_URL: "http://localhost:3000" }, (app) =>
      rawBodyRoutes(app, (scope) => {
        scope.post("/api/v1/webhooks/test", { config: { permission: "public" } }, async (req) => {
          const raw = req.body as Buffer;
          const expected = createHmac("sha256", secret).update(raw).digest("hex");
          return {
            isBuffer: Buffer.isBuffer(raw),
            length: raw.length,
            valid: req.headers["x-signature"] === expected,
          };
        });
      }),
    );
    others.push(app);
    // Whitespace and key order a JSON parser would lose: the signature is over these bytes.
    const payload = '{ "b": 1,\n  "a": "é" }\n';
    const signature = createHmac("sha256", secret).update(payload).digest("hex");
    for (const type of ["application/json", "text/plain", "application/x-www-form-urlencoded"]) {
      const res = await app.inject({
        method: "POST",
        url: "/api/v1/webhooks/test",
        payload,
        headers: { "content-type": type, "x-signature": signature, origin: "https://evil.example" },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ isBuffer: true, length: Buffer.byteLength(payload), valid: true });
    }
  });
});
