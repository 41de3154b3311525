import type { FastifySchemaCompiler, FastifySerializerCompiler } from "fastify";
import type { z } from "zod";
import { AppError, zodIssues } from "./errors.ts";

/** Request JSON nested deeper than this is refused (400) before any schema looks at it. */
export const MAX_INPUT_DEPTH = 64;

/** Schemas that only document a request part (a multipart body is read by its handler). */
const documentationOnly = new WeakSet<object>();
export function markDocumentationOnly(schema: z.ZodType): void {
  documentationOnly.add(schema);
}

type Problem = { field: string; message: string };

/**
 * The first string holding a NUL character (PostgreSQL text cannot store one), or a value nested
 * deeper than MAX_INPUT_DEPTH. Iterative, so no input can exhaust the stack.
 */
export function inputProblem(value: unknown): Problem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  while (stack.length) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const v = item.value;
    if (typeof v === "string") {
      if (v.includes("\u0000"))
        return { field: item.path || "(root)", message: "must not contain NUL characters" };
    } else if (v && typeof v === "object") {
      if (item.depth >= MAX_INPUT_DEPTH) {
        return {
          field: item.path || "(root)",
          message: `is nested more than ${MAX_INPUT_DEPTH} levels deep`,
        };
      }
      // Reversed, so the first key is looked at first (the problem reported is the first one).
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        stack.push({ value: child, path: item.path ? `${item.path}.${k}` : k, depth: item.depth + 1 });
      }
    }
  }
  return undefined;
}

const partNames: Record<string, string> = {
  body: "body",
  querystring: "query parameter",
  params: "path parameter",
  headers: "header",
};

/**
 * Fastify's validator for zod schemas: NUL characters and over-deep nesting first, then the schema.
 * Failures are the one error shape: 400 validation_failed naming the part and the first bad field.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  if (documentationOnly.has(schema)) return () => true;
  const where = partNames[httpPart ?? "body"] ?? "request";
  return (data: unknown) => {
    const problem = inputProblem(data);
    if (problem) return { error: AppError.validation(where, [problem]) };
    const result = schema.safeParse(data ?? (httpPart === "body" ? undefined : {}));
    if (!result.success) return { error: AppError.validation(where, zodIssues(result.error)) };
    return { value: result.data };
  };
};

/**
 * Responses are sent as JSON. In tests (checkResponses) a success body is first checked against its
 * schema, so a route cannot drift from its documented shape unnoticed.
 */
export function serializerCompiler(checkResponses: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) =>
    (data) => {
      if (checkResponses && Number(httpStatus) < 400 && typeof schema?.safeParse === "function") {
        const check = schema.safeParse(data);
        if (!check.success) {
          throw new Error(`Response of ${method} ${url} does not match its schema: ${check.error.message}`);
        }
      }
      return JSON.stringify(data);
    };
}
