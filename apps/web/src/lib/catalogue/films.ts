import type { FilmSummary, catalogueEndpoints } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

/** GET /api/v1/films */
export function getFilms(signal?: AbortSignal): Promise<{ items: FilmSummary[] }> {
  return callApi<typeof catalogueEndpoints.listFilms>("GET /api/v1/films", { signal });
}

export function useFilms() {
  return useQuery({ queryKey: ["films"], queryFn: ({ signal }) => getFilms(signal), staleTime: 5 * 60_000 });
}
