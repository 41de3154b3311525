import type { Endpoint } from "@diginoor/api/endpoint";
import type { z } from "zod";

/** Error thrown by apiFetch: the server's `{ error: { code, message, details } }`, or status 0 on network failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Field errors from a validation error's details, keyed by field name (first message per field). */
  fieldErrors(): Record<string, string> {
    return fieldErrorsOf(this.details);
  }
}

export interface ApiFetchInit {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/**
 * How requests reach the API: the browser's fetch on the same origin; the server-side renderer
 * (entry-server.tsx) swaps in one that answers in-process with the visitor's own cookie.
 */
let transport: typeof fetch = (input, init) => fetch(input, init);

export function setApiTransport(next: typeof fetch): void {
  transport = next;
}

/**
 * Calls the Diginoor API on the same origin with the session cookie and JSON in and out.
 * Resolves with the parsed body (undefined for 204); throws ApiError otherwise.
 */
export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.body);
  }
  let response: Response;
  try {
    response = await transport(path, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      signal: init.signal,
      credentials: "same-origin",
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", "Network error, please retry");
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const error = (data as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
      ?.error;
    const code = typeof error?.code === "string" ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === "string" && error.message
        ? error.message
        : response.status >= 500
          ? "Something went wrong on our side, please retry"
          : `Request failed (${response.status})`;
    throw new ApiError(response.status, code, message, error?.details);
  }
  return data as T;
}

/**
 * Turns an error's details into `{ field: message }`. Accepts the shapes the server uses:
 * an array of `{ path, message }` issues, or an object of `field: message | message[]`.
 */
export function fieldErrorsOf(details: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!details) return out;
  const issues = Array.isArray(details)
    ? details
    : typeof details === "object" && Array.isArray((details as { issues?: unknown }).issues)
      ? (details as { issues: unknown[] }).issues
      : null;
  if (issues) {
    for (const issue of issues) {
      if (!issue || typeof issue !== "object") continue;
      const { path, field, message } = issue as { path?: unknown; field?: unknown; message?: unknown };
      const key = Array.isArray(path)
        ? path.map(String).join(".")
        : typeof path === "string"
          ? path
          : typeof field === "string"
            ? field
            : "";
      if (key && typeof message === "string" && !(key in out)) out[key] = message;
    }
    return out;
  }
  if (typeof details === "object") {
    const fields = (details as { fields?: unknown }).fields;
    const source = fields && typeof fields === "object" ? fields : details;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      if (typeof value === "string") out[key] = value;
      else if (Array.isArray(value) && typeof value[0] === "string") out[key] = value[0];
    }
  }
  return out;
}

/** Field errors of a failed request (validation_failed details), or {} for other errors. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError ? err.fieldErrors() : {};
}

/** A message people can act on: the server's own message for 4xx, a generic one otherwise. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    if (err.status === 429 && !err.message) return "Too many attempts. Please wait a moment and try again.";
    if (err.status === 0) return "Network error, please check your connection and retry";
    if (err.status >= 400 && err.status < 500 && err.message) return err.message;
  }
  return fallback;
}

// ─── typed calls of packages/api endpoints ──────────────────────────────────────────────────────

/**
 * `"METHOD /path/{param}"` of an endpoint, spelled as packages/api declares it: `callApi` takes the
 * endpoint's type only (`import type`), so the schemas stay out of the web bundles, and a route
 * string that no longer matches its endpoint fails the type check.
 */
export type ApiRoute<E extends Endpoint> = `${E["method"]} ${E["path"]}`;

type Input<S> = S extends z.ZodType ? z.input<S> : never;
export type ApiAnswer<E extends Endpoint> = E["success"]["schema"] extends z.ZodType
  ? z.output<E["success"]["schema"]>
  : undefined;

export type ApiCallInput<E extends Endpoint> = { signal?: AbortSignal } & (E["params"] extends z.ZodType
  ? { params: Input<E["params"]> }
  : { params?: undefined }) &
  (E["query"] extends z.ZodType ? { query?: Input<E["query"]> } : { query?: undefined }) &
  (E["body"] extends z.ZodType ? { body: Input<E["body"]> } : { body?: undefined });

/** The URL of `route` with its `{param}` placeholders filled in (encoded) and `query` appended. */
export function apiUrl(route: string, params?: object, query?: object): string {
  const path = route.slice(route.indexOf(" ") + 1).replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined || value === null) throw new Error(`${route}: missing parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null) search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Calls the endpoint `E` of packages/api: its path parameters, query and body are typed by the
 * endpoint's request schemas and the answer by its success schema (the server validates both).
 *
 *     callApi<typeof walletEndpoints.linkWallet>("POST /api/v1/wallets", { body: { message, signature } })
 */
export function callApi<E extends Endpoint>(
  route: ApiRoute<E>,
  input: ApiCallInput<E>,
): Promise<ApiAnswer<E>> {
  const method = route.slice(0, route.indexOf(" ")) as ApiFetchInit["method"];
  const { params, query, body, signal } = input as {
    params?: object;
    query?: object;
    body?: unknown;
    signal?: AbortSignal;
  };
  return apiFetch<ApiAnswer<E>>(apiUrl(route, params, query), {
    method,
    signal,
    ...(body !== undefined ? { body } : method === "POST" ? { body: {} } : {}),
  });
}
