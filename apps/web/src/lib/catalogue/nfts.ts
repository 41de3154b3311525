import type { catalogueEndpoints, ListNftsQuery, NftListResponse } from "@diginoor/api/catalogue";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

export type NftListFilters = Omit<ListNftsQuery, "cursor" | "limit">;

/** GET /api/v1/nfts */
export function getNfts(
  filters: NftListFilters & { cursor?: string; limit?: string },
  signal?: AbortSignal,
): Promise<NftListResponse> {
  const query = Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && v !== null && v !== ""),
  ) as typeof filters;
  return callApi<typeof catalogueEndpoints.listNfts>("GET /api/v1/nfts", { query, signal });
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
