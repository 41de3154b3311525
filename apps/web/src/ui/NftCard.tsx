import type { NftSummary } from "@diginoor/api/catalogue";
import { Link } from "react-router";
import { shareLink } from "../lib/share.ts";
import { Countdown } from "./Countdown.tsx";
import { ShareIcon } from "./icons.tsx";
import { LikeButton } from "./LikeButton.tsx";
import { Price } from "./Price.tsx";
import { Skeleton } from "./Skeleton.tsx";
import { TierBadge } from "./TierBadge.tsx";
import { useToast } from "./Toast.tsx";

/**
 * The NFT card: one link to the detail page covering the card, with like and share as
 * separate buttons above it. Likes are stored on the server; visitors who like are sent to sign in.
 */
export function NftCard({ nft, eager = false }: { nft: NftSummary; eager?: boolean }) {
  const toast = useToast();
  const href = `/nftdetail/${encodeURIComponent(nft.id)}`;

  async function onShare() {
    const result = await shareLink({ title: nft.title, url: href });
    if (result === "copied") toast.success("Link copied to clipboard");
    else if (result === "failed")
      toast.error("Couldn't share the link. Copy it from the address bar instead.");
  }

  return (
    <article className={`nft-card tier-${nft.tier}`} data-testid="nft-card">
      <div className="nft-card-media">
        <img
          src={nft.thumbnailUrl}
          alt={`${nft.title}: ${nft.celebrity.name} in ${nft.film.name}`}
          loading={eager ? "eager" : "lazy"}
          // Cards shown first can be the page's largest paint: fetched before the scripts.
          fetchPriority={eager ? "high" : undefined}
          decoding="async"
          width={600}
          height={750}
        />
      </div>
      {/* Badge and like/share sit under the art, never over it: the artwork carries its own labels. */}
      <div className="nft-card-body">
        <TierBadge tier={nft.tier} className="nft-card-badge" />
        <h3 className="nft-card-title">
          <Link to={href} className="nft-card-link">
            {nft.title}
          </Link>
        </h3>
        <p className="nft-card-meta">
          {nft.film.name} · {nft.celebrity.name}
        </p>
        {nft.saleType === "auction" ? (
          <div className="nft-card-price">
            <span className="nft-card-price-label">Reserve</span>
            <Price usdCents={nft.priceUsdCents} className="nft-card-price-value" stacked />
            <span className="nft-card-clock">
              <Countdown endsAt={nft.auctionEndsAt} compact />
            </span>
          </div>
        ) : (
          <div className="nft-card-price">
            <span className="nft-card-price-label">Price</span>
            <Price usdCents={nft.priceUsdCents} className="nft-card-price-value" stacked />
            <span className="nft-card-editions tabular">
              {nft.editionsAvailable} of {nft.editionSize} left
            </span>
          </div>
        )}
        <div className="nft-card-actions">
          <LikeButton nftId={nft.id} title={nft.title} className="icon-btn like-btn" />
          <button type="button" className="icon-btn" aria-label={`Share ${nft.title}`} onClick={onShare}>
            <ShareIcon />
          </button>
        </div>
      </div>
    </article>
  );
}

/** Placeholder with the card's exact shape. */
export function NftCardSkeleton() {
  return (
    <div className="nft-card nft-card-skeleton" aria-hidden="true">
      <Skeleton className="nft-card-media" radius="0" height="auto" style={{ aspectRatio: "4 / 5" }} />
      <div className="nft-card-body">
        <Skeleton height="1.2em" width="80%" />
        <Skeleton height="0.9em" width="55%" style={{ marginTop: 8 }} />
        <Skeleton height="1.4em" width="40%" style={{ marginTop: 16 }} />
      </div>
    </div>
  );
}

/** A responsive grid of cards (1 per row on mobile, more as space allows). */
export function NftGrid({ items, eagerCount = 0 }: { items: NftSummary[]; eagerCount?: number }) {
  return (
    <ul className="nft-grid">
      {items.map((nft, i) => (
        <li key={nft.id}>
          <NftCard nft={nft} eager={i < eagerCount} />
        </li>
      ))}
    </ul>
  );
}

export function NftGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div className="nft-grid" aria-busy="true" data-loading="">
      <span className="visually-hidden">Loading NFTs</span>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <NftCardSkeleton key={i} />
      ))}
    </div>
  );
}
