import type { AccountTokens } from "@diginoor/api/chain";
import { useQueries } from "@tanstack/react-query";
import { apiFetch } from "../../lib/api.ts";
import { useChainInfo, useLinkedWallets } from "../../lib/wallet/chain.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TokenCard } from "../../ui/TokenCard.tsx";

/** Tokens held by (or up for auction from) the user's linked wallets, from the indexer. */
export function useMyTokens() {
  const wallets = useLinkedWallets(true);
  const addresses = wallets.data?.items.map((w) => w.address) ?? [];
  const results = useQueries({
    queries: addresses.map((address) => ({
      queryKey: ["account-tokens", address],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiFetch<AccountTokens>(`/api/v1/accounts/${address}/tokens`, { signal }),
      refetchInterval: 10_000,
    })),
  });
  return {
    wallets: wallets.data?.items ?? [],
    isPending: wallets.isPending || results.some((r) => r.isPending),
    tokens: results.flatMap((r) => r.data?.items ?? []),
  };
}

/** The Showcase and On Sale tabs: owned tokens, each opening its sale page. */
export function MyTokens({ onSale }: { onSale: boolean }) {
  const { wallets, isPending, tokens } = useMyTokens();
  const symbol = useChainInfo().data?.nativeSymbol ?? "ETH";
  if (isPending) return <Skeleton height={200} />;
  if (wallets.length === 0) {
    return (
      <EmptyState
        title={onSale ? "Nothing on sale" : "Your showcase is empty"}
        action={<ButtonLink to="/wallet">Connect a wallet</ButtonLink>}
      >
        NFTs you buy go to the wallet you link to your account. Link one to see them here and put them up for
        sale.
      </EmptyState>
    );
  }
  const shown = tokens.filter((t) => (onSale ? t.listing || (t.auction && !t.auction.settled) : true));
  if (shown.length === 0) {
    return (
      <EmptyState
        title={onSale ? "Nothing on sale" : "Your showcase is empty"}
        action={
          <ButtonLink to="/marketplace" variant="secondary">
            Browse the marketplace
          </ButtonLink>
        }
      >
        {onSale
          ? "Open one of your NFTs and choose Put to Sale to sell it at a fixed price or by auction."
          : "NFTs you buy appear here, so fans can see your collection."}
      </EmptyState>
    );
  }
  return (
    <ul className="token-cards">
      {shown.map((t) => (
        <li key={t.tokenId}>
          <TokenCard token={t} symbol={symbol} to={`/nftshowcase/${t.tokenId}`} />
        </li>
      ))}
    </ul>
  );
}
