import type { MarketToken } from "@diginoor/api/chain";
import { renditionSrcSet } from "@diginoor/api/media";
import { Link } from "react-router";
import { Price } from "./Price.tsx";

/** A token on the chain as a small card: art, title and edition, and what it is doing (sale, auction). */
export function TokenCard({ token, symbol, to }: { token: MarketToken; symbol: string; to: string }) {
  const live = token.auction && !token.auction.settled ? token.auction : null;
  const [label, wei] = token.listing
    ? ["On sale for", token.listing.priceWei]
    : live
      ? live.highestBidWei
        ? ["Highest bid", live.highestBidWei]
        : ["Auction, reserve", live.reserveWei]
      : ["Not on sale", null];
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
      <span className="token-card__status">
        {label}
        {wei ? (
          <>
            {" "}
            <Price wei={wei} symbol={symbol} stacked />
          </>
        ) : null}
      </span>
    </Link>
  );
}
