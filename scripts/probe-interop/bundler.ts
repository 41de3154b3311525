// `/api/v1/bundler` as the ERC-4337 clients see it: viem's JSON-RPC transport (its typed RPC errors
// by code), raw JSON-RPC 2.0 envelopes (batch, notification, parse error, string and null ids).
import { createClient, http } from "viem";
import { entryPoint08Address } from "viem/account-abstraction";
import type { Check, Client } from "./client.ts";

const ENTRY_POINT_V08 = entryPoint08Address.toLowerCase();

/** The code of viem's RPC error (walking its causes), or a description of what else it threw. */
function rpcCode(err: unknown): string {
  let e = err as { code?: number; name?: string; cause?: unknown } | undefined;
  while (e) {
    if (typeof e.code === "number") return `${e.name ?? "Error"} ${e.code}`;
    e = e.cause as typeof e;
  }
  return (err as Error)?.name ?? String(err);
}

export async function interopBundlerChecks(base: string, fan: Client): Promise<Check[]> {
  const out: Check[] = [];
  const check = (probe: string, expected: string, observed: string, ok: boolean) =>
    out.push({ area: "viem", probe, expected, observed, ok });
  const url = `${base}/api/v1/bundler`;
  const viem = createClient({
    transport: http(url, { fetchOptions: { headers: fan.headers() }, retryCount: 0 }),
  });

  const entryPoints = (await viem.request({ method: "eth_supportedEntryPoints" } as never)) as string[];
  check(
    "eth_supportedEntryPoints through the proxy",
    "EntryPoint v0.8",
    JSON.stringify(entryPoints),
    Array.isArray(entryPoints) && entryPoints.map((a) => a.toLowerCase()).includes(ENTRY_POINT_V08),
  );
  const chainId = await viem.request({ method: "eth_chainId" } as never);
  check(
    "eth_chainId through the proxy",
    "a hex chain id",
    String(chainId),
    /^0x[0-9a-f]+$/.test(String(chainId)),
  );

  for (const [method, code] of [
    ["eth_sendTransaction", -32601],
    ["boost_sendUserOperation", -32601],
    ["debug_bundler_clearState", -32601],
  ] as const) {
    let observed = "answered";
    try {
      await viem.request({ method, params: [] } as never);
    } catch (err) {
      observed = rpcCode(err);
    }
    check(
      `${method} (not a wallet's method)`,
      `JSON-RPC error ${code}`,
      observed,
      observed.endsWith(String(code)),
    );
  }
  {
    let observed = "answered";
    try {
      await viem.request({ method: "eth_getUserOperationByHash", params: ["0x1234"] } as never);
    } catch (err) {
      observed = rpcCode(err);
    }
    check(
      "eth_getUserOperationByHash with a malformed hash",
      "JSON-RPC error -32602",
      observed,
      observed.endsWith("-32602"),
    );
  }

  const raw = async (body: string) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { ...fan.headers(), "content-type": "application/json" },
      body,
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {}
    return {
      status: res.status,
      text,
      json: json as { id?: unknown; error?: { code?: number } } | undefined,
    };
  };
  const envelope = (
    label: string,
    body: string,
    expected: string,
    test: (r: Awaited<ReturnType<typeof raw>>) => boolean,
  ) =>
    raw(body).then((r) =>
      out.push({
        area: "JSON-RPC 2.0",
        probe: label,
        expected,
        observed: `${r.status} ${r.text.slice(0, 120)}`,
        ok: test(r),
      }),
    );
  await envelope(
    "a string id",
    JSON.stringify({ jsonrpc: "2.0", id: "probe-1", method: "eth_chainId", params: [] }),
    'the result with id "probe-1"',
    (r) => r.status === 200 && r.json?.id === "probe-1",
  );
  await envelope(
    "an unknown method",
    JSON.stringify({ jsonrpc: "2.0", id: 7, method: "no_such_method", params: [] }),
    "error -32601 with id 7",
    (r) => r.json?.id === 7 && r.json?.error?.code === -32601,
  );
  await envelope(
    "not JSON",
    '{"jsonrpc":"2.0","id":1,"method":',
    "error -32700 with id null",
    (r) => r.json?.id === null && r.json?.error?.code === -32700,
  );
  await envelope(
    "an invalid request (no method)",
    JSON.stringify({ jsonrpc: "2.0", id: 8 }),
    "error -32600",
    (r) => r.json?.error?.code === -32600,
  );
  await envelope(
    "an empty batch",
    "[]",
    "error -32600 with id null",
    (r) => r.json?.id === null && r.json?.error?.code === -32600,
  );
  await envelope(
    "a batch of two",
    JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
      { jsonrpc: "2.0", id: 2, method: "no_such_method", params: [] },
    ]),
    "an array of answers, or one JSON-RPC error",
    (r) =>
      (Array.isArray(r.json) && r.json.length === 2) ||
      (!Array.isArray(r.json) && typeof r.json?.error?.code === "number"),
  );
  await envelope(
    "a notification (no id)",
    JSON.stringify({ jsonrpc: "2.0", method: "eth_chainId", params: [] }),
    "no answer body",
    (r) => r.status === 204 || (r.status === 200 && r.text === ""),
  );
  return out;
}
