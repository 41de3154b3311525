// Component tests (happy-dom): the web app's API transport answered in-process by handlers keyed by
// "METHOD /path", every request recorded, and the providers a page needs (queries, toasts, router).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { setApiTransport } from "../lib/api.ts";
import { ToastProvider } from "../ui/Toast.tsx";

export interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** What a handler answers: a status and a JSON body (none for 204). */
export interface Answer {
  status?: number;
  body?: unknown;
}
type Handler = (request: SentRequest) => Answer | undefined;

/**
 * Installs a transport that answers `routes` ("GET /api/v1/admin/studios" → handler); a request no
 * route names answers 404 `not_found`, so a test sees a call it did not expect. Returns the requests.
 */
export function fakeApi(routes: Record<string, Handler>): SentRequest[] {
  const sent: SentRequest[] = [];
  setApiTransport(async (input, init) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    const request = { method, path: url.pathname, query: url.searchParams, body };
    sent.push(request);
    const answer = routes[`${method} ${url.pathname}`]?.(request) ?? {
      status: 404,
      body: { error: { code: "not_found", message: `No fake for ${method} ${url.pathname}` } },
    };
    const status = answer.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(answer.body ?? {}), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
  return sent;
}

/** An API error body as the server sends it. */
export const apiError = (status: number, code: string, message: string, details?: unknown): Answer => ({
  status,
  body: { error: { code, message, details } },
});

/** Renders `ui` at `path` with a fresh query cache, toasts and a memory router. */
export function renderPage(ui: ReactNode, { path = "/" }: { path?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: "*", element: ui }], { initialEntries: [path] });
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>,
    ),
  };
}
