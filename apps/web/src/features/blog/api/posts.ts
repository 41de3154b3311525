import type { PostDetail, PostListResponse } from "@diginoor/api/blog";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api.ts";

const PAGE = 12;

/** GET /api/v1/posts: the featured posts and the grid, a page at a time. */
export function usePosts() {
  return useInfiniteQuery({
    queryKey: ["posts"],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiFetch<PostListResponse>(
        `/api/v1/posts?limit=${PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`,
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** GET /api/v1/posts/:slug */
export function usePost(slug: string) {
  return useQuery({
    queryKey: ["post", slug],
    queryFn: ({ signal }) => apiFetch<PostDetail>(`/api/v1/posts/${encodeURIComponent(slug)}`, { signal }),
  });
}
