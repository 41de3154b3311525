import type { FastifyInstance } from "fastify";

/**
 * Registers routes in their own scope where every request body, whatever its content type, arrives
 * as the exact bytes received (a Buffer in `req.body`): what a webhook's signature is computed over.
 * Parsing it (after the signature check) is the route's job. The scope's body limit defaults to
 * 256 KiB.
 */
export async function rawBodyRoutes(
  app: FastifyInstance,
  register: (scope: FastifyInstance) => void | Promise<void>,
  opts: { bodyLimit?: number } = {},
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: opts.bodyLimit ?? 256 * 1024 },
      (_req, body, done) => done(null, body),
    );
    await register(scope);
  });
}
