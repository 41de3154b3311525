/**
 * POST /api/v1/bundler speaks JSON-RPC 2.0 at the envelope (issue 37 point 3): every problem with a call is
 * a JSON-RPC error object carrying the call's id (HTTP 200), as the specification's own examples
 * (https://www.jsonrpc.org/specification, section 7) have it; notifications get 204. Behind it the real
 * bundler (Alto) on anvil, and viem's own bundler client in front, which must see the JSON-RPC errors
 * (MethodNotFoundRpcError, …), not an HttpRequestError.
 */
import { BUNDLER_METHODS, bundlerResponseSchema } from "@diginoor/api/chain";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { type BundlerInstance, LOCAL_BUNDLER_METHODS, startBundler } from "@diginoor/contracts/bundler";
import {
  createPublicClient,
  HttpRequestError,
  http,
  InvalidParamsRpcError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
} from "viem";
import { createBundlerClient, UserOperationReceiptNotFoundError } from "viem/account-abstraction";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const ORIGIN = "http://localhost:3000";
const ENTRY_POINT = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";

let t: TestApp;
let bundler: BundlerInstance;
let cookie: string;
let proxyUrl: string;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN }, { chain: true });
  bundler = await startBundler({
    rpcUrl: t.ctx.chain!.rpcUrl,
    executorPrivateKey: ANVIL_PRIVATE_KEYS[7],
    utilityPrivateKey: ANVIL_PRIVATE_KEYS[8],
  });
  // The test app's chain is not local, so it started no bundler: as with BUNDLER_URL, this one.
  t.ctx.chain!.wallets!.bundlerUrl = bundler.url;
  ({ cookie } = await newSignedInUser(t.ctx));
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  proxyUrl = `${address}/api/v1/bundler`;
}, 180_000);
afterAll(async () => {
  await bundler?.stop();
  await t?.close();
});

/** POST a raw body to the proxy; the answer's status and parsed body (checked against the API's schema). */
async function post(body: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/bundler",
    headers: { cookie, "content-type": "application/json" },
    payload: body,
  });
  if (res.statusCode === 204) return { status: 204, body: res.body };
  const parsed = res.json();
  expect(bundlerResponseSchema.safeParse(parsed).success, res.body).toBe(true);
  return { status: res.statusCode, body: parsed };
}

const error = (id: unknown, code: number) => ({
  jsonrpc: "2.0",
  id,
  error: expect.objectContaining({ code, message: expect.any(String) }),
});

describe("the bundler proxy's JSON-RPC 2.0 envelope", () => {
  it("answers a call with the caller's id as it came: numbers, strings, null", async () => {
    for (const id of [1, 0, -7, 2.5, "abc", "x".repeat(300), null]) {
      const { status, body } = await post(
        JSON.stringify({ jsonrpc: "2.0", id, method: "eth_supportedEntryPoints", params: [] }),
      );
      expect(status).toBe(200);
      expect(body).toEqual({ jsonrpc: "2.0", id, result: [ENTRY_POINT] });
    }
    // params may be left out.
    const noParams = await post(JSON.stringify({ jsonrpc: "2.0", id: "p", method: "eth_chainId" }));
    expect(noParams.body).toEqual({ jsonrpc: "2.0", id: "p", result: "0x7a69" });
    // A bundler's null result (no receipt yet) is a result, not an error.
    const receipt = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "eth_getUserOperationReceipt",
        params: [`0x${"00".repeat(32)}`],
      }),
    );
    expect(receipt.body).toEqual({ jsonrpc: "2.0", id: 9, result: null });
  });

  it("answers the specification's error cases with its codes (section 7)", async () => {
    const cases: [string, string, unknown][] = [
      ["an empty body", "", error(null, -32700)],
      ["not JSON", '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', error(null, -32700)],
      ["a method not offered", '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}', error("1", -32601)],
      [
        "a method of Alto's not offered",
        '{"jsonrpc": "2.0", "method": "boost_sendUserOperation", "id": 3, "params": []}',
        error(3, -32601),
      ],
      [
        "an Ethereum method not offered",
        '{"jsonrpc": "2.0", "method": "eth_sendRawTransaction", "id": 4, "params": ["0x00"]}',
        error(4, -32601),
      ],
      [
        "a method that is not a string",
        '{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
        error(null, -32600),
      ],
      ["jsonrpc 1.0", '{"jsonrpc": "1.0", "method": "eth_chainId", "id": 5}', error(5, -32600)],
      ["no jsonrpc", '{"method": "eth_chainId", "id": 6}', error(6, -32600)],
      ["an object id", '{"jsonrpc": "2.0", "method": "eth_chainId", "id": {"a": 1}}', error(null, -32600)],
      [
        "params a string",
        '{"jsonrpc": "2.0", "method": "eth_chainId", "id": 7, "params": "x"}',
        error(7, -32600),
      ],
      [
        "params by name",
        '{"jsonrpc": "2.0", "method": "eth_chainId", "id": 8, "params": {"a": 1}}',
        error(8, -32602),
      ],
      [
        "too many params",
        '{"jsonrpc": "2.0", "method": "eth_chainId", "id": 9, "params": [1,2,3,4,5]}',
        error(9, -32602),
      ],
      ["not an object", "42", error(null, -32600)],
      ["null", "null", error(null, -32600)],
      ["an empty batch", "[]", error(null, -32600)],
    ];
    for (const [name, body, expected] of cases) {
      const answer = await post(body);
      expect(answer.status, name).toBe(200);
      expect(answer.body, name).toEqual(expected);
    }
  });

  it("passes the bundler's own errors on as they came, with the caller's id", async () => {
    const { body } = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "gas",
        // A method the proxy relays without a check of its own (an operation's parameters are checked by
        // the wallets module first, decision 186): what Alto answers comes back as it came.
        method: "eth_getUserOperationReceipt",
        params: ["0x12"],
      }),
    );
    // Alto 0.0.20's own answer to a hash that is not 32 bytes (the proxy's messages are its own).
    expect(body).toEqual({
      jsonrpc: "2.0",
      id: "gas",
      error: { code: -32602, message: "Missing/invalid userOpHash" },
    });
  });

  it("does not execute or answer notifications", async () => {
    const single = await post('{"jsonrpc": "2.0", "method": "eth_supportedEntryPoints", "params": []}');
    expect(single).toEqual({ status: 204, body: "" });
    const unknown = await post('{"jsonrpc": "2.0", "method": "foobar"}');
    expect(unknown).toEqual({ status: 204, body: "" });
    const batch = await post(
      '[{"jsonrpc": "2.0", "method": "eth_chainId"}, {"jsonrpc": "2.0", "method": "eth_supportedEntryPoints"}]',
    );
    expect(batch).toEqual({ status: 204, body: "" });
  });

  it("answers a batch with an array: each call refused with -32005 (one call per request), each invalid element -32600", async () => {
    const { status, body } = await post(`[
      {"jsonrpc": "2.0", "method": "eth_chainId", "params": [], "id": "1"},
      {"jsonrpc": "2.0", "method": "eth_chainId", "params": []},
      {"jsonrpc": "2.0", "method": "eth_supportedEntryPoints", "params": [], "id": 2},
      {"foo": "boo"},
      {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
      1
    ]`);
    expect(status).toBe(200);
    expect(body).toEqual([
      error("1", -32005),
      error(2, -32005),
      error(null, -32600),
      error("5", -32601),
      error(null, -32600),
    ]);
    const numbers = await post("[1,2,3]");
    expect(numbers.body).toEqual([error(null, -32600), error(null, -32600), error(null, -32600)]);
  });

  it("keeps its HTTP-level refusals: signed out 401, another content type 415", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/v1/bundler",
      payload: { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
    });
    expect(anonymous.statusCode).toBe(401);
    const text = await t.app.inject({
      method: "POST",
      url: "/api/v1/bundler",
      headers: { cookie, "content-type": "text/plain" },
      payload: '{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}',
    });
    expect(text.statusCode).toBe(415);
  });

  it("offers exactly the methods the local bundler answers", () => {
    expect([...BUNDLER_METHODS].sort()).toEqual([...LOCAL_BUNDLER_METHODS].sort());
  });
});

describe("viem's bundler client through the proxy", () => {
  const client = (opts: { batch?: boolean } = {}) =>
    createBundlerClient({
      client: createPublicClient({ chain: foundry, transport: http(t.ctx.chain!.rpcUrl) }),
      transport: http(proxyUrl, {
        fetchOptions: { headers: { cookie, origin: ORIGIN } },
        retryCount: 0,
        batch: opts.batch,
      }),
    });

  it("works, and sees the JSON-RPC errors as viem's RPC errors", async () => {
    const bc = client();
    expect(await bc.getSupportedEntryPoints()).toEqual([ENTRY_POINT]);
    expect(await bc.getChainId()).toBe(31337);
    await expect(bc.getUserOperationReceipt({ hash: `0x${"00".repeat(32)}` })).rejects.toBeInstanceOf(
      UserOperationReceiptNotFoundError,
    );

    const notFound = await bc
      .request({ method: "eth_sendRawTransaction" as never, params: ["0x00"] as never })
      .catch((e) => e);
    expect(notFound).toBeInstanceOf(MethodNotFoundRpcError);
    expect(notFound).not.toBeInstanceOf(HttpRequestError);
    expect(notFound.code).toBe(-32601);

    const badParams = await bc
      .request({ method: "eth_chainId" as never, params: [1, 2, 3, 4, 5] as never })
      .catch((e) => e);
    expect(badParams).toBeInstanceOf(InvalidParamsRpcError);
    expect(badParams.code).toBe(-32602);
  });

  it("a batching transport gets each call's -32005 as LimitExceededRpcError", async () => {
    const bc = client({ batch: true });
    const [a, b] = await Promise.allSettled([bc.getSupportedEntryPoints(), bc.getChainId()]);
    for (const settled of [a, b]) {
      expect(settled.status).toBe("rejected");
      const reason = (settled as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(LimitExceededRpcError);
      expect(reason.code).toBe(-32005);
    }
  });
});
