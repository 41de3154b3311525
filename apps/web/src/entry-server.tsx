// The server-side renderer (decision 033): the server (modules/seo) imports this module's build
// (apps/web/dist-ssr/entry-server.js) and renders the public pages a route marks with `handle.ssr`
// to HTML, with the data their queries asked for, so a phone paints the page before the app's
// JavaScript has run. The browser then hydrates the same tree from the same data (main.tsx).
import { AsyncLocalStorage } from "node:async_hooks";
import { dehydrate, type Query } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { makeQueryClient, Providers } from "./app/App.tsx";
import { routes } from "./app/routes.tsx";
import { setApiTransport } from "./lib/api.ts";

export interface RenderInput {
  /** The page's absolute URL (path and query). */
  url: string;
  /** Answers the API requests of this page's queries (in-process, with the visitor's cookie). */
  fetch: typeof fetch;
  /** The server's guess of the screen, so the hydration renders the same layout. */
  viewport: "desktop" | "mobile";
}

export interface RenderOutput {
  /** The markup of #root. */
  html: string;
  /** The query cache to hydrate from (TanStack Query's dehydrated state, JSON-safe). */
  state: unknown;
  /** The route modules of the page (keys of Vite's manifest): their CSS and chunks go in the head. */
  modules: string[];
}

/** Rendering passes at most: each pass fetches the queries the previous one asked for. */
const MAX_PASSES = 3;

const requestFetch = new AsyncLocalStorage<typeof fetch>();
setApiTransport((input, init) => {
  const answer = requestFetch.getStore();
  if (!answer) return Promise.reject(new Error("API call outside a server render"));
  return answer(input, init);
});

const handler = createStaticHandler(routes);

/** The page's HTML and data, or null for a page that is not server-rendered (or redirects). */
export async function render(input: RenderInput): Promise<RenderOutput | null> {
  return requestFetch.run(input.fetch, async () => {
    const context = await handler.query(new Request(input.url));
    if (context instanceof Response) return null;
    const modules = context.matches.flatMap((m) => {
      const ssr = (m.route.handle as { ssr?: string } | undefined)?.ssr;
      return ssr ? [ssr] : [];
    });
    if (modules.length === 0) return null;

    const router = createStaticRouter(handler.dataRoutes, context);
    const queryClient = makeQueryClient();
    const page = () =>
      renderToString(
        <Providers queryClient={queryClient} viewport={input.viewport}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Providers>,
      );
    const cache = queryClient.getQueryCache();
    let html = page();
    for (let pass = 1; pass < MAX_PASSES; pass++) {
      const wanted = cache.findAll().filter((q) => q.state.status === "pending" && isEnabled(q));
      if (wanted.length === 0) break;
      await Promise.all(wanted.map((q) => q.fetch().catch(() => undefined)));
      html = page();
    }
    // A query that failed or is still missing is left to the browser: the page shows its loading
    // state for it, exactly as the hydration will, and the browser asks again.
    const incomplete = cache.findAll().filter((q) => q.state.status !== "success");
    if (incomplete.length > 0) {
      for (const q of incomplete) cache.remove(q);
      html = page();
    }
    const state = dehydrate(queryClient);
    queryClient.clear();
    return { html, state, modules };
  });
}

function isEnabled(query: Query): boolean {
  const enabled = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return (typeof enabled === "function" ? enabled(query) : enabled) !== false;
}
