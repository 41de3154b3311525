import type { ChainInfo as ApiChainInfo, chainEndpoints } from "@diginoor/api/chain";
import type { walletEndpoints } from "@diginoor/api/wallets";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

/** GET /api/v1/chain: the configured chain and our contracts, for the wallet code. */
export type ChainInfo = ApiChainInfo;
/** A chain info whose chain is configured. */
export type ReadyChain = ChainInfo & { chainId: number; marketplace: string; collectible: string };

export function useChainInfo() {
  return useQuery({
    queryKey: ["chain"],
    queryFn: ({ signal }) => callApi<typeof chainEndpoints.getChain>("GET /api/v1/chain", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function readyChain(info: ChainInfo | undefined): ReadyChain | undefined {
  return info?.enabled && info.chainId !== null && info.marketplace && info.collectible
    ? (info as ReadyChain)
    : undefined;
}

export { useRates } from "../rates.ts";

export const walletsQueryKey = ["wallets"] as const;

/** GET /api/v1/wallets. */
export const fetchLinkedWallets = ({ signal }: { signal?: AbortSignal }) =>
  callApi<typeof walletEndpoints.listWallets>("GET /api/v1/wallets", { signal });

/** The signed-in user's linked wallets. */
export function useLinkedWallets(enabled: boolean) {
  return useQuery({
    queryKey: walletsQueryKey,
    queryFn: fetchLinkedWallets,
    enabled,
  });
}

/** The configured chain's name and currency ("Local chain", "ETH"), from GET /api/v1/chain; null without one. */
export function useChainLabel(): { name: string; symbol: string } | null {
  const info = useChainInfo().data;
  return info?.enabled && info.chainName && info.nativeSymbol
    ? { name: info.chainName, symbol: info.nativeSymbol }
    : null;
}
