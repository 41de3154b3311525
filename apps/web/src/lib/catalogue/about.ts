import type { AboutResponse, catalogueEndpoints } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

/** GET /api/v1/about: partners and team. */
export function getAbout(signal?: AbortSignal): Promise<AboutResponse> {
  return callApi<typeof catalogueEndpoints.getAbout>("GET /api/v1/about", { signal });
}

export function useAbout() {
  return useQuery({ queryKey: ["about"], queryFn: ({ signal }) => getAbout(signal), staleTime: 10 * 60_000 });
}
