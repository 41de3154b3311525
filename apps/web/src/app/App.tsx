import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect } from "react";
import type { DataRouter } from "react-router";
import { RouterProvider } from "react-router";
import { ApiError } from "../lib/api.ts";
import { ServerViewportContext } from "../lib/hooks.ts";
import { ToastProvider } from "../ui/Toast.tsx";

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retry network blips and 5xx twice; a 4xx answer will not change by asking again.
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** The providers around the pages; the server renderer wraps the same ones (entry-server.tsx). */
export function Providers({
  queryClient,
  viewport = "mobile",
  children,
}: {
  queryClient: QueryClient;
  viewport?: "desktop" | "mobile";
  children: React.ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <ServerViewportContext.Provider value={viewport}>
        <ToastProvider>{children}</ToastProvider>
      </ServerViewportContext.Provider>
    </QueryClientProvider>
  );
}

export function App({
  router,
  queryClient,
  viewport,
}: {
  router: DataRouter;
  queryClient: QueryClient;
  viewport?: "desktop" | "mobile";
}) {
  // Marks the document once the app has mounted or hydrated: until then a server-rendered page's
  // buttons are plain HTML (the browser tests wait for it before they type or click).
  useEffect(() => {
    document.documentElement.dataset.app = "ready";
  }, []);
  return (
    <Providers queryClient={queryClient} viewport={viewport}>
      <RouterProvider router={router} />
    </Providers>
  );
}
