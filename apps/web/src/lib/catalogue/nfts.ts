import type { ListNftsQuery, NftListResponse } from "@diginoor/api/catalogue";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api.ts";

export type NftListFilters = Omit<ListNftsQuery, "cursor" | "limit">;

/** Builds the query string of GET /api/v1/nfts, dropping empty values. */
export function nftListSearch(filters: NftListFilters & { cursor?: string; limit?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** GET /api/v1/nfts */
export function getNfts(
  filters: NftListFilters & { cursor?: string; limit?: string },
  signal?: AbortSignal,
): Promise<NftListResponse> {
  return apiFetch<NftListResponse>(`/api/v1/nfts${nftListSearch(filters)}`, { signal });
}

export const nftsQueryKey = (filters: object) => ["nfts", filters] as const;

/** One page of NFTs (e.g. the first five auctions). */
export function useNfts(filters: NftListFilters & { limit?: string }) {
  return useQuery({
    queryKey: nftsQueryKey(filters),
    queryFn: ({ signal }) => getNfts(filters, signal),
  });
}

/** NFTs with "Load more" cursor pagination. */
export function useInfiniteNfts(filters: NftListFilters, pageSize = 24) {
  return useInfiniteQuery({
    queryKey: [...nftsQueryKey(filters), "infinite", pageSize],
    queryFn: ({ signal, pageParam }) =>
      getNfts({ ...filters, limit: String(pageSize), cursor: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
