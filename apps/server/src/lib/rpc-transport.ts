import { type HttpTransportConfig, type Transport, fallback, http } from "viem";

/**
 * The transport for CHAIN_RPC_URL's endpoints: one URL is plain HTTP; several are viem's fallback
 * transport, which sends each request to the first endpoint that answers (in the order given), so
 * losing one endpoint changes nothing a user sees.
 */
export function rpcTransport(urls: readonly string[], opts: HttpTransportConfig = {}): Transport {
  if (urls.length === 0) throw new Error("rpcTransport: no RPC URL");
  if (urls.length === 1) return http(urls[0], opts);
  return fallback(
    urls.map((u) => http(u, { ...opts, retryCount: 0 })),
    { retryCount: opts.retryCount ?? 3 },
  );
}
