import type { MarketToken } from "@diginoor/api/chain";
import { renditionSrcSet } from "@diginoor/api/media";
import { Link } from "react-router";
import { formatNative } from "../lib/wallet/amounts.ts";

/** A token on the chain as a small card: art, title and edition, and what it is doing (sale, auction). */
export function TokenCard({ token, symbol, to }: { token: MarketToken; symbol: string; to: string }) {
  const status = token.listing
    ? `On sale for ${formatNative(token.listing.priceWei, symbol)}`
    : token.auction && !token.auction.settled
      ? token.auction.highestBidWei
        ? `Auction: ${formatNative(token.auction.highestBidWei, symbol)} bid`
        : `Auction: reserve ${formatNative(token.auction.reserveWei, symbol)}`
      : "Not on sale";
  return (
    <Link to={to} className={`token-card tier-${token.nft?.tier ?? "common"}`}>
      {token.nft ? (
        <img
          {...(renditionSrcSet(token.nft.imageUrl, 720) ?? { src: token.nft.imageUrl })}
          // Cards of at least 180 px, two to a row on phones (global.css .token-cards).
          sizes="(min-width: 768px) 240px, 50vw"
          alt=""
          width={240}
          height={300}
          loading="lazy"
          decoding="async"
        />
      ) : null}
      <span className="token-card__title">
        {token.nft?.title ?? "Token"} #{token.edition}
      </span>
      {token.nft ? (
        <span className="token-card__meta">
          {token.nft.tierLabel} · {token.nft.film}
        </span>
      ) : null}
      <span className="token-card__status">{status}</span>
    </Link>
  );
}
