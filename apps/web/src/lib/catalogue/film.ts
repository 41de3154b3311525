import type { FilmDetail, catalogueEndpoints } from "@diginoor/api/catalogue";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../api.ts";

/** GET /api/v1/films/:slug (slugs are lowercase). */
export function getFilm(slug: string, signal?: AbortSignal): Promise<FilmDetail> {
  return callApi<typeof catalogueEndpoints.getFilm>("GET /api/v1/films/{slug}", {
    params: { slug: slug.toLowerCase() },
    signal,
  });
}

export function useFilm(slug: string) {
  return useQuery({ queryKey: ["film", slug.toLowerCase()], queryFn: ({ signal }) => getFilm(slug, signal) });
}

/** Films with a page at the site's root since launch (/kabali …); other films live under /films/. */
export const rootFilmSlugs = ["kabali", "sivaji", "chandramukhi", "pasumainayaganvivek"] as const;

/** The page of a film. */
export function filmPath(slug: string): string {
  return (rootFilmSlugs as readonly string[]).includes(slug.toLowerCase()) ? `/${slug}` : `/films/${slug}`;
}
