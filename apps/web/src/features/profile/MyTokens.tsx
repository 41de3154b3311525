import type { MarketToken, tokenEndpoints } from "@diginoor/api/chain";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useBlock } from "wagmi";
import { callApi } from "../../lib/api.ts";
import { useLiveFallback } from "../../lib/live-streams.ts";
import { type ReadyChain, useChainInfo, useLinkedWallets } from "../../lib/wallet/chain.ts";
import { walletErrorMessage } from "../../lib/wallet/errors.ts";
import { useMarketActions } from "../../lib/wallet/market.ts";
import { OwnerListing } from "../../lib/wallet/OwnerListing.tsx";
import { WalletProgress } from "../../lib/wallet/WalletProgress.tsx";
import { WithWallet } from "../../lib/wallet/WithWallet.tsx";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TokenCard } from "../../ui/TokenCard.tsx";

/** Tokens held by (or up for auction from) the user's linked wallets, from the indexer. */
export function useMyTokens() {
  const wallets = useLinkedWallets(true);
  const addresses = wallets.data?.items.map((w) => w.address) ?? [];
  const fallback = useLiveFallback("market");
  const results = useQueries({
    queries: addresses.map((address) => ({
      queryKey: ["account-tokens", address],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        callApi<typeof tokenEndpoints.listAccountTokens>("GET /api/v1/accounts/{address}/tokens", {
          params: { address },
          signal,
        }),
      refetchInterval: fallback,
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
  const cards = (actions?: (t: MarketToken) => React.ReactNode) => (
    <ul className="token-cards">
      {shown.map((t) => (
        <li key={t.tokenId}>
          <TokenCard token={t} symbol={symbol} to={`/nftshowcase/${t.tokenId}`} />
          {actions?.(t)}
        </li>
      ))}
    </ul>
  );
  if (!onSale) return cards();
  // On Sale: each card carries its owner's actions, signed in the linked wallet.
  return (
    <WithWallet loading={cards()} unavailable={cards()}>
      {(chain) => <OnSaleCards chain={chain} render={cards} />}
    </WithWallet>
  );
}

function OnSaleCards({
  chain,
  render,
}: {
  chain: ReadyChain;
  render: (actions: (t: MarketToken) => React.ReactNode) => React.ReactNode;
}) {
  // Auctions end in the chain's time (ahead of ours on a development chain whose time was advanced).
  const block = useBlock({ chainId: chain.chainId, watch: true });
  const chainNow = Math.max(Date.now(), block.data ? Number(block.data.timestamp) * 1000 : 0);
  return (
    <>
      {render((t) => (
        <OnSaleActions chain={chain} token={t} chainNow={chainNow} />
      ))}
    </>
  );
}

/** Change price and remove (a listing), settle (an ended auction) or cancel (an auction without bids). */
function OnSaleActions({
  chain,
  token,
  chainNow,
}: {
  chain: ReadyChain;
  token: MarketToken;
  chainNow: number;
}) {
  const actions = useMarketActions(chain);
  const client = useQueryClient();
  const toast = useToast();
  const [progress, setProgress] = useState<string | null>(null);
  const symbol = chain.nativeSymbol ?? "ETH";
  const tokenId = BigInt(token.tokenId);
  async function act(run: () => Promise<unknown>, done: string) {
    try {
      await run();
      toast.success(done);
      await client.invalidateQueries({ queryKey: ["account-tokens"] });
    } catch (err) {
      toast.error(walletErrorMessage(err, symbol));
    } finally {
      setProgress(null);
    }
  }
  let body: React.ReactNode = null;
  if (token.listing) {
    body = (
      <OwnerListing
        onChangePrice={(wei) => act(() => actions.updatePrice(tokenId, wei, setProgress), "Price updated")}
        onRemove={() =>
          act(() => actions.cancelListing(tokenId, setProgress), "Removed from the marketplace")
        }
        busy={!!progress}
      />
    );
  } else if (token.auction && !token.auction.settled) {
    const ended = token.auction.endsAt !== null && Date.parse(token.auction.endsAt) <= chainNow;
    if (ended) {
      body = (
        <Button
          size="sm"
          block
          loading={!!progress}
          onClick={() => act(() => actions.settle(tokenId, setProgress), "Auction settled")}
        >
          Settle
        </Button>
      );
    } else if (!token.auction.highestBidder) {
      body = (
        <Button
          size="sm"
          variant="ghost"
          block
          loading={!!progress}
          onClick={() => act(() => actions.cancelAuction(tokenId, setProgress), "Auction cancelled")}
        >
          Cancel auction
        </Button>
      );
    }
  }
  if (!body) return null;
  return (
    <div className="onsale-actions">
      {body}
      <WalletProgress text={progress} note={false} />
    </div>
  );
}
