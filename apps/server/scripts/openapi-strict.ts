// The OpenAPI document read as a strict client reads it (issue 23 point 14): what `npm run lint`
// checks of docs/openapi.json (check-openapi.ts) and what apps/server/test/openapi.test.ts validates
// real answers with.
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

interface Operation {
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  parameters?: { name: string; in: string; schema?: unknown }[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string }[];
  components: { schemas: Record<string, unknown> };
}

/**
 * OpenAPI 3.0's one difference from JSON Schema draft 7 that matters here: exclusive bounds are
 * booleans beside minimum / maximum (draft 7 makes them the bound itself). Everything else, `nullable`
 * included, ajv reads as it is.
 */
export function draft7Bounds<T>(node: T): T {
  if (Array.isArray(node)) return node.map(draft7Bounds) as T;
  if (!node || typeof node !== "object") return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, draft7Bounds(v)]));
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof o[exclusive] !== "boolean") continue;
    if (o[exclusive]) {
      o[exclusive] = o[bound];
      delete o[bound];
    } else delete o[exclusive];
  }
  return o as T;
}

/** Every schema object in the document (anything with `type` or `enum`), with where it is. */
function schemasIn(node: unknown, at = "#"): { at: string; schema: Record<string, unknown> }[] {
  if (!node || typeof node !== "object") return [];
  const here = "enum" in node || "type" in node ? [{ at, schema: node as Record<string, unknown> }] : [];
  return [...here, ...Object.entries(node).flatMap(([k, v]) => schemasIn(v, `${at}/${k}`))];
}

const operationsOf = (doc: OpenApiDoc) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );

/** ajv in strict mode, with the formats an OpenAPI 3.0 document may name. */
export function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  // OpenAPI's own formats and annotations, which constrain nothing ajv checks.
  for (const format of ["binary", "password"]) ajv.addFormat(format, true);
  ajv.addKeyword({ keyword: "example" });
  return ajv;
}

/** A validator of `schema` (a schema of `doc`, its component references resolved). */
export function compileIn(ajv: Ajv, doc: OpenApiDoc, schema: unknown): ValidateFunction {
  const text = JSON.stringify({ ...(schema as object), definitions: doc.components.schemas });
  return ajv.compile(draft7Bounds(JSON.parse(text.replaceAll("#/components/schemas/", "#/definitions/"))));
}

/**
 * What a strict client would trip over: a nullable enum without null, a tag used but not declared,
 * an operation that does not document 408 and 431 (any request can meet them), or a request or
 * response schema ajv refuses to compile in strict mode.
 */
export function strictProblems(doc: OpenApiDoc): string[] {
  const problems: string[] = [];
  for (const { at, schema } of schemasIn(doc)) {
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
      problems.push(`${at}: nullable, but its enum does not list null`);
  }
  const declared = new Set((doc.tags ?? []).map((t) => t.name));
  const ajv = strictAjv();
  for (const { path, method, op } of operationsOf(doc)) {
    const where = `${method.toUpperCase()} ${path}`;
    for (const tag of op.tags ?? [])
      if (!declared.has(tag)) problems.push(`${where}: tag "${tag}" is not declared`);
    for (const status of ["408", "431"])
      if (!op.responses[status]) problems.push(`${where}: does not document ${status}`);
    const schemas = [
      ...Object.values(op.requestBody?.content ?? {}).map((c) => c.schema),
      ...(op.parameters ?? []).map((p) => p.schema),
      ...Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((c) => c.schema)),
    ];
    for (const schema of schemas) {
      if (schema === undefined) continue;
      try {
        compileIn(ajv, doc, schema);
      } catch (err) {
        problems.push(`${where}: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}
