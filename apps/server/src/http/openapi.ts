import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { OpenAPIV3 } from "openapi-types";

const textFile = (
  operationId: string,
  summary: string,
  tag: string,
  type: string,
): OpenAPIV3.OperationObject => ({
  operationId,
  summary,
  tags: [tag],
  security: [],
  responses: { "200": { description: summary, content: { [type]: { schema: { type: "string" } } } } },
});

/** Routes without a packages/api endpoint, documented here (static and generated files). */
const staticOperations: Record<string, OpenAPIV3.OperationObject> = {
  "/blog/rss.xml": textFile("getBlogFeed", "The blog as an RSS 2.0 feed", "blog", "application/rss+xml"),
  "/sitemap.xml": textFile("getSitemap", "Every public page, film, post and NFT", "seo", "application/xml"),
  "/robots.txt": textFile("getRobots", "Crawler rules", "seo", "text/plain"),
  "/media/{path}": {
    operationId: "getMedia",
    summary:
      "Uploaded and seeded media (images, videos) from the configured storage; ETag is the SHA-256 of the content, cached as immutable",
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
      "404": { description: "No such file" },
    },
  },
};

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
      return doc;
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
