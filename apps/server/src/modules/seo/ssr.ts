// Server-side rendering of the web app's public pages (decision 033). The web build's
// `dist-ssr/entry-server.js` renders a page to HTML with the data its queries asked for; this file
// loads it, answers its API requests in-process (app.inject, with the visitor's own cookie and
// address, so it sees exactly what the browser would), links the page's CSS and chunks from Vite's
// manifest, and falls back to the plain app shell whenever anything goes wrong.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";

/** What `entry-server.tsx` exports (apps/web/src/entry-server.tsx). */
interface RenderModule {
  render(input: {
    url: string;
    fetch: typeof fetch;
    viewport: "desktop" | "mobile";
  }): Promise<{ html: string; state: unknown; modules: string[] } | null>;
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  /** The dehydrated query cache as JSON, safe inside a <script> element. */
  stateJson: string;
  /** <link> tags for the page's stylesheets and module preloads. */
  headTags: string;
  viewport: "desktop" | "mobile";
}

export type PageRenderer = (req: FastifyRequest) => Promise<RenderedPage | undefined>;

/** A render slower than this is abandoned for the plain shell (the browser renders the page). */
const RENDER_TIMEOUT_MS = 3_000;

/**
 * The renderer of server-rendered pages, or undefined when the web app was built without its
 * server entry (`dist-ssr` beside `dist`).
 */
export async function loadPageRenderer(
  app: FastifyInstance,
  opts: { webDist: string; publicUrl: string; log: FastifyBaseLogger },
): Promise<PageRenderer | undefined> {
  const entry = path.join(opts.webDist, "..", "dist-ssr", "entry-server.js");
  const manifestPath = path.join(opts.webDist, ".vite", "manifest.json");
  if (!fs.existsSync(entry) || !fs.existsSync(manifestPath)) return undefined;
  const module = (await import(pathToFileURL(entry).href)) as RenderModule;
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const origin = new URL(opts.publicUrl).origin;

  return async (req) => {
    const viewport = guessViewport(req);
    try {
      const rendered = await withTimeout(
        module.render({ url: new URL(req.url, origin).href, fetch: injectFetch(app, req), viewport }),
        RENDER_TIMEOUT_MS,
      );
      if (!rendered) return undefined;
      return {
        html: rendered.html,
        stateJson: scriptSafeJson(rendered.state),
        headTags: headTags(manifest, rendered.modules),
        viewport,
      };
    } catch (err) {
      opts.log.warn({ err, url: req.url }, "server render failed; sending the app shell");
      return undefined;
    }
  };
}

/** A fetch that answers GET requests of the API in-process, as the visitor. */
function injectFetch(app: FastifyInstance, req: FastifyRequest): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if ((init?.method ?? "GET") !== "GET" || !url.startsWith("/api/"))
      throw new Error(`server render may only read the API (${init?.method ?? "GET"} ${url})`);
    const headers: Record<string, string> = { accept: "application/json" };
    if (req.headers.cookie) headers.cookie = req.headers.cookie;
    if (req.headers["user-agent"]) headers["user-agent"] = req.headers["user-agent"];
    const answer = await app.inject({ method: "GET", url, headers, remoteAddress: req.ip });
    return new Response(answer.statusCode === 204 ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers: { "content-type": String(answer.headers["content-type"] ?? "application/json") },
    });
  };
}

/** Phones and tablets say so in their User-Agent (or Sec-CH-UA-Mobile); the rest get the desktop layout. */
export function guessViewport(req: Pick<FastifyRequest, "headers">): "desktop" | "mobile" {
  if (req.headers["sec-ch-ua-mobile"] === "?1") return "mobile";
  return /Mobi|Android|iPhone|iPad/i.test(req.headers["user-agent"] ?? "") ? "mobile" : "desktop";
}

/** JSON that cannot end the <script> element it sits in. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Stylesheets (render-blocking, so the server's markup paints styled) and module preloads of `modules`. */
export function headTags(manifest: Record<string, ManifestChunk>, modules: string[]): string {
  const css = new Set<string>();
  const js = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key) || chunk.isEntry) return;
    seen.add(key);
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const child of chunk.imports ?? []) visit(child);
  };
  // The entry (main.tsx) imports the app (boot.tsx) once the page has painted: preload it, and link
  // its stylesheets so the server's markup paints styled.
  const boot = Object.values(manifest).flatMap((chunk) =>
    chunk.isEntry ? (chunk.dynamicImports ?? []) : [],
  );
  for (const key of [...boot, ...modules]) visit(key);
  // index.html already loads the entry and preloads its imports: name only what the page adds.
  const inIndex = new Set<string>();
  const visitEntry = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || inIndex.has(chunk.file)) return;
    inIndex.add(chunk.file);
    for (const child of chunk.imports ?? []) visitEntry(child);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visitEntry(key);
  for (const file of inIndex) js.delete(file);
  return [
    ...[...css].map((file) => `    <link rel="stylesheet" crossorigin href="/${file}">\n`),
    ...[...js].map(
      (file) => `    <link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">\n`,
    ),
  ].join("");
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`render took over ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
