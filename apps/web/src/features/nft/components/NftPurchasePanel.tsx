import type { NftDetail } from "@diginoor/api/catalogue";
import { useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { formatUsd } from "../../../lib/format.ts";
import { useCurrentUser } from "../../../lib/session.ts";
import { Button } from "../../../ui/Button.tsx";
import { Countdown } from "../../../ui/Countdown.tsx";
import { EmptyState } from "../../../ui/EmptyState.tsx";

/** Price and the main action: PURCHASE for fixed-price NFTs, Place a bid for auctions. */
export function NftPurchasePanel({ nft }: { nft: NftDetail }) {
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const soldOut = nft.editionsAvailable === 0;
  const auction = nft.saleType === "auction";
  // Set when a signed-in user presses the button: checkout and bidding do not exist yet.
  const [notOpen, setNotOpen] = useState(false);

  function onAction() {
    if (!user) {
      // The login page says why ('Sign in to buy …') from `intent` and comes back to `next` after.
      const next = encodeURIComponent(location.pathname + location.search);
      navigate(`/login?next=${next}&intent=${auction ? "bid" : "buy"}`);
      return;
    }
    setNotOpen(true);
  }

  const notice = notOpen ? (
    <p className="nft-panel-closed" role="status">
      {auction
        ? "Bidding is not open yet. No bid was placed and nothing was charged."
        : "Checkout is not open yet. No order was placed and nothing was charged."}
    </p>
  ) : null;

  if (auction) {
    return (
      <section className="nft-panel" aria-labelledby="nft-panel-title">
        <h2 id="nft-panel-title" className="visually-hidden">
          Auction
        </h2>
        <dl className="nft-price-grid">
          <div>
            <dt>Current bid</dt>
            <dd className="price-none">No bids yet</dd>
          </div>
          <div>
            <dt>Reserve price</dt>
            <dd className="tabular" data-testid="nft-price">
              {formatUsd(nft.priceUsdCents)}
            </dd>
          </div>
        </dl>
        <div className="nft-clock">
          <p className="nft-clock-label">{nft.auctionEndsAt ? "Auction ends in" : "Auction clock"}</p>
          <Countdown endsAt={nft.auctionEndsAt} />
        </div>
        <Button size="lg" block onClick={onAction} disabled={soldOut}>
          {soldOut ? "Auction closed" : "Place a bid"}
        </Button>
        {notice}
        <p className="nft-panel-note">
          Bidding is not open yet. When it opens, auctions are paid in crypto from your connected wallet.
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
          <dd className="tabular" data-testid="nft-price">
            {formatUsd(nft.priceUsdCents)}
          </dd>
        </div>
        <div>
          <dt>Available</dt>
          <dd className="tabular">
            {nft.editionsAvailable} of {nft.editionSize}
          </dd>
        </div>
      </dl>
      <Button size="lg" block onClick={onAction} disabled={soldOut}>
        {soldOut ? "Sold out" : "Purchase"}
      </Button>
      {notice}
      <p className="nft-panel-note">
        Checkout is not open yet. When it opens, you pay by card or crypto and the NFT is delivered to your
        wallet.
      </p>
    </section>
  );
}

/** Bid history or sale history. Nothing is recorded until the trading flows go live, so it is empty for now. */
export function NftHistory({ nft }: { nft: NftDetail }) {
  const auction = nft.saleType === "auction";
  return (
    <section className="nft-section" aria-labelledby="nft-history-title">
      <h2 id="nft-history-title">{auction ? "Bid history" : "Sale history"}</h2>
      <EmptyState title={auction ? "No bids yet" : "No sales yet"}>
        {auction
          ? "Bids will be listed here with their transaction id, value and transaction. Be the first to bid."
          : "Sales will be listed here with their transaction id, price and transaction. Be the first collector."}
      </EmptyState>
    </section>
  );
}
