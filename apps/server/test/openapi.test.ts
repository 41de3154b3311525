// The served OpenAPI document is the checked-in docs/openapi.json (regenerate it with
// `npm run openapi:write`), and it says what every route can answer.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_CONFIG, OPENAPI_FILE, formatOpenApi } from "../scripts/openapi-file.ts";
import { createTestApp, type TestApp } from "./harness.ts";

interface Operation {
  operationId?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: unknown }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

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
