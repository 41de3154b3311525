import type { Endpoint } from "@diginoor/api/endpoint";
import { type ErrorCode, errorBodySchema, errorStatuses } from "@diginoor/api/errors";
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AuthUser, Permission, RateLimit } from "./access.ts";
import { markDocumentationOnly } from "./validation.ts";

type In<S> = S extends z.ZodType ? z.output<S> : undefined;
type Reply<E extends Endpoint> = E["success"]["schema"] extends z.ZodType
  ? z.input<E["success"]["schema"]>
  : undefined;

export interface RouteOptions<E extends Endpoint> {
  permission: Permission;
  rateLimits?: readonly RateLimit[];
  /** Largest accepted body in bytes (default JSON_BODY_LIMIT for JSON bodies); larger ones get 413 unread. */
  bodyLimit?: number;
  handler: (input: {
    params: In<E["params"]>;
    query: In<E["query"]>;
    body: In<E["body"]>;
    /** The signed-in user (set when permission is not public). */
    user: AuthUser | null;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<Reply<E> | undefined> | Reply<E> | undefined;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Default limit of a JSON body: every form of the API is a few hundred bytes, so anything this big
 * is refused (413) before it is parsed or validated (issue 8 item 4: a 1 MB body of unknown keys
 * cost 300 ms of event loop).
 */
export const JSON_BODY_LIMIT = 16 * 1024;

const descriptions: Record<number, string> = {
  400: "The request is not valid (the message names the first bad field)",
  401: "Not signed in",
  403: "Not allowed (or a cross-site request)",
  404: "Not found",
  410: "No longer available",
  409: "Conflicts with the current state",
  408: "The request did not arrive in time",
  413: "The body is too large",
  414: "A path parameter is too long",
  415: "Unsupported content type",
  429: "Too many requests (Retry-After says when to try again)",
  431: "The request's headers are too large",
  500: "Unexpected server error (details are logged, never sent)",
  503: "A service the server needs is unavailable",
};
/** The one error shape, a named component of the OpenAPI document. */
const apiError = errorBodySchema.meta({ id: "ApiError" });
function errorResponse(status: number) {
  return {
    description: descriptions[status] ?? "Error",
    content: { "application/json": { schema: apiError } },
  };
}

/** The codes every operation can answer whatever it declares (a slow request, the database down). */
const ALWAYS: readonly ErrorCode[] = ["request_timeout", "headers_too_large", "internal", "unavailable"];

/**
 * Every error code an operation can answer: its own (`errors` in packages/api), plus what its shape
 * implies (inputs → bad_request and validation_failed, a body → payload_too_large and
 * unsupported_media_type, sign-in → unauthorized, admin or a state change → forbidden, rate limits →
 * rate_limited) and what any request can meet. In tests an error answer with any other code fails
 * (error-handler.ts), so the declared list, and the OpenAPI document made from it, stay true.
 */
export function declaredErrorCodes(
  e: Pick<Endpoint, "method" | "params" | "query" | "body" | "errors">,
  o: { permission: Permission; rateLimited: boolean },
): ReadonlySet<ErrorCode> {
  const codes = new Set<ErrorCode>([...(e.errors ?? []), ...ALWAYS]);
  if (e.params || e.query || e.body) {
    codes.add("bad_request");
    codes.add("validation_failed");
  }
  if (e.params) codes.add("uri_too_long");
  if (e.body) {
    codes.add("payload_too_large");
    codes.add("unsupported_media_type");
  }
  if (o.permission !== "public") codes.add("unauthorized");
  if (o.permission === "admin" || o.permission === "studio" || STATE_CHANGING.has(e.method))
    codes.add("forbidden");
  if (o.rateLimited) codes.add("rate_limited");
  return codes;
}

/** Every status an operation can answer: those of its declared error codes. */
export function errorStatusesOf(
  e: Pick<Endpoint, "method" | "params" | "query" | "body" | "errors">,
  o: { permission: Permission; rateLimited: boolean },
): number[] {
  return [...new Set([...declaredErrorCodes(e, o)].map((c) => errorStatuses[c]))].sort();
}

/** The Fastify schema of an endpoint: validation, serialisation and its OpenAPI operation. */
export function routeSchema(e: Endpoint, o: { permission: Permission; rateLimited: boolean }): FastifySchema {
  const { status, schema, contentType } = e.success;
  const success = schema
    ? contentType
      ? {
          description: "Success",
          content: Object.fromEntries([contentType].flat().map((type) => [type, { schema }])),
        }
      : schema.describe(schema.description ?? "Success")
    : z.undefined().describe(status === 302 ? "Redirect" : "No content");
  if (e.body && e.bodyType === "multipart") markDocumentationOnly(e.body);
  return {
    operationId: e.operationId,
    summary: e.summary,
    tags: [...e.tags],
    ...(e.params ? { params: e.params } : {}),
    ...(e.query ? { querystring: e.query } : {}),
    ...(e.body ? { body: e.body } : {}),
    ...(e.bodyType === "multipart" ? { consumes: ["multipart/form-data"] } : {}),
    security: o.permission === "public" ? [] : [{ sessionCookie: [] }],
    response: {
      [status]: success,
      ...(e.conditional
        ? { 304: z.undefined().describe("Not modified: If-None-Match named the current ETag") }
        : {}),
      ...(e.noContent && status !== 204 ? { 204: z.undefined().describe(e.noContent) } : {}),
      ...Object.fromEntries(errorStatusesOf(e, o).map((s) => [s, errorResponse(s)])),
    },
  } as FastifySchema;
}

/**
 * Registers an endpoint of packages/api: its schemas validate the request (400 in the one error
 * shape), its permission and rate limits are enforced by the access hooks, and Swagger lists it.
 */
export function route<E extends Endpoint>(app: FastifyInstance, e: E, opts: RouteOptions<E>): void {
  const status = e.success.status;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: e.method as HTTPMethods,
    url: e.path.replace(/\{(\w+)\}/g, ":$1"),
    bodyLimit: opts.bodyLimit ?? (e.body && e.bodyType !== "multipart" ? JSON_BODY_LIMIT : undefined),
    schema: routeSchema(e, { permission: opts.permission, rateLimited: !!opts.rateLimits?.length }),
    config: {
      permission: opts.permission,
      rateLimits: opts.rateLimits,
      errorCodes: declaredErrorCodes(e, {
        permission: opts.permission,
        rateLimited: !!opts.rateLimits?.length,
      }),
    },
    handler: async (req, reply) => {
      const result = await opts.handler({
        params: req.params as In<E["params"]>,
        query: req.query as In<E["query"]>,
        body: req.body as In<E["body"]>,
        user: req.user,
        req,
        reply,
      });
      // A handler that sent its own answer (a redirect, a stream) returns the reply. An async handler
      // returning it resolves through the reply's own `then`, when the answer has ended, with
      // undefined: a stream whose client went away has sent its headers but never ended, and must
      // not be answered a second time (ERR_HTTP_HEADERS_SENT and a 500 in the log).
      if (reply.sent || reply.raw.headersSent || reply.raw.destroyed || (result as unknown) === reply)
        return reply;
      reply.code(status);
      if (result === undefined) return reply.send();
      return reply.send(result);
    },
  });
}
