import type { NftSummary } from "@diginoor/api/catalogue";
import { Link, useLocation, useNavigate } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { useFilm } from "../../lib/catalogue/film.ts";
import { Price } from "../../ui/Price.tsx";
import { useDocumentTitle, useIsDesktop } from "../../lib/hooks.ts";
import { useCurrentUser } from "../../lib/session.ts";
import { shareLink } from "../../lib/share.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { Carousel } from "../../ui/Carousel.tsx";
import { Countdown } from "../../ui/Countdown.tsx";
import { ErrorState } from "../../ui/ErrorState.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { HeartIcon, ShareIcon, SproutIcon } from "../../ui/icons.tsx";
import { NftCard, NftGrid, NftGridSkeleton } from "../../ui/NftCard.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TierBadge } from "../../ui/TierBadge.tsx";
import { useToast } from "../../ui/Toast.tsx";
import "./films.css";

/** The one-of-one song: the highest-reserve legendary auction of the collection. */
function pickFeatured(nfts: NftSummary[]): NftSummary | undefined {
  return [...nfts]
    .filter((n) => n.saleType === "auction")
    .sort((a, b) => b.priceUsdCents - a.priceUsdCents || (a.tier === "legendary" ? -1 : 1))[0];
}

function CardsBlock({ items, label }: { items: NftSummary[]; label: string }) {
  const isDesktop = useIsDesktop();
  return isDesktop ? (
    <NftGrid items={items} />
  ) : (
    <Carousel items={items} label={label} getKey={(n) => n.id} renderItem={(nft) => <NftCard nft={nft} />} />
  );
}

/** /nonfungiblespb: the featured one-of-one song of S. P. Balasubrahmanyam, and the late-actor tribute. */
export function FeaturedSongPage() {
  const film = useFilm("nonfungiblespb");
  const tribute = useFilm("pasumainayaganvivek");
  const { user } = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const featured = film.data ? pickFeatured(film.data.nfts) : undefined;
  const others = film.data?.nfts.filter((n) => n.id !== featured?.id) ?? [];
  useDocumentTitle(featured?.title ?? film.data?.name);
  const here = location.pathname;
  const loginHref = `/login?next=${encodeURIComponent(here)}`;

  if (film.isError && film.error instanceof ApiError && film.error.status === 404) return <NotFoundContent />;

  async function onShare() {
    const result = await shareLink({ title: featured?.title ?? "Non-Fungible SPB", url: here });
    if (result === "copied") toast.success("Link copied to clipboard");
    else if (result === "failed")
      toast.error("Couldn't share the link. Copy it from the address bar instead.");
  }

  return (
    <>
      <section className="container section" aria-labelledby="song-title">
        <QueryState
          query={film}
          loading={
            <div className="featured-song" data-loading="">
              <Skeleton height="auto" style={{ aspectRatio: "4 / 5" }} radius="var(--radius-lg)" />
              <div>
                <Skeleton width="40%" height={16} />
                <Skeleton width="80%" height={48} style={{ marginTop: 16 }} />
                <Skeleton width="100%" height={100} style={{ marginTop: 16 }} />
              </div>
            </div>
          }
          errorTitle="We couldn't load the featured NFT"
        >
          {(data) =>
            featured ? (
              <div className="featured-song">
                <div className="featured-song-media">
                  <img src={featured.thumbnailUrl} alt={`${featured.title}, ${featured.celebrity.name}`} />
                  <div className="nft-actions">
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Like ${featured.title}`}
                      onClick={() => navigate(user ? `/nftdetail/${featured.id}` : loginHref)}
                    >
                      <HeartIcon />
                    </button>{" "}
                    <button type="button" className="icon-btn" aria-label="Share" onClick={onShare}>
                      <ShareIcon />
                    </button>
                  </div>
                </div>
                <div>
                  <p className="eyebrow">Featured one-of-one · {data.name}</p>
                  <TierBadge tier={featured.tier} />
                  <h1 id="song-title" style={{ marginTop: 12 }}>
                    {featured.title}
                  </h1>
                  <p className="muted">{data.description}</p>
                  <dl className="featured-song-price">
                    <div>
                      <dt>Current bid</dt>
                      <dd className="price-none">No bids yet</dd>
                    </div>
                    <div>
                      <dt>Reserve price</dt>
                      <dd>
                        <Price usdCents={featured.priceUsdCents} stacked />
                      </dd>
                    </div>
                  </dl>
                  <div className="featured-song-clock">
                    <h2>Auction ends in</h2>
                    <Countdown endsAt={featured.auctionEndsAt} />
                  </div>
                  {data.note ? <p className="film-note">{data.note}</p> : null}
                  <div className="featured-song-cta" style={{ marginTop: 24 }}>
                    <ButtonLink to={user ? `/nftdetail/${featured.id}` : loginHref} size="lg">
                      Place a bid
                    </ButtonLink>
                    <ButtonLink to={`/nftdetail/${featured.id}`} variant="secondary" size="lg">
                      View details
                    </ButtonLink>
                  </div>
                </div>
              </div>
            ) : (
              <ErrorState title="The featured NFT isn't on sale right now" />
            )
          }
        </QueryState>
      </section>

      {others.length > 0 ? (
        <section className="container section" aria-labelledby="spb-more">
          <div className="section-head">
            <h2 id="spb-more">More from {film.data?.name}</h2>
          </div>
          <CardsBlock items={others} label={`More from ${film.data?.name}`} />
        </section>
      ) : null}

      <section className="container section" aria-labelledby="tribute-title">
        <div className="section-head">
          <div>
            <p className="eyebrow">In memory</p>
            <h2 id="tribute-title">{tribute.data?.name ?? "Pasumai Nayagan Vivek"}</h2>
          </div>
          <Link to="/pasumainayaganvivek" className="text-link">
            Open the collection →
          </Link>
        </div>
        <QueryState
          query={tribute}
          loading={<NftGridSkeleton count={4} />}
          errorTitle="We couldn't load this collection"
        >
          {(data) => (
            <>
              <p className="muted" style={{ maxWidth: "70ch" }}>
                {data.description}
              </p>
              {data.note ? (
                <p className="film-note" role="note" style={{ marginBottom: 24 }}>
                  <SproutIcon className="film-note-icon" />
                  {data.note}
                </p>
              ) : null}
              <CardsBlock items={data.nfts.slice(0, 4)} label={data.name} />
            </>
          )}
        </QueryState>
      </section>
    </>
  );
}
