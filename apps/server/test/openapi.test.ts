// The served OpenAPI document is the checked-in docs/openapi.json (regenerate it with
// `npm run openapi:write`), and it says what every route can answer.
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import type { ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_CONFIG, OPENAPI_FILE, formatOpenApi } from "../scripts/openapi-file.ts";
import { compileIn, type OpenApiDoc, strictAjv, strictProblems } from "../scripts/openapi-strict.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { in: string }[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: unknown }>;
}
type Doc = OpenApiDoc & { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp({ ...OPENAPI_CONFIG });
  doc = (await t.app.inject("/api/openapi.json")).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );

describe("OpenAPI document", () => {
  it("is the checked-in docs/openapi.json (run `npm run openapi:write` after changing a route)", () => {
    expect(formatOpenApi(doc)).toBe(fs.readFileSync(OPENAPI_FILE, "utf8"));
  });

  it("lists every route: accounts, Google sign-in, profile, catalogue, chain, health, mailbox, media", () => {
    for (const path of [
      "/api/v1/auth/signup",
      "/api/v1/auth/google/start",
      "/api/v1/auth/google/callback",
      "/api/v1/me",
      "/api/v1/me/avatar",
      "/api/v1/nfts/{id}",
      "/api/v1/metadata/{tokenId}",
      "/healthz",
      "/readyz",
      "/dev/mailbox/api",
      "/media/{path}",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it("gives each operation a unique operationId, and public ones an empty security list", () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths["/api/v1/nfts"]?.get?.security).toEqual([]);
    expect(doc.paths["/api/v1/me"]?.get?.security).toEqual([{ sessionCookie: [] }]);
  });

  it("documents the statuses a route answers: errors, 204 without a body, body limits, rate limits", () => {
    const contact = doc.paths["/api/v1/contact"]?.post as Operation;
    expect(Object.keys(contact.responses)).toEqual(
      expect.arrayContaining(["201", "400", "403", "413", "415", "429", "500"]),
    );
    expect(Object.keys(doc.paths["/api/v1/me"]?.patch?.responses ?? {})).toContain("401");
    const logout = doc.paths["/api/v1/auth/logout"]?.post as Operation;
    expect(logout.responses["204"]).toBeDefined();
    expect(logout.responses["204"]?.content).toBeUndefined();
    expect(JSON.stringify(doc.paths["/api/v1/newsletter"]?.post?.requestBody)).toContain('"format":"email"');
    const upload = doc.paths["/api/v1/me/avatar"]?.post as Operation;
    expect(Object.keys(upload.requestBody?.content ?? {})).toEqual(["multipart/form-data"]);
  });
});

describe("OpenAPI document, read strictly (issue 23 point 14)", () => {
  it("passes the strict check of `npm run lint`: null in nullable enums, tags declared, 408 and 431, ajv strict", () => {
    expect(strictProblems(doc)).toEqual([]);
    const nullableEnums = JSON.stringify(doc).match(/"nullable":true,"type":"string","enum":\[[^\]]*null\]/g);
    expect(nullableEnums?.length).toBeGreaterThanOrEqual(12);
  });

  it("documents 414 on operations with path parameters, in the one error shape", () => {
    for (const { path, method, op } of operations()) {
      if (!op.parameters?.some((p) => p.in === "path") || !path.startsWith("/api/")) continue;
      expect(Object.keys(op.responses), `${method} ${path}`).toContain("414");
      expect(JSON.stringify(op.responses["414"]), `${method} ${path}`).toContain(
        "#/components/schemas/ApiError",
      );
    }
  });

  describe("real answers validate against it (ajv, strict mode)", () => {
    const ajv = strictAjv();
    const compiled = new Map<string, ValidateFunction>();
    /** The validator of an operation's answer with `status` (components referenced as definitions). */
    function validatorOf(path: string, method: string, status: number): ValidateFunction {
      const key = `${method} ${path} ${status}`;
      const known = compiled.get(key);
      if (known) return known;
      const response = doc.paths[path]?.[method]?.responses[String(status)] as
        | { content?: Record<string, { schema: unknown }> }
        | undefined;
      if (!response) throw new Error(`${key}: not documented`);
      const validate = compileIn(ajv, doc, response.content?.["application/json"]?.schema ?? {});
      compiled.set(key, validate);
      return validate;
    }
    /** The documented path template a URL matches. */
    function templateOf(url: string): string {
      const pathname = url.split("?")[0] ?? url;
      const found = Object.keys(doc.paths).find((p) =>
        new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname),
      );
      if (!found) throw new Error(`${url}: no documented path`);
      return found;
    }
    function expectValid(url: string, method: string, status: number, body: unknown) {
      const validate = validatorOf(templateOf(url), method, status);
      expect(validate(body) ? [] : validate.errors, `${method.toUpperCase()} ${url} → ${status}`).toEqual([]);
    }

    it("every read a visitor, a user and an administrator make, and the errors they meet", async () => {
      const user = await newSignedInUser(t.ctx);
      const admin = await newSignedInUser(t.ctx, { role: "admin" });
      const reads: [string, string | undefined, number][] = [
        ["/healthz", undefined, 200],
        ["/api/v1/session", undefined, 200],
        ["/api/v1/session", user.cookie, 200],
        ["/api/v1/checkout/options", undefined, 200],
        ["/api/v1/chain", undefined, 200],
        ["/api/v1/nfts", undefined, 200],
        ["/api/v1/films", undefined, 200],
        ["/api/v1/posts", undefined, 200],
        ["/api/v1/lotteries", undefined, 200],
        ["/api/v1/me", user.cookie, 200],
        ["/api/v1/orders", user.cookie, 200],
        ["/api/v1/wallets", user.cookie, 200],
        ["/api/v1/notifications", user.cookie, 200],
        ["/api/v1/admin/me", admin.cookie, 200],
        ["/api/v1/admin/orders", admin.cookie, 200],
        ["/api/v1/admin/users", admin.cookie, 200],
        ["/api/v1/me", undefined, 401],
        ["/api/v1/admin/users", user.cookie, 403],
        ["/api/v1/nfts/no-such-nft", undefined, 404],
        ["/api/v1/nfts?limit=abc", undefined, 400],
        [`/api/v1/nfts/${"x".repeat(300)}`, undefined, 414],
      ];
      for (const [url, cookie, status] of reads) {
        const res = await t.app.inject({ url, headers: cookie ? { cookie } : {} });
        expect(res.statusCode, `GET ${url}: ${res.body.slice(0, 200)}`).toBe(status);
        expectValid(url, "get", status, res.json());
      }
      // The answers that carried the null a strict client refused: a nullable enum holding null.
      const options = (await t.app.inject("/api/v1/checkout/options")).json();
      expect([options.card, options.rupees]).toContain(null);
    });

    it("answers over-large headers with 431 in the one error shape, as documented", async () => {
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = t.app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => {
          socket.write(
            `GET /api/v1/nfts HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
          );
        });
        let received = "";
        socket.on("data", (d) => {
          received += d.toString();
        });
        socket.on("close", () => resolve(received));
        socket.on("error", reject);
      });
      const [head, body] = answer.split("\r\n\r\n") as [string, string];
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head.toLowerCase()).toContain("content-type: application/json");
      const json = JSON.parse(body);
      expect(json).toEqual({
        error: { code: "headers_too_large", message: "The request's headers are too large" },
      });
      expectValid("/api/v1/nfts", "get", 431, json);
    });
  });
});
