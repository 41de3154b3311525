import type { AboutResponse } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api.ts";

/** GET /api/v1/about: partners and team. */
export function getAbout(signal?: AbortSignal): Promise<AboutResponse> {
  return apiFetch<AboutResponse>("/api/v1/about", { signal });
}

export function useAbout() {
  return useQuery({ queryKey: ["about"], queryFn: ({ signal }) => getAbout(signal), staleTime: 10 * 60_000 });
}
