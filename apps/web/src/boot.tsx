// The app itself, loaded by main.tsx once the browser has painted (see there).
import { hydrate } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter, matchRoutes } from "react-router";
import { App, makeQueryClient } from "./app/App.tsx";
import { routes } from "./app/routes.tsx";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
const queryClient = makeQueryClient();
const serverState = document.getElementById("__diginoor_state");

if (serverState && root.firstElementChild) {
  // Not awaited at the top level: a route chunk that imports a module of this entry chunk would wait
  // for this module to finish evaluating while this module waited for that chunk (a deadlock: the
  // page stayed server HTML, never hydrated, with no error).
  void hydrateServerPage(root, serverState);
} else {
  createRoot(root).render(
    <StrictMode>
      <App router={createBrowserRouter(routes)} queryClient={queryClient} />
    </StrictMode>,
  );
}

async function hydrateServerPage(root: HTMLElement, serverState: HTMLElement) {
  // A page the server rendered (entry-server.tsx): the same data, the page's own route modules
  // loaded before the first render, then a hydration in a transition, so React yields to the
  // browser while it attaches instead of blocking the main thread for the whole page.
  hydrate(queryClient, JSON.parse(serverState.textContent ?? "{}"));
  const lazy = (matchRoutes(routes, window.location) ?? []).filter((m) => typeof m.route.lazy === "function");
  await Promise.all(
    lazy.map(async ({ route }) => {
      const module = await (route.lazy as () => Promise<object>)();
      Object.assign(route, { ...module, lazy: undefined });
    }),
  );
  const viewport = document.documentElement.dataset.viewport === "desktop" ? "desktop" : "mobile";
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <App router={createBrowserRouter(routes)} queryClient={queryClient} viewport={viewport} />
      </StrictMode>,
    );
  });
}
