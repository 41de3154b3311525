import type { NftDetail } from "@diginoor/api/catalogue";
import type { tokenEndpoints } from "@diginoor/api/chain";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { callApi } from "../../../lib/api.ts";
import { shortAddress } from "../../../lib/format.ts";
import { useLiveFallback } from "../../../lib/live-streams.ts";
import { useChainInfo } from "../../../lib/wallet/chain.ts";
import { useLocation, useNavigate } from "react-router";
import { useCheckoutOptions } from "../checkout/api.ts";
import { Price } from "../../../ui/Price.tsx";
import { useCurrentUser } from "../../../lib/session.ts";
import { Button } from "../../../ui/Button.tsx";
import { Dialog } from "../../../ui/Dialog.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { ClientOnly } from "../../../ui/ClientOnly.tsx";
import { Spinner } from "../../../ui/Spinner.tsx";
import { EmptyState } from "../../../ui/EmptyState.tsx";
import { QueryState } from "../../../ui/QueryState.tsx";

// Wallet code (wagmi, viem, connectors) loads only when a buyer opens the checkout or an auction shows.
const WalletCheckout = lazy(() => import("../checkout/WalletCheckout.tsx"));
const PrimaryAuction = lazy(() => import("../checkout/PrimaryAuction.tsx"));

/** Price and the main action: PURCHASE for fixed-price NFTs (paid from a wallet), the live auction otherwise. */
export function NftPurchasePanel({ nft }: { nft: NftDetail }) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const soldOut = nft.editionsAvailable === 0;
  const auction = nft.saleType === "auction";
  const [checkout, setCheckout] = useState(false);
  const options = useCheckoutOptions();

  function onPurchase() {
    if (!user) {
      // The login page says why ('Sign in to buy …') from `intent` and comes back to `next` after.
      const next = encodeURIComponent(location.pathname + location.search);
      navigate(`/login?next=${next}&intent=buy`);
      return;
    }
    setCheckout(true);
  }

  if (auction) {
    return (
      <section className="nft-panel" aria-labelledby="nft-panel-title">
        <h2 id="nft-panel-title" className="visually-hidden">
          Auction
        </h2>
        <p className="nft-reserve">
          Reserve price set by the studio:{" "}
          <strong>
            <Price usdCents={nft.priceUsdCents} testId="nft-price" />
          </strong>
        </p>
        <ClientOnly fallback={<Skeleton height={220} radius="var(--radius-lg)" />}>
          <Suspense fallback={<Skeleton height={220} radius="var(--radius-lg)" />}>
            <PrimaryAuction nft={nft} />
          </Suspense>
        </ClientOnly>
        <p className="nft-panel-note">
          Bids are paid in crypto from your linked wallet; an outbid bid is refunded at once. A bid in the
          last 15 minutes extends the auction by 15 minutes.
        </p>
      </section>
    );
  }
  return (
    <section className="nft-panel" aria-labelledby="nft-panel-title">
      <h2 id="nft-panel-title" className="visually-hidden">
        Buy now
      </h2>
      <dl className="nft-price-grid">
        <div>
          <dt>Price</dt>
          <dd>
            <Price usdCents={nft.priceUsdCents} stacked testId="nft-price" />
          </dd>
        </div>
        <div>
          <dt>Available</dt>
          <dd className="tabular">
            {nft.editionsAvailable} of {nft.editionSize}
          </dd>
        </div>
      </dl>
      <Button size="lg" block onClick={onPurchase} disabled={soldOut}>
        {soldOut ? "Sold out" : "Purchase"}
      </Button>
      <p className="nft-panel-note">{payNote(!!options.data?.card, !!options.data?.rupees)}</p>
      <Dialog open={checkout} onClose={() => setCheckout(false)} title={`Buy ${nft.title}`}>
        <Suspense fallback={<Spinner label="Loading the checkout" />}>
          <WalletCheckout nft={nft} />
        </Suspense>
      </Dialog>
    </section>
  );
}

/** How a fixed-price NFT can be paid, one whole sentence per case (so each can be translated). */
function payNote(card: boolean, rupees: boolean): string {
  if (card && rupees)
    return "Pay by card or in rupees by UPI, or with crypto from your own wallet. Your NFT is in your wallet within seconds.";
  if (card)
    return "Pay by card, or with crypto from your own wallet. Your NFT is in your wallet within seconds.";
  if (rupees)
    return "Pay in rupees by UPI, cards or net banking, or with crypto from your own wallet. Your NFT is in your wallet within seconds.";
  return "Pay with crypto from your linked wallet: the NFT is minted straight to it.";
}

const short = (a: string | null) => (a ? shortAddress(a) : "—");

/** Bid history or sale history of the NFT's tokens, from the indexer (newest first). */
/** The latest mints, transfers, bids and sales of an NFT's tokens (its page's history and "Where it lives"). */
export function useNftActivity(nftId: string) {
  const fallback = useLiveFallback("market");
  return useQuery({
    queryKey: ["nft-activity", nftId],
    queryFn: ({ signal }) =>
      callApi<typeof tokenEndpoints.listNftActivity>("GET /api/v1/nfts/{id}/activity", {
        params: { id: nftId },
        query: { limit: "20" },
        signal,
      }),
    refetchInterval: fallback,
  });
}

export function NftHistory({ nft }: { nft: NftDetail }) {
  const auction = nft.saleType === "auction";
  const activity = useNftActivity(nft.id);
  const symbol = useChainInfo().data?.nativeSymbol ?? "ETH";
  const items = (activity.data?.items ?? []).filter((i) =>
    auction ? i.kind === "bid" || i.kind === "sale" : i.kind === "sale",
  );
  return (
    <section className="nft-section" aria-labelledby="nft-history-title">
      <h2 id="nft-history-title">{auction ? "Bid history" : "Sale history"}</h2>
      <QueryState
        query={activity}
        loading={<Skeleton height={120} />}
        errorTitle={auction ? "We couldn't load the bid history" : "We couldn't load the sale history"}
        isEmpty={() => items.length === 0}
        empty={
          <EmptyState title={auction ? "No bids yet" : "No sales yet"}>
            {auction ? "Be the first to bid." : "Be the first collector."}
          </EmptyState>
        }
      >
        {() => (
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">{auction ? "Event" : "Sale"}</th>
                <th scope="col">{auction ? "Bidder / buyer" : "Buyer"}</th>
                <th scope="col">Value</th>
                <th scope="col">Transaction</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={`${i.txHash}-${i.kind}-${i.tokenId}`}>
                  <td>
                    {i.kind === "bid"
                      ? "Bid"
                      : i.saleKind === "primary"
                        ? "Purchase"
                        : i.saleKind === "auction"
                          ? "Auction won"
                          : "Resale"}
                  </td>
                  <td>
                    <code>{short(i.kind === "bid" ? i.from : i.to)}</code>
                  </td>
                  <td>{i.amountWei ? <Price wei={i.amountWei} symbol={symbol} stacked /> : "—"}</td>
                  <td>
                    <code title={i.txHash}>{short(i.txHash)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </section>
  );
}
