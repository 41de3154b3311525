import type { NonceResponse, RatesResponse, Wallet, WalletListResponse } from "@diginoor/api/wallets";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../lib/api.ts";

/** GET /api/v1/chain: the configured chain, for the wallet code. */
export interface ChainInfo {
  enabled: boolean;
  chainId: number | null;
  rpcUrl: string | null;
  chainName: string | null;
  nativeSymbol: string | null;
  walletConnectProjectId: string | null;
}

export function useChainInfo() {
  return useQuery({
    queryKey: ["chain"],
    queryFn: ({ signal }) => apiFetch<ChainInfo>("/api/v1/chain", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useRates() {
  return useQuery({
    queryKey: ["rates"],
    queryFn: ({ signal }) => apiFetch<RatesResponse>("/api/v1/rates", { signal }),
    staleTime: 60_000,
  });
}

export const walletsQueryKey = ["wallets"] as const;

export function useLinkedWallets(enabled: boolean) {
  return useQuery({
    queryKey: walletsQueryKey,
    queryFn: ({ signal }) => apiFetch<WalletListResponse>("/api/v1/wallets", { signal }),
    enabled,
  });
}

export const walletApi = {
  nonce: () => apiFetch<NonceResponse>("/api/v1/wallets/nonce", { method: "POST", body: {} }),
  link: (message: string, signature: string) =>
    apiFetch<Wallet>("/api/v1/wallets", { method: "POST", body: { message, signature } }),
  makeReceiving: (address: string) =>
    apiFetch<Wallet>(`/api/v1/wallets/${address}`, { method: "PATCH", body: { receivesPurchases: true } }),
  unlink: (address: string) => apiFetch<undefined>(`/api/v1/wallets/${address}`, { method: "DELETE" }),
};
