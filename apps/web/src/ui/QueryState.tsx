import type { ReactNode } from "react";
import { ErrorState } from "./ErrorState.tsx";

/**
 * The part of a TanStack Query result (`useQuery`, `useInfiniteQuery`, `useSuspenseQuery`) that
 * QueryState reads. Plain data keeps it testable and lets a hook that merges several queries pass
 * its own.
 */
export interface QueryLike<TData> {
  data: TData | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface QueryStateProps<TData> {
  query: QueryLike<TData>;
  /** Shown while there is neither data nor an error (keeps the page's `data-skeleton`/`data-loading` markers). */
  loading: ReactNode;
  /** Title of the default error state (role="alert" with a Retry that refetches). */
  errorTitle?: string;
  /**
   * Replaces the default error state; `null` shows nothing, for a section whose sibling already
   * shows the error of the same query.
   */
  error?: ReactNode;
  /** Wraps the default error state (a page that lays it out in a section of its own). */
  errorFrame?: (state: ReactNode) => ReactNode;
  /** Whether loaded data counts as empty; `empty` is shown instead of `children` then. */
  isEmpty?: (data: TData) => boolean;
  /** Shown for empty data; a function gets the data (an empty state naming the film, say). */
  empty?: ReactNode | ((data: TData) => ReactNode);
  children: (data: TData) => ReactNode;
}

/**
 * One place for the loading / error / empty / data branching of a query.
 *
 * Data wins: once a query has data, a failed background refetch (or a failed "load more" of an
 * infinite query, see LoadMore) keeps it on screen rather than replacing it with an error. Without
 * data, an error shows ErrorState whose Retry calls `refetch` and spins while it runs; anything else
 * (pending) shows `loading`. The result depends on the query's state alone, so the server and the
 * hydrating browser render the same markup from the same cache.
 */
export function QueryState<TData>({
  query,
  loading,
  errorTitle,
  error,
  errorFrame = (state) => state,
  isEmpty,
  empty = null,
  children,
}: QueryStateProps<TData>): ReactNode {
  if (query.data !== undefined) {
    if (!isEmpty?.(query.data)) return children(query.data);
    return typeof empty === "function" ? empty(query.data) : empty;
  }
  if (query.isError) {
    if (error !== undefined) return error;
    return errorFrame(
      <ErrorState
        title={errorTitle}
        error={query.error}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />,
    );
  }
  return loading;
}

/** `errorFrame` of a page whose error state stands alone in the page container. */
export const containerFrame = (state: ReactNode) => <div className="container section">{state}</div>;
