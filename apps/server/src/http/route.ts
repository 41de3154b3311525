import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { z } from "zod";
import { AppError, zodIssues } from "./errors.ts";

type AnySchema = z.ZodType;
type Out<S> = S extends AnySchema ? z.output<S> : undefined;

export interface RouteDefinition<P, Q, B, R extends AnySchema> {
  method: HTTPMethods;
  url: string;
  summary: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Success status (default 200). */
  status?: number;
  response: R;
  /** Set when the route needs a signed-in user (documented in OpenAPI). */
  auth?: boolean;
  /** Extra documented error statuses. */
  errors?: number[];
  /** Disable content-type body parsing (e.g. multipart). */
  bodyLimit?: number;
  handler: (ctx: {
    params: Out<P>;
    query: Out<Q>;
    body: Out<B>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<z.input<R> | undefined> | z.input<R> | undefined;
}

interface OpenApiOperation {
  method: string;
  url: string;
  def: RouteDefinition<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined, AnySchema>;
}

const registry: OpenApiOperation[] = [];

/** Path of the first string holding a NUL character (PostgreSQL text cannot store one). */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const hit = findNul(v, path ? `${path}.${k}` : k);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

function parsePart<S extends AnySchema | undefined>(schema: S, value: unknown, where: string): Out<S> {
  if (!schema) return undefined as Out<S>;
  const nulAt = findNul(value, "");
  if (nulAt !== undefined) {
    throw AppError.validation(where, [
      { field: nulAt || "(root)", message: "must not contain NUL characters" },
    ]);
  }
  const result = schema.safeParse(value ?? (where === "body" ? undefined : {}));
  if (!result.success) throw AppError.validation(where, zodIssues(result.error));
  return result.data as Out<S>;
}

/**
 * Registers a JSON route whose params, query and body are parsed with zod (400 naming the bad
 * field on failure) and which is listed in the OpenAPI document.
 */
export function defineRoute<
  P extends AnySchema | undefined,
  Q extends AnySchema | undefined,
  B extends AnySchema | undefined,
  R extends AnySchema,
>(app: FastifyInstance, def: RouteDefinition<P, Q, B, R>): void {
  if (!registry.some((r) => r.method === def.method && r.url === def.url)) {
    registry.push({ method: String(def.method).toLowerCase(), url: def.url, def: def as never });
  }
  const checkResponses = process.env.NODE_ENV === "test";
  app.route({
    method: def.method,
    url: def.url,
    bodyLimit: def.bodyLimit,
    handler: async (req, reply) => {
      const params = parsePart(def.params as P, req.params, "path parameter");
      const query = parsePart(def.query as Q, req.query, "query parameter");
      const body = parsePart(def.body as B, req.body, "body");
      const result = await def.handler({ params, query, body, req, reply });
      if (reply.sent) return reply;
      reply.code(def.status ?? 200);
      if (result === undefined) return reply.send();
      if (checkResponses) {
        const check = def.response.safeParse(result);
        if (!check.success) {
          throw new Error(
            `Response of ${def.method} ${def.url} does not match its schema: ${check.error.message}`,
          );
        }
      }
      return reply.send(result);
    },
  });
}

const errorResponse = {
  description: "Error",
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
          },
        },
      },
    },
  },
};

function jsonSchema(schema: AnySchema, io: "input" | "output") {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "openapi-3.0" }) as Record<
    string,
    unknown
  >;
}

function queryParameters(schema: AnySchema, location: "query" | "path") {
  const js = jsonSchema(schema, "input") as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: location,
    required: location === "path" || (js.required ?? []).includes(name),
    schema: s,
  }));
}

/** The OpenAPI 3 document of every route registered with defineRoute. */
export function openApiDocument(info: { title: string; version: string; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url, def } of registry) {
    const path = url.replace(/:(\w+)/g, "{$1}");
    const status = String(def.status ?? 200);
    const responses: Record<string, unknown> = {
      [status]: {
        description: "Success",
        content: { "application/json": { schema: jsonSchema(def.response, "output") } },
      },
      "400": errorResponse,
      ...(def.auth ? { "401": errorResponse } : {}),
      ...Object.fromEntries((def.errors ?? []).map((s) => [String(s), errorResponse])),
      "429": errorResponse,
      "500": errorResponse,
    };
    paths[path] ??= {};
    paths[path][method] = {
      summary: def.summary,
      tags: def.tags,
      parameters: [
        ...(def.params ? queryParameters(def.params, "path") : []),
        ...(def.query ? queryParameters(def.query, "query") : []),
      ],
      ...(def.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(def.body, "input") } },
            },
          }
        : {}),
      responses,
      ...(def.auth ? { security: [{ sessionCookie: [] }] } : {}),
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    components: {
      securitySchemes: { sessionCookie: { type: "apiKey", in: "cookie", name: "diginoor_session" } },
    },
    paths,
  };
}
