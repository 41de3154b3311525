import type { NftDetail } from "@diginoor/api/catalogue";
import { renditionSrcSet } from "@diginoor/api/media";
import { Link, useLocation, useParams } from "react-router";
import { ApiError } from "../../../lib/api.ts";
import { filmPath } from "../../../lib/catalogue/film.ts";
import { useNft } from "../../../lib/catalogue/nft.ts";
import { editionsText, royaltyText, tierLabel } from "../../../lib/format.ts";
import { useDocumentTitle } from "../../../lib/hooks.ts";
import { useCurrentUser } from "../../../lib/session.ts";
import { useChainLabel } from "../../../lib/wallet/chain.ts";
import { shareLink } from "../../../lib/share.ts";
import { containerFrame, QueryState } from "../../../ui/QueryState.tsx";
import { ChevronIcon, ShareIcon } from "../../../ui/icons.tsx";
import { LikeButton } from "../../../ui/LikeButton.tsx";
import { NftGrid } from "../../../ui/NftCard.tsx";
import { NotFoundContent } from "../../../ui/NotFound.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { TierBadge } from "../../../ui/TierBadge.tsx";
import { useToast } from "../../../ui/Toast.tsx";
import { NftHistory, NftPurchasePanel, useNftActivity } from "../components/NftPurchasePanel.tsx";
import { WhereEditionsLive } from "../components/WhereItLives.tsx";
import "./nft.css";

function DetailSkeleton() {
  return (
    <div className="container nft-layout" data-loading="">
      <Skeleton height="auto" style={{ aspectRatio: "4 / 5" }} radius="var(--radius-lg)" />
      <div>
        <Skeleton width="30%" height={20} />
        <Skeleton width="80%" height={44} style={{ marginTop: 16 }} />
        <Skeleton width="60%" height={16} style={{ marginTop: 12 }} />
        <Skeleton width="100%" height={180} style={{ marginTop: 24 }} radius="var(--radius-lg)" />
      </div>
    </div>
  );
}

/** The art's drawn width: half the 1200 px container from 1024 px; 32svh wide on phones (nft.css). */
const ART_SIZES = "(min-width: 1024px) 580px, min(100vw, 32svh)";

function Media({ nft }: { nft: NftDetail }) {
  const location = useLocation();
  const toast = useToast();
  async function onShare() {
    const result = await shareLink({ title: nft.title, url: location.pathname });
    if (result === "copied") toast.success("Link copied to clipboard");
    else if (result === "failed")
      toast.error("Couldn't share the link. Copy it from the address bar instead.");
  }
  // The like and share buttons sit under the art (never over the artwork's own labels).
  return (
    <div className="nft-media-col">
      <div className={`nft-media tier-${nft.tier}`}>
        {nft.videoUrl ? (
          // biome-ignore lint/a11y/useMediaCaption: studio clips have no dialogue track to caption
          <video
            src={nft.videoUrl}
            poster={nft.imageUrl}
            controls
            preload="none"
            playsInline
            aria-label={nft.title}
          />
        ) : (
          <img
            // The page's largest paint: raster renditions at the drawn size, fetched before the scripts.
            {...(renditionSrcSet(nft.imageUrl) ?? { src: nft.imageUrl })}
            sizes={ART_SIZES}
            alt={`${nft.title}: ${nft.celebrity.name} in ${nft.film.name}`}
            width={600}
            height={750}
            fetchPriority="high"
            decoding="async"
          />
        )}
      </div>
      <div className="nft-media-actions">
        <LikeButton
          nftId={nft.id}
          title={nft.title}
          className="btn btn-secondary btn-sm nft-like"
          withLabel
        />
        <button type="button" className="icon-btn" aria-label="Share this NFT" onClick={onShare}>
          <ShareIcon />
        </button>
      </div>
    </div>
  );
}

export function NftDetailPage() {
  const { id = "" } = useParams();
  const query = useNft(id);
  useDocumentTitle(query.data?.title);

  if (query.isError && query.error instanceof ApiError && query.error.status === 404) {
    return (
      <NotFoundContent
        title="We couldn't find that NFT"
        message="It may have been retired, or the link is mistyped. Browse what's on sale instead:"
      />
    );
  }
  return (
    <QueryState
      query={query}
      loading={<DetailSkeleton />}
      errorTitle="We couldn't load this NFT"
      errorFrame={containerFrame}
    >
      {(nft) => <NftDetailView id={id} nft={nft} />}
    </QueryState>
  );
}

/** "Where it lives" of a catalogue NFT: its minted editions (tokens seen in its activity), or none yet. */
function EditionsOnChain({ nftId }: { nftId: string }) {
  const activity = useNftActivity(nftId);
  // Without the activity we cannot tell: say nothing rather than "not on chain".
  if (activity.isError) return null;
  const minted = activity.data
    ? [...new Set(activity.data.items.map((i) => i.tokenId))].sort((a, b) => Number(BigInt(a) - BigInt(b)))
    : undefined;
  return <WhereEditionsLive mintedTokenIds={minted} />;
}

/** The page of a loaded NFT; `id` is the one in the address. */
function NftDetailView({ id, nft }: { id: string; nft: NftDetail }) {
  const { user, isLoading: sessionLoading } = useCurrentUser();
  const chain = useChainLabel();
  // The API lists the properties (category, movie, celebrity, production house, rarity, …);
  // editions and chain are already shown under Details.
  const properties =
    nft.properties.length > 0
      ? nft.properties.filter((p) => !/^(edition|editions|blockchain)$/i.test(p.label.trim()))
      : [
          { label: "Category", value: nft.category },
          { label: "Movie", value: nft.film.name },
          { label: "Celebrity", value: nft.celebrity.name },
          { label: "Production house", value: nft.productionHouse.name },
          { label: "Rarity", value: tierLabel[nft.tier] },
        ];
  const collectionHref = nft.collection ? `/${nft.collection.slug}` : filmPath(nft.film.slug);

  return (
    <>
      <article className={`container nft-layout nft-layout-${nft.saleType} tier-${nft.tier}`}>
        <Media nft={nft} />
        <div className="nft-info">
          <div className="nft-head">
            <TierBadge tier={nft.tier} />
            {/* Plain text, not a pill: it names the sale type and must not look like a button. */}
            <span className="nft-sale-type">{nft.saleType === "auction" ? "Auction" : "Buy now"}</span>
          </div>
          <h1 className="nft-title">{nft.title}</h1>
          <p className="nft-sub">
            <Link to={filmPath(nft.film.slug)}>{nft.film.name}</Link> · {nft.celebrity.name}
          </p>
          <NftPurchasePanel nft={nft} />
          {!user && !sessionLoading ? (
            <p className="nft-login-hint" role="note">
              Please sign in for a better experience.{" "}
              <Link to={`/login?next=${encodeURIComponent(`/nftdetail/${id}`)}`}>Sign in</Link>
            </p>
          ) : null}
          <p className="nft-description">{nft.description}</p>
          {nft.exclusiveRewards ? (
            <details className="nft-disclosure">
              <summary>
                Exclusive rewards <ChevronIcon width={18} height={18} />
              </summary>
              <p>{nft.exclusiveRewards}</p>
            </details>
          ) : null}
          <section className="nft-section" aria-labelledby="nft-details-title">
            <h2 id="nft-details-title">Details</h2>
            <dl className="nft-facts">
              <div>
                <dt>Editions</dt>
                <dd className="tabular">{editionsText(nft.editionsAvailable, nft.editionSize)}</dd>
              </div>
            </dl>
            {/* The chain's own name and coin are technical: folded (issue 35). */}
            <details className="nft-disclosure nft-chain-details">
              <summary>
                Blockchain <ChevronIcon width={18} height={18} />
              </summary>
              <p>{chain ? `${chain.name}, paid in ${chain.symbol}` : nft.blockchain}</p>
            </details>
          </section>
          <EditionsOnChain nftId={nft.id} />
          <section className="nft-section" aria-labelledby="nft-props-title">
            <h2 id="nft-props-title">Properties</h2>
            <ul className="nft-props plain-list">
              {properties.map((p) => (
                <li key={`${p.label}:${p.value}`}>
                  <span>{p.label}</span>
                  <strong>{p.value}</strong>
                </li>
              ))}
            </ul>
          </section>
          <div className="nft-blocks">
            <section className="nft-block" aria-labelledby="nft-creator-title">
              <h2 id="nft-creator-title">Creator</h2>
              <p className="nft-block-name">{nft.productionHouse.name}</p>
              <p className="nft-royalty">{royaltyText(nft.royaltyBps)} Royalties</p>
            </section>
            <section className="nft-block" aria-labelledby="nft-collection-title">
              <h2 id="nft-collection-title">Collection</h2>
              <p className="nft-block-name">
                <Link to={collectionHref}>{nft.collection?.name ?? nft.film.name}</Link>
              </p>
              <p className="muted">{tierLabel[nft.tier]} tier</p>
            </section>
          </div>
        </div>
      </article>
      <div className="container nft-lower">
        <NftHistory nft={nft} />
        <section className="nft-section" aria-labelledby="nft-about-title">
          <h2 id="nft-about-title">About the creators</h2>
          <p className="muted">{nft.about}</p>
        </section>
        {nft.related.length > 0 ? (
          <section className="nft-section" aria-labelledby="nft-related-title">
            <h2 id="nft-related-title">More NFTs you might like</h2>
            <NftGrid items={nft.related.slice(0, 4)} />
          </section>
        ) : null}
      </div>
    </>
  );
}
