import type { NftSummary } from "@diginoor/api/catalogue";
import type { ReactNode } from "react";
import { type InfiniteQueryLike, LoadMore } from "./LoadMore.tsx";
import { NftGrid, NftGridSkeleton } from "./NftCard.tsx";
import { type QueryLike, QueryState } from "./QueryState.tsx";

/**
 * The NFTs of an infinite catalogue query (`items`, its pages flattened and filtered by the caller):
 * the grid with Load more, its skeleton, the error with Retry, or `empty` when there are none.
 */
export function NftResults({
  query,
  items,
  empty,
}: {
  query: QueryLike<unknown> & InfiniteQueryLike;
  items: NftSummary[];
  empty: ReactNode;
}) {
  return (
    <QueryState
      query={query}
      loading={<NftGridSkeleton count={8} />}
      errorTitle="We couldn't load the NFTs"
      isEmpty={() => items.length === 0}
      empty={empty}
    >
      {() => (
        <>
          <NftGrid items={items} />
          <LoadMore query={query} />
        </>
      )}
    </QueryState>
  );
}
