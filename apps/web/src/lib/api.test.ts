import type { blogEndpoints } from "@diginoor/api/blog";
import type { walletEndpoints } from "@diginoor/api/wallets";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiFetch, apiUrl, callApi, fieldErrorsOf } from "./api.ts";

function respond(status: number, body?: unknown) {
  return vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status }));
}

afterEach(() => vi.unstubAllGlobals());

describe("apiFetch", () => {
  it("sends JSON with the session cookie and returns the parsed body", async () => {
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal("fetch", fetchMock);
    await expect(apiFetch("/api/v1/contact", { body: { name: "A" } })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/v1/contact");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
    expect(init.body).toBe('{"name":"A"}');
  });

  it("turns the server's error body into an ApiError with field errors", async () => {
    vi.stubGlobal(
      "fetch",
      respond(400, {
        error: {
          code: "validation_failed",
          message: "Invalid body: name is required",
          details: [
            { field: "name", message: "is required" },
            { field: "email", message: "must be a valid email address" },
          ],
        },
      }),
    );
    const err = await apiFetch("/api/v1/contact", { body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const apiErr = err as ApiError;
    expect(apiErr.status).toBe(400);
    expect(apiErr.code).toBe("validation_failed");
    expect(apiErr.message).toBe("Invalid body: name is required");
    expect(apiErr.fieldErrors()).toEqual({ name: "is required", email: "must be a valid email address" });
  });

  it("reports a network failure as status 0 with a retry hint", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(apiFetch("/api/v1/nfts")).rejects.toMatchObject({
      status: 0,
      message: "Network error, please retry",
    });
  });

  it("hides a 5xx without a body behind a friendly message, and returns undefined for 204", async () => {
    vi.stubGlobal("fetch", respond(502));
    await expect(apiFetch("/api/v1/nfts")).rejects.toMatchObject({ status: 502, code: "http_502" });
    vi.stubGlobal("fetch", respond(204));
    await expect(apiFetch("/api/v1/auth/logout", { method: "POST" })).resolves.toBeUndefined();
  });
});

describe("fieldErrorsOf", () => {
  it("reads zod-style paths and field maps, keeping the first message per field", () => {
    expect(
      fieldErrorsOf([
        { path: ["email"], message: "first" },
        { path: ["email"], message: "second" },
      ]),
    ).toEqual({ email: "first" });
    expect(fieldErrorsOf({ fields: { name: ["too long"] } })).toEqual({ name: "too long" });
    expect(fieldErrorsOf({ retryAfterSeconds: 30 })).toEqual({});
    expect(fieldErrorsOf(undefined)).toEqual({});
  });
});

describe("callApi", () => {
  it("fills the endpoint's path parameters, appends its query, and sends its method and body", async () => {
    const fetchMock = respond(200, { id: "x" });
    vi.stubGlobal("fetch", fetchMock);
    await callApi<typeof walletEndpoints.updateWallet>("PATCH /api/v1/wallets/{address}", {
      params: { address: "0xAbC" },
      body: { receivesPurchases: true },
    });
    await callApi<typeof blogEndpoints.listPosts>("GET /api/v1/posts", {
      query: { limit: "12", cursor: "a b/c" },
    });
    await callApi<typeof blogEndpoints.getPost>("GET /api/v1/posts/{slug}", { params: { slug: "ä/b" } });
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      "PATCH /api/v1/wallets/0xAbC",
      "GET /api/v1/posts?limit=12&cursor=a+b%2Fc",
      "GET /api/v1/posts/%C3%A4%2Fb",
    ]);
    expect(calls[0]?.[1].body).toBe('{"receivesPurchases":true}');
  });

  it("is checked against packages/api: a route that is not the endpoint's does not compile", () => {
    // The assertions are the compiler's (npm run typecheck): each line below must be an error.
    const typeOnly = (_: unknown) => {};
    // @ts-expect-error the path is not the endpoint's
    typeOnly(() => callApi<typeof walletEndpoints.listWallets>("GET /api/v1/wallet", {}));
    // @ts-expect-error the method is not the endpoint's
    typeOnly(() => callApi<typeof walletEndpoints.listWallets>("POST /api/v1/wallets", {}));
    const incomplete = { body: { message: "m" } };
    // @ts-expect-error the body misses a field the endpoint requires
    typeOnly(() => callApi<typeof walletEndpoints.linkWallet>("POST /api/v1/wallets", incomplete));
    expect(apiUrl("GET /api/v1/tokens/{tokenId}", { tokenId: "12" })).toBe("/api/v1/tokens/12");
    expect(() => apiUrl("GET /api/v1/tokens/{tokenId}", {})).toThrow(/missing parameter tokenId/);
  });
});
