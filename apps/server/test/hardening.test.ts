// Issue 8: (1) the dev mailbox only where it is safe, an https PUBLIC_URL refused in development;
// (2) production needs SMTP; (3) no secrets from URLs in the log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { redactUrl } from "../src/http/logging.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { bootstrap } from "../src/bootstrap.ts";

const production = {
  NODE_ENV: "production",
  SESSION_SECRET: "prod-secret-prod-secret-prod-secret-123",
  PUBLIC_URL: "https://diginoor.example",
  SMTP_URL: "smtp://mail.example:587",
};

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("dev mailbox setting", () => {
  it("is on, for this machine only, with a loopback PUBLIC_URL outside production", () => {
    expect(loadConfig({}).devMailbox).toBe("loopback");
    expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:4000" }).devMailbox).toBe("loopback");
    expect(loadConfig({ PUBLIC_URL: "http://[::1]:4000" }).devMailbox).toBe("loopback");
    expect(loadConfig({ PUBLIC_URL: "http://app.localhost:4000" }).devMailbox).toBe("loopback");
  });

  it("is off for any other address unless DEV_MAILBOX=true says so", () => {
    expect(loadConfig({ PUBLIC_URL: "http://diginoor.lan:3000" }).devMailbox).toBe("off");
    expect(loadConfig({ PUBLIC_URL: "http://192.168.1.10:3000" }).devMailbox).toBe("off");
    expect(loadConfig({ PUBLIC_URL: "http://localhost.evil.example" }).devMailbox).toBe("off");
    expect(loadConfig({ PUBLIC_URL: "http://diginoor.lan:3000", DEV_MAILBOX: "true" }).devMailbox).toBe(
      "any",
    );
    expect(loadConfig({ DEV_MAILBOX: "false" }).devMailbox).toBe("off");
  });

  it("is never on in production, and DEV_MAILBOX=true there is a configuration error", () => {
    expect(loadConfig(production).devMailbox).toBe("off");
    expect(loadConfig({ ...production, PUBLIC_URL: "http://localhost:3000" }).devMailbox).toBe("off");
    expect(configError({ ...production, DEV_MAILBOX: "true" })).toMatch(/DEV_MAILBOX: must not be true/);
  });

  it("refuses an https PUBLIC_URL in development mode, naming the variable", () => {
    expect(configError({ PUBLIC_URL: "https://diginoor.example" })).toMatch(
      /PUBLIC_URL: https:\/\/diginoor\.example is https.*set NODE_ENV=production/,
    );
    expect(configError({ NODE_ENV: "development", PUBLIC_URL: "https://localhost:3000" })).toMatch(
      /PUBLIC_URL/,
    );
  });

  it("requires SMTP_URL in production, listed with the other missing variables", () => {
    const { SMTP_URL: _, ...withoutSmtp } = production;
    expect(configError(withoutSmtp)).toMatch(/SMTP_URL: is required when NODE_ENV=production/);
    const msg = configError({ NODE_ENV: "production" });
    expect(msg).toContain("SESSION_SECRET");
    expect(msg).toContain("SMTP_URL");
    expect(() => loadConfig(production)).not.toThrow();
  });
});

describe("served routes", () => {
  let local: TestApp;
  // Two more servers on the same database, configured otherwise (one PGlite boot for the file).
  let lan: FastifyInstance;
  let open: FastifyInstance;
  let logged: FastifyInstance;
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  beforeAll(async () => {
    local = await createTestApp({ TRUST_PROXY: "true" });
    const other = async (env: Record<string, string>, stream?: NodeJS.WritableStream) => {
      const config = loadConfig({
        NODE_ENV: "test",
        DATA_DIR: local.config.DATA_DIR,
        CHAIN_DISABLED: "1",
        SESSION_SECRET: "test-secret-test-secret-test-secret-123",
        ...env,
      });
      // Each app gets its own context (jobs, pub/sub): the test app's job queue has started already.
      const ctx = await bootstrap(config, {
        database: local.ctx.database,
        chain: null,
        pollingIntervalSeconds: 0.5,
      });
      const app = await buildApp(ctx, { webDistDir: "/nonexistent", logStream: stream });
      app.addHook("onClose", () => ctx.close());
      await app.ready();
      await ctx.startWork(config.ROLE);
      return app;
    };
    logged = await other({ PUBLIC_URL: "http://localhost:3000", LOG_LEVEL: "info" }, logStream);
    lan = await other({ PUBLIC_URL: "http://diginoor.lan:3000", DEV_MAILBOX: "auto" });
    open = await other({ PUBLIC_URL: "http://diginoor.lan:3000", DEV_MAILBOX: "true" });
  });
  afterAll(async () => {
    await logged?.close();
    await lan?.close();
    await open?.close();
    await local?.close();
  });

  it("with a loopback PUBLIC_URL answers clients on this machine only", async () => {
    for (const url of ["/dev/mailbox/api", "/dev/mailbox"]) {
      expect((await local.app.inject({ url, remoteAddress: "127.0.0.1" })).statusCode).toBe(200);
      expect((await local.app.inject({ url, remoteAddress: "::1" })).statusCode).toBe(200);
      const far = await local.app.inject({ url, remoteAddress: "192.168.1.20" });
      expect(far.statusCode).toBe(403);
      expect(far.json().error.code).toBe("forbidden");
      // A forwarded-for header (even from a trusted proxy) does not make a client local.
      const forwarded = await local.app.inject({
        url,
        remoteAddress: "10.1.2.3",
        headers: { "x-forwarded-for": "127.0.0.1" },
      });
      expect(forwarded.statusCode).toBe(403);
    }
  });

  it("does not exist with another PUBLIC_URL, and is open to all with DEV_MAILBOX=true", async () => {
    const gone = await lan.inject({ url: "/dev/mailbox/api", remoteAddress: "127.0.0.1" });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe("not_found");
    const far = await open.inject({ url: "/dev/mailbox/api", remoteAddress: "192.168.1.20" });
    expect(far.statusCode).toBe(200);
    expect(far.json()).toEqual({ messages: [] });
  });

  it("logs requests without the secrets in their URLs (reset/verify tokens, OAuth code and state)", async () => {
    const urls = [
      "/resetpass?token=SECRETreset1",
      "/verify-email?token=SECRETverify2&next=%2Fprofile",
      "/api/v1/auth/google/callback?code=SECRETcode3&state=SECRETstate4",
      "/api/v1/nfts?q=rain&Access_Token=SECRETbearer5&sort=title",
    ];
    for (const url of urls) await logged.inject({ url });
    await logged.close();
    const entries = logLines.map((l) => JSON.parse(l) as { req?: { url: string } });
    const loggedUrls = entries.flatMap((e) => (e.req ? [e.req.url] : []));
    expect(loggedUrls).toEqual([
      "/resetpass?token=[REDACTED]",
      "/verify-email?token=[REDACTED]&next=%2Fprofile",
      "/api/v1/auth/google/callback?code=[REDACTED]&state=[REDACTED]",
      "/api/v1/nfts?q=rain&Access_Token=[REDACTED]&sort=title",
    ]);
    expect(logLines.join("\n")).not.toContain("SECRET");
  });
});

describe("redactUrl", () => {
  it("redacts secret-named parameters and leaves everything else as written", () => {
    expect(redactUrl("/a/b")).toBe("/a/b");
    expect(redactUrl("/x?q=a%20b&page=2")).toBe("/x?q=a%20b&page=2");
    expect(redactUrl("/x?reset_token=1&password=2&sig=3&api-key=4&author=me")).toBe(
      "/x?reset_token=[REDACTED]&password=[REDACTED]&sig=[REDACTED]&api-key=[REDACTED]&author=me",
    );
    // Encoded names and malformed encodings do not slip through.
    expect(redactUrl("/x?%74oken=1&%E0%A4%A=2&token")).toBe("/x?%74oken=[REDACTED]&%E0%A4%A=2&token");
  });
});
