import type { NftDetail } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api.ts";

/** GET /api/v1/nfts/:id */
export function getNft(id: string, signal?: AbortSignal): Promise<NftDetail> {
  return apiFetch<NftDetail>(`/api/v1/nfts/${encodeURIComponent(id)}`, { signal });
}

export function useNft(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ["nft", id], queryFn: ({ signal }) => getNft(id, signal), ...options });
}
