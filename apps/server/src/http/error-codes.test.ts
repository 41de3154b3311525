import { endpoint } from "@diginoor/api/endpoint";
import type { ErrorCode } from "@diginoor/api/errors";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { installErrorHandler } from "./error-handler.ts";
import { AppError } from "./errors.ts";
import { declaredErrorCodes, errorStatusesOf, route } from "./route.ts";
import { serializerCompiler, validatorCompiler } from "./validation.ts";

/**
 * Issue 21 point 4: an error answer must carry a code its endpoint declares. In tests the error
 * handler turns any other into a 500 that names it (so the test that meets it fails); in production
 * the answer goes out unchanged.
 */
const probe = endpoint({
  operationId: "probeThing",
  method: "POST",
  path: "/probe/{id}",
  summary: "test endpoint",
  tags: ["test"],
  params: z.object({ id: z.string() }),
  success: { status: 200, schema: z.object({ ok: z.literal(true) }) },
  errors: ["not_found"],
});

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function appWith(mode: "fail" | "allow") {
  const app = Fastify();
  apps.push(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(true));
  installErrorHandler(app, { undeclaredErrorCodes: mode });
  route(app, probe, {
    permission: "public",
    handler: ({ params }) => {
      if (params.id === "ok") return { ok: true as const };
      throw new AppError(params.id as ErrorCode, `thrown ${params.id}`);
    },
  });
  await app.ready();
  return app;
}

describe("declared error codes", () => {
  it("in tests, an undeclared code becomes a 500 naming it; declared and implied codes pass", async () => {
    const app = await appWith("fail");
    const post = (id: string) => app.inject({ method: "POST", url: `/probe/${id}` });

    const undeclared = await post("conflict");
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.json().error.code).toBe("internal");
    expect(undeclared.json().error.message).toContain(
      'POST /probe/:id answered error code "conflict" (409), which its endpoint does not declare',
    );
    // Declared by the endpoint, implied by its shape (a state change may be forbidden), or possible
    // for any request (the database down): answered as thrown.
    for (const [code, status] of [
      ["not_found", 404],
      ["forbidden", 403],
      ["validation_failed", 400],
      ["unavailable", 503],
    ] as const) {
      const res = await post(code);
      expect(res.statusCode, code).toBe(status);
      expect(res.json().error).toEqual({ code, message: `thrown ${code}` });
    }
    expect((await post("ok")).statusCode).toBe(200);
  });

  it("in production the answer goes out as thrown", async () => {
    const app = await appWith("allow");
    const res = await app.inject({ method: "POST", url: "/probe/conflict" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: "conflict", message: "thrown conflict" });
  });

  it("the OpenAPI statuses are those of the declared codes", () => {
    const o = { permission: "signed-in" as const, rateLimited: true };
    const codes = declaredErrorCodes(probe, o);
    for (const c of ["not_found", "unauthorized", "forbidden", "rate_limited", "uri_too_long", "unavailable"])
      expect(codes.has(c as ErrorCode), c).toBe(true);
    expect(codes.has("conflict")).toBe(false);
    expect(codes.has("payload_too_large")).toBe(false); // no body
    expect(errorStatusesOf(probe, o)).toEqual(
      ["400", "401", "403", "404", "408", "414", "429", "431", "500", "503"].map(Number),
    );
  });
});
