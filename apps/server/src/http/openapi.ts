import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { OpenAPIV3 } from "openapi-types";

const apiError = (description: string): OpenAPIV3.ResponseObject => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
});
/** What any request can meet before it is routed (route.ts adds the same to every operation). */
const anyRequest = {
  "408": apiError("The request did not arrive in time"),
  "431": apiError("The request's headers are too large"),
};

const textFile = (
  operationId: string,
  summary: string,
  tag: string,
  type: string,
  conditional = false,
): OpenAPIV3.OperationObject => ({
  operationId,
  summary,
  tags: [tag],
  security: [],
  responses: {
    "200": { description: summary, content: { [type]: { schema: { type: "string" } } } },
    ...(conditional ? { "304": { description: "Not modified: If-None-Match named the current ETag" } } : {}),
    ...anyRequest,
  },
});

/** Routes without a packages/api endpoint, documented here (static and generated files). */
const staticOperations: Record<string, OpenAPIV3.OperationObject> = {
  "/blog/rss.xml": textFile(
    "getBlogFeed",
    "The blog as an RSS 2.0 feed",
    "blog",
    "application/rss+xml",
    true,
  ),
  "/sitemap.xml": textFile("getSitemap", "Every public page, film, post and NFT", "seo", "application/xml"),
  "/robots.txt": textFile("getRobots", "Crawler rules", "seo", "text/plain"),
  "/media/{path}": {
    operationId: "getMedia",
    summary:
      "Uploaded and seeded media (images, videos) from the configured storage; ETag is the SHA-256 of the content, cached as immutable; readable from any origin (CORS *)",
    tags: ["media"],
    security: [],
    parameters: [
      { name: "path", in: "path", required: true, schema: { type: "string" }, description: "File path" },
    ],
    responses: {
      "200": {
        description: "The file",
        content: { "*/*": { schema: { type: "string", format: "binary" } } },
      },
      "304": { description: "Not modified (If-None-Match named the current ETag)" },
      "404": apiError("No such file"),
      ...anyRequest,
    },
  },
};

/**
 * OpenAPI 3.0 has no null type: a nullable schema says `nullable: true`, and an `enum` beside it must
 * list `null` too, or a strict validator (ajv, the OpenAPI spec's own reading) refuses the null that the
 * API really sends (issue 23 point 14). The zod converter writes the enum without it: added here.
 */
export function listNullInNullableEnums(node: unknown): void {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== "object") continue;
    const o = n as { nullable?: unknown; enum?: unknown[] };
    // A new array: the converter may share one enum between a nullable schema and others.
    if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
    stack.push(...Object.values(n));
  }
}

/**
 * OpenAPI 3 document from the routes' zod schemas (@fastify/swagger with fastify-type-provider-zod),
 * served at /api/openapi.json, and the Swagger UI page at /api/docs. Registered before the routes.
 */
export async function registerOpenApi(app: FastifyInstance, opts: { sessionCookie: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "Diginoor API",
        version: "1.0.0",
        description:
          'The Diginoor marketplace API. Every error has the shape `{"error":{"code","message","details"?}}`; the code says what went wrong, the status follows from it.',
      },
      // Relative: the document describes whichever server serves it.
      servers: [{ url: "/" }],
      components: {
        securitySchemes: {
          sessionCookie: { type: "apiKey", in: "cookie", name: opts.sessionCookie },
        },
      },
      tags: [
        { name: "accounts", description: "Sign-up, sign-in (password and Google), password reset" },
        { name: "profile", description: "The signed-in user's own account" },
        { name: "catalogue", description: "NFTs, films, collections and the public forms" },
        { name: "chain", description: "Contracts and token metadata" },
        { name: "events", description: "Live notifications (Server-Sent Events)" },
        { name: "media", description: "Images and videos" },
        { name: "blog", description: "Articles" },
        { name: "seo", description: "Files for search engines" },
        { name: "platform", description: "Health, readiness, development tools" },
        { name: "wallets", description: "Wallets linked by Sign-In with Ethereum, and passkey wallets" },
        { name: "quotes", description: "Exchange rates and price quotes in crypto and rupees" },
        { name: "orders", description: "Orders, checkout and payment providers' webhooks" },
        { name: "lottery", description: "Lotteries: tickets, the commit-reveal draw and its proofs" },
        { name: "notifications", description: "The signed-in user's notifications and mail preferences" },
        { name: "social", description: "Profiles, follows, likes and showcases" },
        { name: "admin", description: "The studio console (administrators and studio accounts)" },
      ],
    },
    transform: (input) => {
      const { url } = input;
      // Static file routes without a schema of their own: documented by staticOperations.
      if (url === "/media/*" || (!input.schema && url in staticOperations))
        return { schema: { hide: true }, url };
      return jsonSchemaTransform(input);
    },
    transformObject: (documentObject) => {
      // Named zod schemas (the error shape) become components; then the static routes are added.
      const doc = jsonSchemaTransformObject(documentObject) as OpenAPIV3.Document;
      // Only the output form of the error shape is referenced (errors are answers, never requests).
      delete doc.components?.schemas?.ApiErrorInput;
      for (const [path, operation] of Object.entries(staticOperations)) doc.paths[path] = { get: operation };
      listNullInNullableEnums(doc);
      return doc;
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
