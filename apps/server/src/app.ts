import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { isWebPagePath } from "@diginoor/api/web-paths";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import { registerChain } from "./modules/chain/routes.ts";
import { registerPortability } from "./modules/portability/routes.ts";
import { registerTokenRoutes } from "./modules/indexer/routes.ts";
import type { AppContext } from "./context.ts";
import { registerCatalogue } from "./modules/catalogue/routes.ts";
import { registerContact } from "./modules/contact/routes.ts";
import { registerNewsletter } from "./modules/newsletter/routes.ts";
import { registerWalletRoutes } from "./modules/wallets/routes.ts";
import { registerQuoteRoutes } from "./modules/quotes/routes.ts";
import { registerBlog } from "./modules/blog/routes.ts";
import { registerAdmin } from "./modules/admin/routes.ts";
import { registerSeo } from "./modules/seo/routes.ts";
import { registerEvents } from "./modules/events/routes.ts";
import { openStreamsByKind } from "./modules/events/service.ts";
import { registerOrders } from "./modules/orders/routes.ts";
import { registerLottery } from "./modules/lottery/routes.ts";
import { registerNotifications } from "./modules/notifications/routes.ts";
import { registerSocial } from "./modules/social/routes.ts";
import { registerMedia } from "./modules/media/routes.ts";
import fastifyCookie from "@fastify/cookie";
import { randomBytes } from "node:crypto";
import { registerAuth } from "./modules/accounts/routes.ts";
import { registerMail } from "./modules/mail/routes.ts";
import { registerUsers } from "./modules/accounts/me-routes.ts";
import { registerPrivacy } from "./modules/privacy/routes.ts";
import { registerTax } from "./modules/tax/routes.ts";
import { registerKyc } from "./modules/kyc/routes.ts";
import { registerEarnings } from "./modules/earnings/routes.ts";
import { registerMediaRenditions } from "./modules/media/routes.ts";
import { createRenditions } from "./modules/media/service.ts";
import { authMessages } from "@diginoor/api/auth";
import { platformEndpoints } from "@diginoor/api/platform";
import { installAccessControl } from "./http/access.ts";
import { installPublicCors } from "./http/cors.ts";
import { closeConnectionsWhenIdle } from "./http/closing.ts";
import { tokenEndpoints } from "@diginoor/api/chain";
import {
  handleClientError,
  handleFrameworkError,
  installErrorHandler,
  sendNotFound,
} from "./http/error-handler.ts";
import { AppError } from "./http/errors.ts";
import { isDraining } from "./http/draining.ts";
import { installCsrfCheck, installSecurityHeaders, requestId } from "./http/headers.ts";
import { loggerOptions } from "./http/logging.ts";
import { installMetrics } from "./http/metrics.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { route } from "./http/route.ts";
import { serializerCompiler, validatorCompiler } from "./http/validation.ts";
import { SESSION_COOKIE, optionalUser } from "./modules/accounts/session.ts";

export interface BuildAppOptions {
  /** Serve the built SPA from this directory (skipped when it does not exist). */
  webDistDir?: string;
  /** Write the log here (also in test mode, where it is otherwise off): tests of the log itself. */
  logStream?: NodeJS.WritableStream;
  /**
   * Media keys whose raster renditions are made in the background once the app is built (the seeded
   * artwork), so that the first visitors of a page get them made rather than waiting for them.
   */
  warmPictures?: readonly string[];
}

/** Builds the HTTP server: API, docs, health, media and the web app. Does not listen. */
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: loggerOptions(config, opts.logStream),
    bodyLimit: 1_048_576,
    // The client's X-Request-Id only when short and plain (it is logged and echoed).
    genReqId: requestId,
    trustProxy: config.TRUST_PROXY,
    // Slow and silent clients (issue 23 point 3): the whole request within HTTP_REQUEST_TIMEOUT_MS,
    // its headers within HTTP_HEADERS_TIMEOUT_MS (checked at least every quarter of it), and a
    // connection silent both ways for HTTP_IDLE_TIMEOUT_MS is closed.
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    keepAliveTimeout: Math.min(72_000, config.HTTP_IDLE_TIMEOUT_MS),
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(
        250,
        Math.min(5000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4)),
      ),
    },
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 200 },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  });
  closeConnectionsWhenIdle(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler(config.NODE_ENV === "test"));
  installErrorHandler(app, { undeclaredErrorCodes: config.NODE_ENV === "test" ? "fail" : "allow" });
  installMetrics(app, {
    token: config.METRICS_TOKEN,
    database: ctx.database,
    jobs: ctx.jobs,
    chain: ctx.chain,
    streams: () => openStreamsByKind(app),
  });

  const rpcUrl = ctx.chain?.local ? ctx.chain.rpcUrl : undefined;
  installSecurityHeaders(app, {
    publicUrl: config.PUBLIC_URL,
    connectSrc: rpcUrl ? [new URL(rpcUrl).origin] : [],
  });
  installCsrfCheck(app, config.PUBLIC_URL, { trustProxy: config.TRUST_PROXY });
  // Token metadata and media: readable by any site (wallets, dApps), unlike the rest of the API.
  installPublicCors(app, ["/media/*", tokenEndpoints.getTokenMetadata.path.replace("{tokenId}", ":tokenId")]);

  // Cookies (sessions; signed ones for the Google sign-in flow). Without SESSION_SECRET (dev only) a per-process key is used.
  // Background work (jobs, subscriptions, the indexer) is not the app's: main.ts starts it by role.
  await app.register(fastifyCookie, { secret: config.SESSION_SECRET ?? randomBytes(32).toString("hex") });
  installAccessControl(app, {
    limiter: ctx.rateLimiter,
    authenticate: (req) => optionalUser(ctx.services.accounts, req),
    loginRequiredMessage: authMessages.loginRequired,
  });
  await registerOpenApi(app, { sessionCookie: SESSION_COOKIE });

  route(app, platformEndpoints.health, { permission: "public", handler: () => ({ status: "ok" as const }) });
  route(app, platformEndpoints.readiness, {
    permission: "public",
    handler: async () => {
      if (isDraining()) throw new AppError("unavailable", "Shutting down");
      try {
        await ctx.database.query("SELECT 1");
      } catch {
        throw new AppError("unavailable", "Database unreachable");
      }
      return { status: "ready" as const };
    },
  });
  const { services } = ctx;
  const sse = {
    maxStreamsPerUser: config.SSE_MAX_STREAMS_PER_USER,
    maxStreamsPerAddress: config.SSE_MAX_STREAMS_PER_ADDRESS,
    heartbeatMs: config.SSE_HEARTBEAT_MS,
  };
  await registerMail(app, { devMailbox: config.devMailbox, db: ctx.db, mailer: ctx.mailer });
  const { accounts } = services;
  await registerAuth(app, { accounts, config, db: ctx.db, rateLimiter: ctx.rateLimiter });
  await registerUsers(app, { accounts, config, pubsub: ctx.pubsub, database: ctx.database });
  registerPrivacy(app, { privacy: services.privacy, accounts, config });
  registerTax(app, { tax: services.tax, accounts, chainId: ctx.chain?.chainId });
  await registerKyc(app, services.kyc);
  await registerCatalogue(app, services.catalogue);
  await registerContact(app, services.contact);
  await registerNewsletter(app, services.newsletter);
  await registerBlog(app, { blog: services.blog, storage: ctx.storage, publicUrl: config.PUBLIC_URL });
  await registerAdmin(app, services.admin);
  registerEarnings(app, { earnings: services.earnings, admin: services.admin });
  await registerChain(app, {
    chain: ctx.chain,
    walletConnectProjectId: config.WALLETCONNECT_PROJECT_ID,
    checkRelay: services.sponsorship.checkRelay,
  });
  await registerTokenRoutes(app, services.tokens);
  registerPortability(app, services.portability);
  registerWalletRoutes(
    app,
    services.wallets,
    services.walletRecovery,
    services.walletDevices,
    services.sponsorship,
  );
  registerQuoteRoutes(app, services.quotes);
  await registerOrders(app, {
    orders: services.orders,
    quotes: services.quotes,
    onrampUrl: config.ONRAMP_URL,
  });
  await registerLottery(app, { lottery: services.lottery, pubsub: ctx.pubsub, sse });
  await registerNotifications(app, {
    notifications: services.notifications,
    pubsub: ctx.pubsub,
    database: ctx.database,
    sse,
  });
  await registerSocial(app, { social: services.social, accounts });
  await registerEvents(app, { accounts, pubsub: ctx.pubsub, database: ctx.database, sse });

  const mediaDir = config.paths.media;
  fs.mkdirSync(mediaDir, { recursive: true });
  // Raster renditions of the media pictures (before the static route, which would claim /media/_r/).
  const renditions = createRenditions({
    storage: ctx.storage,
    cacheDir: path.join(config.paths.cache, "renditions"),
  });
  registerMediaRenditions(app, renditions, { waitMs: config.RENDITION_WAIT_MS });
  if (opts.warmPictures?.length) {
    const started = Date.now();
    renditions.warm(opts.warmPictures).then(
      (count) => app.log.info({ count, ms: Date.now() - started }, "picture renditions ready"),
      (err: unknown) => app.log.warn({ err }, "warming the picture renditions failed"),
    );
  }
  registerMedia(app, ctx.storage);

  const webDist =
    opts.webDistDir ?? config.WEB_DIST_DIR ?? fileURLToPath(new URL("../../web/dist/", import.meta.url));
  const indexHtml = path.join(webDist, "index.html");
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    // Hashed build files never change: cached for a year, sent as the .br/.gz copies the web build
    // writes beside them when the browser accepts one (Vary: Accept-Encoding).
    await app.register(fastifyStatic, {
      root: path.join(webDist, "assets"),
      prefix: "/assets/",
      decorateReply: false,
      preCompressed: true,
      maxAge: "365d",
      immutable: true,
    });
    // Other top-level files (favicon, …) by name; the assets and index.html are served above and below.
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: "/",
      wildcard: false,
      index: false,
      decorateReply: false,
      preCompressed: true,
      maxAge: "1h",
      globIgnore: ["assets/**", "index.html", "**/*.br", "**/*.gz"],
    });
  }

  // /sitemap.xml, /robots.txt, and each page's title and link-preview tags written into index.html.
  const renderPage = await registerSeo(
    app,
    {
      publicUrl: config.PUBLIC_URL,
      catalogue: services.catalogue,
      tokens: services.tokens,
      social: services.social,
      lotteries: services.lottery,
      blog: services.blog,
      clock: ctx.clock,
      cacheDir: config.paths.cache,
      test: config.NODE_ENV === "test",
    },
    {
      webDist: hasWeb ? webDist : undefined,
      isWebPage: isWebPagePath,
      renditions,
    },
  );

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url;
    const isApi = url.startsWith("/api/") || url === "/api";
    // Files that are not there (a media key, a hashed asset of an older build): a plain 404, never
    // the web app's page (an <img> or a script would get HTML).
    if (/^\/(?:media|assets)(?:[/?#]|$)/.test(url)) return sendNotFound(reply, "No such file");
    if (!isApi && renderPage && (req.method === "GET" || req.method === "HEAD")) {
      // The SPA renders every page, including its 404 page; the status tells crawlers which is which
      // (an unknown NFT or post is a 404 too). The page names the current hashed files, so it is
      // revalidated on every visit; it carries the page's own tags, so it is compressed per request
      // (a few kilobytes: cheap at a middling brotli quality).
      const page = await renderPage(req);
      reply
        .code(page.status)
        .type("text/html; charset=utf-8")
        .header("cache-control", "private, no-cache")
        .header("vary", "Accept-Encoding");
      const encoding = (["br", "gzip"] as const).find((e) =>
        acceptsEncoding(req.headers["accept-encoding"], e),
      );
      if (!encoding) return reply.send(page.html);
      reply.header("content-encoding", encoding);
      return reply.send(
        encoding === "br"
          ? zlib.brotliCompressSync(page.html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
          : zlib.gzipSync(page.html),
      );
    }
    return sendNotFound(reply);
  });

  return app;
}

/** Whether an Accept-Encoding header accepts `encoding` (listed without `;q=0`). */
function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name !== encoding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}
