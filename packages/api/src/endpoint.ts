import type { z } from "zod";
import type { ErrorCode } from "./errors.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One API endpoint as client and server both see it: method, path (OpenAPI style, `{param}`), the
 * request's parts, the success answer and the error codes it can answer besides those every route
 * of its kind can (validation of its inputs, sign-in, rate limits, body size; the server adds those).
 */
export interface Endpoint {
  /** Unique, camelCase: the OpenAPI operationId. */
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tags: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** How the body is sent (default JSON). A multipart body's schema documents its fields. */
  bodyType?: "json" | "multipart";
  /**
   * Success status and body; no schema means no body (e.g. 204). `contentType` (default JSON): the
   * media type of the body, or each it may have (the request chooses, e.g. CSV or PDF).
   */
  success: {
    status: 200 | 201 | 202 | 204 | 302;
    schema?: z.ZodType;
    contentType?: string | readonly string[];
  };
  /** The answer has an ETag, and a request whose If-None-Match names it gets 304 without a body. */
  conditional?: true;
  /** Besides its success status, the endpoint answers 204 without a body in this case. */
  noContent?: string;
  /** Error codes this endpoint itself answers with (each has one status, see errorStatuses). */
  errors?: readonly ErrorCode[];
}

/** Declares an endpoint (identity: keeps the literal types for inference). */
export function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}

/** A path with its `{param}` placeholders filled in (encoded), for clients and tests. */
export function pathOf(e: Pick<Endpoint, "path">, params: Record<string, string> = {}): string {
  return e.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathOf(${e.path}): missing parameter ${name}`);
    return encodeURIComponent(value);
  });
}
