import type { CollectionsResponse, catalogueEndpoints } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

/** GET /api/v1/collections: featured, hot, top sellers and the filter values. */
export function getCollections(signal?: AbortSignal): Promise<CollectionsResponse> {
  return callApi<typeof catalogueEndpoints.getCollections>("GET /api/v1/collections", { signal });
}

export function useCollections() {
  return useQuery({
    queryKey: ["collections"],
    queryFn: ({ signal }) => getCollections(signal),
    staleTime: 5 * 60_000,
  });
}
