import { type Chain, createPublicClient, defineChain, http } from "viem";
import { polygon, polygonAmoy } from "viem/chains";
import type { ChainInfo } from "./chain.ts";

/** The viem chain of the configured chain id (Polygon's own definitions, with their public RPC, when it is Polygon). */
export function chainOf(info: ChainInfo & { chainId: number }): Chain {
  if (info.chainId === polygon.id) return polygon;
  if (info.chainId === polygonAmoy.id) return polygonAmoy;
  const symbol = info.nativeSymbol ?? "ETH";
  return defineChain({
    id: info.chainId,
    name: info.chainName ?? `Chain ${info.chainId}`,
    nativeCurrency: { name: symbol, symbol, decimals: 18 },
    rpcUrls: { default: { http: info.rpcUrl ? [info.rpcUrl] : [] } },
  });
}

/**
 * A client for the chain's reads, through the same RPC as the wallet code's (wagmi's): the server's for the
 * local chain, the chain's public one otherwise (Polygon's).
 */
export function chainReader(info: ChainInfo & { chainId: number }) {
  return createPublicClient({ chain: chainOf(info), transport: http(info.rpcUrl ?? undefined) });
}
