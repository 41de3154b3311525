// Writes a page's meta into the web app's built index.html. The template is split once; each page
// gets its <title>, description, canonical link and Open Graph / Twitter tags, every value escaped.
import { escapeAttribute, escapeText } from "entities";
import { type PageMeta, SITE_NAME } from "./service.ts";
import type { RenderedPage } from "./ssr.ts";

export interface IndexTemplate {
  /**
   * index.html with the page's title, description and tags written in, and, for a page the server
   * rendered, its markup in #root, its data for the hydration, and its stylesheets and chunks.
   */
  render(meta: PageMeta | undefined, page?: RenderedPage): string;
}

const ROOT = '<div id="root"></div>';

const TITLE = /<title>[\s\S]*?<\/title>\s*/i;
const DESCRIPTION = /<meta\s+name=["']description["'][^>]*>\s*/i;

export function parseIndexTemplate(html: string): IndexTemplate {
  // Vite's index.html has a <head>; a minimal one (tests) may not: then the tags go where the title was.
  let at = html.search(/<\/head>/i);
  if (at < 0)
    at = Math.max(0, html.search(TITLE), html.search(/<!doctype html>/i) + "<!doctype html>".length);
  const stripped = html.slice(0, at).replace(TITLE, "").replace(DESCRIPTION, "");
  const after = html.slice(at).replace(TITLE, "").replace(DESCRIPTION, "");
  return {
    render(meta, page) {
      const head = meta ? `${stripped}${metaTags(meta)}` : html.slice(0, at);
      const body = meta ? after : html.slice(at);
      if (!page || !body.includes(ROOT)) return `${head}${body}`;
      return `${head.replace(/<html([^>]*)>/i, `<html$1 data-viewport="${page.viewport}">`)}${page.headTags}${body.replace(
        ROOT,
        () =>
          `<div id="root">${page.html}</div>\n    <script type="application/json" id="__diginoor_state">${page.stateJson}</script>`,
      )}`;
    },
  };
}

/** The head tags of one page. */
export function metaTags(meta: PageMeta): string {
  const tag = (attr: "name" | "property", key: string, value: string | undefined) =>
    value ? `    <meta ${attr}="${key}" content="${escapeAttribute(value)}" />\n` : "";
  return [
    `<title>${escapeText(meta.title)}</title>\n`,
    tag("name", "description", meta.description),
    `    <link rel="canonical" href="${escapeAttribute(meta.url)}" />\n`,
    tag("property", "og:site_name", SITE_NAME),
    tag("property", "og:type", meta.type),
    tag("property", "og:title", meta.title),
    tag("property", "og:description", meta.description),
    tag("property", "og:url", meta.url),
    tag("property", "og:image", meta.image),
    tag("property", "og:image:type", meta.image ? meta.imageType : undefined),
    tag("property", "og:image:width", meta.image ? meta.imageWidth?.toString() : undefined),
    tag("property", "og:image:height", meta.image ? meta.imageHeight?.toString() : undefined),
    tag("property", "og:image:alt", meta.image ? meta.imageAlt : undefined),
    tag("property", "article:published_time", meta.publishedAt),
    tag("property", "article:author", meta.author),
    tag("name", "twitter:card", meta.image ? "summary_large_image" : "summary"),
    tag("name", "twitter:title", meta.title),
    tag("name", "twitter:description", meta.description),
    tag("name", "twitter:image", meta.image),
    tag("name", "twitter:image:alt", meta.image ? meta.imageAlt : undefined),
  ].join("");
}
