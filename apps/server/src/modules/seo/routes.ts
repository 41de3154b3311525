import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LEGACY_FILM_PAGES } from "../catalogue/service.ts";
import { AppError } from "../../http/errors.ts";
import { CARD_TYPE, createCards, type Renditions } from "../media/service.ts";
import { parseIndexTemplate } from "./html.ts";
import { CARD_KINDS, type CardKind, createSeoService, type SeoServiceOptions } from "./service.ts";
import { loadPageRenderer } from "./ssr.ts";

/** What the search-engine routes and the page renderer read (the seo service's sources). */
export interface SeoRoutesDeps
  extends Pick<
    SeoServiceOptions,
    "publicUrl" | "catalogue" | "blog" | "tokens" | "social" | "lotteries" | "clock"
  > {
  /** Where rendered link-preview cards are cached (config.paths.cache). */
  cacheDir: string;
  test: boolean;
}

export interface WebPage {
  /** 200 for a page, 404 when it or its subject does not exist. */
  status: number;
  html: string;
}

/**
 * /sitemap.xml and /robots.txt; returns the renderer of the web app's pages (index.html with the
 * page's title, description, canonical URL and Open Graph tags, and the page itself rendered on the
 * server when the web build has its server entry), or undefined without a built app.
 */
export async function registerSeo(
  app: FastifyInstance,
  ctx: SeoRoutesDeps,
  opts: { webDist?: string; isWebPage: (pathname: string) => boolean; renditions: Renditions },
): Promise<((req: FastifyRequest) => Promise<WebPage>) | undefined> {
  const cards = createCards({
    cacheDir: path.join(ctx.cacheDir, "cards"),
    readPicture: (relPath) => opts.renditions.picture(relPath),
  });
  const seo = createSeoService({
    publicUrl: ctx.publicUrl,
    catalogue: ctx.catalogue,
    tokens: ctx.tokens,
    social: ctx.social,
    lotteries: ctx.lotteries,
    blog: ctx.blog,
    filmPages: LEGACY_FILM_PAGES,
    cards,
    sitemapTtlMs: ctx.test ? 0 : 10 * 60_000,
    clock: ctx.clock,
  });
  // A console write (here or, through pub/sub, in another process) drops the built sitemap too.
  const stop = ctx.catalogue.onInvalidate(() => seo.forgetSitemap());
  app.addHook("onClose", async () => {
    stop();
  });

  app.get("/sitemap.xml", async (_req, reply) =>
    reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=600")
      .send(await seo.sitemapXml()),
  );
  app.get("/robots.txt", async (_req, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(seo.robotsTxt()),
  );

  // Link-preview cards: /og/nft/:id.jpg, /og/film/:slug.jpg, /og/u/:handle.jpg, /og/post/:slug.jpg and
  // /og/site/diginoor.jpg (pages name them with ?v=<content hash>, so a changed card gets a new URL).
  app.route({
    method: ["GET", "HEAD"],
    url: "/og/:kind/:file",
    schema: { hide: true },
    handler: async (req, reply) => {
      const { kind, file } = req.params as { kind: string; file: string };
      const name = /^(.{1,200})\.jpg$/.exec(file)?.[1];
      if (!name || !(CARD_KINDS as readonly string[]).includes(kind)) throw AppError.notFound("Card");
      const spec = await seo.cardSpec(kind as CardKind, name);
      if (!spec) throw AppError.notFound("Card");
      const card = await cards.get(spec);
      reply
        .header("etag", card.etag)
        .header("cache-control", "public, max-age=3600")
        .header("vary", "Accept-Encoding");
      if (req.headers["if-none-match"] === card.etag) return reply.code(304).send();
      return reply.type(CARD_TYPE).send(await fs.promises.readFile(card.file));
    },
  });

  const indexHtmlPath = opts.webDist && path.join(opts.webDist, "index.html");
  if (!opts.webDist || !indexHtmlPath || !fs.existsSync(indexHtmlPath)) return undefined;
  const template = parseIndexTemplate(fs.readFileSync(indexHtmlPath, "utf8"));
  const renderer = await loadPageRenderer(app, {
    webDist: opts.webDist,
    publicUrl: ctx.publicUrl,
    log: app.log,
  });
  return async (req) => {
    const pathname = req.url.split("?")[0] ?? "/";
    try {
      const meta = await seo.pageMeta(pathname);
      if (meta === null) return { status: 404, html: template.render(undefined) };
      const status = meta || opts.isWebPage(pathname) ? 200 : 404;
      const page = status === 200 && renderer ? await renderer(req) : undefined;
      return { status, html: template.render(meta, page) };
    } catch (err) {
      // The page itself still works (the app loads its data); only the preview tags are missing.
      app.log.error({ err, pathname }, "page meta could not be built");
      return { status: opts.isWebPage(pathname) ? 200 : 404, html: template.render(undefined) };
    }
  };
}
