import type { blogEndpoints as api } from "@diginoor/api/blog";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { callApi } from "../../../lib/api.ts";

const PAGE = 12;

/** GET /api/v1/posts: the featured posts and the grid, a page at a time. */
export function usePosts() {
  return useInfiniteQuery({
    queryKey: ["posts"],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      callApi<typeof api.listPosts>("GET /api/v1/posts", {
        query: { limit: String(PAGE), ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** GET /api/v1/posts/:slug */
export function usePost(slug: string) {
  return useQuery({
    queryKey: ["post", slug],
    queryFn: ({ signal }) =>
      callApi<typeof api.getPost>("GET /api/v1/posts/{slug}", { params: { slug }, signal }),
  });
}
