import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, envSchema, loadConfig } from "../src/config.ts";
import { hitRateLimit } from "../src/lib/rate-limit.ts";
import { createTestApp, type TestApp } from "./harness.ts";

describe("configuration", () => {
  it("names every bad variable at once", () => {
    try {
      loadConfig({ PORT: "abc", DATABASE_URL: "mysql://x", SMTP_URL: "nope" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).toContain("PORT");
      expect(msg).toContain("DATABASE_URL");
      expect(msg).toContain("SMTP_URL");
    }
  });
  it("has working defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.PUBLIC_URL).toBe("http://localhost:3000");
  });
  it("documents every variable in .env.example, and its values are valid", () => {
    const text = fs.readFileSync(new URL("../../../.env.example", import.meta.url), "utf8");
    const documented = new Set([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const known = Object.keys(envSchema.in.shape);
    expect(known.filter((k) => !documented.has(k))).toEqual([]);
    const active = Object.fromEntries(
      [...text.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    expect(() => loadConfig(active)).not.toThrow();
  });

  it("requires a session secret in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET/);
  });
});

describe("platform routes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers health and readiness", async () => {
    expect((await t.app.inject("/healthz")).json()).toEqual({ status: "ok" });
    expect((await t.app.inject("/readyz")).json()).toEqual({ status: "ready" });
  });

  it("answers unknown API paths with the JSON error shape", async () => {
    const res = await t.app.inject("/api/v1/nope");
    expect(res.statusCode).toBe(404);
    // The one error shape; the path is not echoed back (issue 8 item 5).
    expect(res.json()).toEqual({ error: { code: "not_found", message: "No such API route" } });
  });

  it("refuses cross-origin state changes", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/anything",
      headers: { origin: "https://evil.example" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("forbidden");
  });

  it("serves an OpenAPI document and a docs page", async () => {
    const doc = (await t.app.inject("/api/openapi.json")).json();
    expect(doc.openapi).toBe("3.0.3");
    const page = await t.app.inject("/api/docs");
    expect(page.headers["content-type"]).toContain("text/html");
  });

  it("shares rate-limit counters through the database", async () => {
    // A fixed window of a day: with one of a minute, four calls on a loaded PostgreSQL once straddled
    // the minute's boundary, and the fourth started a new window instead of being refused.
    const rule = { name: "t", limit: 3, windowSeconds: 86_400 };
    for (let i = 0; i < 3; i++) await hitRateLimit(t.ctx.rateLimiter, rule, "a");
    await expect(hitRateLimit(t.ctx.rateLimiter, rule, "a")).rejects.toMatchObject({ status: 429 });
    await expect(hitRateLimit(t.ctx.rateLimiter, rule, "b")).resolves.toBeUndefined();
  });
});

describe("NUL characters", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("are refused with 400 naming the field, in bodies and query strings of every route", async () => {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: "fan@example.com", password: "secret\u0000secret" },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().error.details).toEqual([
      { field: "password", message: "must not contain NUL characters" },
    ]);
    const list = await t.app.inject("/api/v1/nfts?tier=rare&q=ka%00bali");
    expect(list.statusCode).toBe(400);
    expect(list.json().error.details[0].field).toBe("q");
  });
});

describe("web app pages", () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-web-"));
  beforeAll(async () => {
    fs.writeFileSync(
      path.join(dist, "index.html"),
      "<!doctype html><title>Diginoor</title><div id=root></div>",
    );
    t = await createTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("serves the app with 200 for its pages, in any letter case and encoding", async () => {
    // (Film pages and NFT ids are 404 while the catalogue has no such film or NFT: see seo.test.ts.)
    for (const url of ["/", "/Contact", "/how%20it%20works", "/marketplace?tier=rare"]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain("<div id=root>");
    }
  });

  it("serves the app's 404 page with status 404 for unknown paths and ids, and JSON 404s under /api", async () => {
    for (const url of ["/no-such-page", "/nftdetail/abc123"]) {
      const page = await t.app.inject(url);
      expect(page.statusCode, url).toBe(404);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).toContain("<div id=root>");
    }
    const api = await t.app.inject("/api/v1/no-such-thing");
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe("not_found");
  });
});

describe("client address behind proxies", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY says so, so clients cannot dodge per-address limits", async () => {
    const t = await createTestApp();
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/v1/newsletter",
          headers: { "x-forwarded-for": `198.51.100.${i}` },
          payload: { email: `fan${i}@example.com` },
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
      expect(codes[10]).toBe(429);
    } finally {
      await t.close();
    }
  });

  it("with TRUST_PROXY set to the proxy keys limits on the address it appended, not one the client made up", async () => {
    const t = await createTestApp({ TRUST_PROXY: "loopback" });
    const post = (xff: string, i: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/newsletter",
        headers: { "x-forwarded-for": xff },
        payload: { email: `reader${i}@example.com` },
      });
    try {
      // Made-up left-hand entries, one real client (the entry the proxy appended): limited.
      const same: number[] = [];
      for (let i = 0; i < 11; i++) same.push((await post(`203.0.113.${i}, 198.51.100.7`, i)).statusCode);
      expect(same[10]).toBe(429);
      // Different real clients behind the proxy each get their own allowance.
      for (let i = 0; i < 11; i++)
        expect((await post(`198.51.100.${100 + i}`, 100 + i)).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
