import { Button } from "./Button.tsx";

/** The part of a `useInfiniteQuery` result that LoadMore reads. */
export interface InfiniteQueryLike {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

/**
 * The "Load more" button under a list of an infinite query: shown while there is a next page,
 * spinning while it loads; a failed page leaves the list as it is and says so (role="alert"), and
 * the same button tries again.
 */
export function LoadMore({
  query,
  label = "Load more",
  className = "load-more",
  errorMessage = "Couldn't load more. Please retry.",
  errorClassName = "field-error load-more",
}: {
  query: InfiniteQueryLike;
  label?: string;
  /** Class of the button's wrapper. */
  className?: string;
  errorMessage?: string;
  errorClassName?: string;
}) {
  return (
    <>
      {query.hasNextPage ? (
        <div className={className}>
          <Button
            variant="secondary"
            onClick={() => query.fetchNextPage()}
            loading={query.isFetchingNextPage}
          >
            {label}
          </Button>
        </div>
      ) : null}
      {query.isFetchNextPageError ? (
        <p className={errorClassName} role="alert">
          {errorMessage}
        </p>
      ) : null}
    </>
  );
}
