import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isWebPagePath } from "@diginoor/api/web-paths";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { registerTokenMetadata } from "./modules/chain/metadata.ts";
import { registerChain } from "./modules/chain/routes.ts";
import type { AppContext } from "./context.ts";
import { registerCatalogue } from "./modules/catalogue/routes.ts";
import { registerContact } from "./modules/contact/routes.ts";
import { registerNewsletter } from "./modules/newsletter/routes.ts";
import fastifyCookie from "@fastify/cookie";
import { randomBytes } from "node:crypto";
import { registerAuth } from "./modules/accounts/routes.ts";
import { registerMail } from "./modules/mail/routes.ts";
import { registerUsers } from "./modules/accounts/me-routes.ts";
import { AppError } from "./http/errors.ts";
import { openApiDocument } from "./http/route.ts";
import { apiDocsPage } from "./http/docs-page.ts";
import { loggerOptions } from "./http/logging.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface BuildAppOptions {
  /** Serve the built SPA from this directory (skipped when it does not exist). */
  webDistDir?: string;
  /** Write the log here (also in test mode, where it is otherwise off): tests of the log itself. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the HTTP server: API, docs, health, media and the web app. Does not listen. */
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: loggerOptions(config, opts.logStream),
    bodyLimit: 1_048_576,
    requestIdHeader: "x-request-id",
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
  });

  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "strict-origin-when-cross-origin");
    if (!reply.hasHeader("x-frame-options")) reply.header("x-frame-options", "DENY");
  });

  // CSRF defence (with SameSite=Lax cookies): a state-changing request from a browser must come
  // from our own origin. Non-browser clients send no Origin and carry no victim's cookies.
  const publicOrigin = new URL(config.PUBLIC_URL).origin;
  app.addHook("onRequest", async (req) => {
    if (!STATE_CHANGING.has(req.method)) return;
    if (req.url.startsWith("/api/v1/webhooks/")) return;
    const origin = req.headers.origin;
    const fetchSite = req.headers["sec-fetch-site"];
    if (fetchSite === "cross-site") throw AppError.forbidden("Cross-site request refused");
    if (origin === undefined) return;
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw AppError.forbidden("Cross-site request refused");
    }
    if (origin !== publicOrigin && host !== req.headers.host)
      throw AppError.forbidden("Cross-site request refused");
  });

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status === 429) {
        const retry = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
        if (retry) reply.header("retry-after", String(retry));
      }
      return reply
        .code(err.status)
        .send({ error: { code: err.code, message: err.message, details: err.details } });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply
        .code(413)
        .send({ error: { code: "payload_too_large", message: "Request body is too large" } });
    }
    if (err.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" || status === 415) {
      return reply
        .code(415)
        .send({ error: { code: "unsupported_media_type", message: "Send the body as application/json" } });
    }
    if (status >= 400 && status < 500) {
      const message =
        err.code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError
          ? "Body is not valid JSON"
          : err.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
            ? "Body must not be empty"
            : err.message;
      return reply.code(status).send({ error: { code: "bad_request", message } });
    }
    req.log.error({ err }, "unhandled error");
    return reply.code(500).send({ error: { code: "internal", message: "Something Went Wrong" } });
  });

  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    try {
      await ctx.database.query("SELECT 1");
      return { status: "ready" };
    } catch {
      return reply.code(503).send({ error: { code: "unavailable", message: "Database unreachable" } });
    }
  });

  // Cookies (sessions; signed ones for the Google sign-in flow). Without SESSION_SECRET (dev only) a per-process key is used.
  // Durable jobs: modules register their definitions while they are registered; the workers start
  // when the app is ready and stop (waiting for running handlers) when it closes.
  app.addHook("onReady", async () => {
    await ctx.jobs.start();
  });
  app.addHook("onClose", async () => {
    await ctx.jobs.stop();
    await ctx.pubsub.close();
  });

  await app.register(fastifyCookie, { secret: config.SESSION_SECRET ?? randomBytes(32).toString("hex") });
  await registerMail(app, ctx);
  await registerAuth(app, ctx);
  await registerUsers(app, ctx);
  await registerCatalogue(app, ctx);
  await registerContact(app, ctx);
  await registerNewsletter(app, ctx);
  await registerChain(app, ctx);
  await registerTokenMetadata(app, ctx);

  app.get("/api/openapi.json", async () =>
    openApiDocument({ title: "Diginoor API", version: "1.0.0", serverUrl: config.PUBLIC_URL }),
  );
  app.get("/api/docs", async (_req, reply) => reply.type("text/html").send(apiDocsPage()));

  const mediaDir = path.join(config.DATA_DIR, "media");
  fs.mkdirSync(mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: "/media/",
    decorateReply: false,
    maxAge: "1d",
    immutable: true,
  });

  const webDist =
    opts.webDistDir ?? config.WEB_DIST_DIR ?? fileURLToPath(new URL("../../web/dist/", import.meta.url));
  const indexHtml = path.join(webDist, "index.html");
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, prefix: "/", wildcard: false, index: false });
    app.get("/assets/*", async (req, reply) =>
      reply.sendFile((req.params as { "*": string })["*"], path.join(webDist, "assets"), {
        maxAge: "365d",
        immutable: true,
      }),
    );
  }

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url;
    const isApi = url.startsWith("/api/") || url === "/api";
    if (!isApi && hasWeb && (req.method === "GET" || req.method === "HEAD")) {
      // The SPA renders every page, including its 404 page; the status tells crawlers which is which.
      const status = isWebPagePath(url.split("?")[0] ?? "/") ? 200 : 404;
      return reply
        .code(status)
        .type("text/html")
        .header("cache-control", "no-cache")
        .send(fs.createReadStream(indexHtml));
    }
    return reply
      .code(404)
      .send({ error: { code: "not_found", message: `No route ${req.method} ${url.split("?")[0]}` } });
  });

  return app;
}
