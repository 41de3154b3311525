import type { NftDetail, catalogueEndpoints } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

/** GET /api/v1/nfts/:id */
export function getNft(id: string, signal?: AbortSignal): Promise<NftDetail> {
  return callApi<typeof catalogueEndpoints.getNft>("GET /api/v1/nfts/{id}", { params: { id }, signal });
}

export function useNft(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ["nft", id], queryFn: ({ signal }) => getNft(id, signal), ...options });
}
