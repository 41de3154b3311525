import type { CollectionCard } from "@diginoor/api/catalogue";
import { Link } from "react-router";
import { useCollections } from "../../../lib/catalogue/collections.ts";
import { tierLabel, tierOrder } from "../../../lib/format.ts";
import { useDocumentTitle, useIsDesktop } from "../../../lib/hooks.ts";
import { ButtonLink } from "../../../ui/Button.tsx";
import { Carousel } from "../../../ui/Carousel.tsx";
import { EmptyState } from "../../../ui/EmptyState.tsx";
import { NftCard, NftGrid, NftGridSkeleton } from "../../../ui/NftCard.tsx";
import { QueryState } from "../../../ui/QueryState.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import "./home.css";

const tierBlurbs: Record<(typeof tierOrder)[number], string> = {
  common: "Stills and posters from the films you grew up with, in large editions to start your collection.",
  rare: "Iconic scenes and dialogue moments in small editions, numbered and traceable.",
  ultimate: "Signature moments with behind-the-scenes extras and rewards for holders.",
  legendary: "One-of-a-kind pieces: a single owner, exclusive rights and rewards from the stars themselves.",
};

const guides = [
  {
    to: "/blog/what-is-an-nft",
    title: "What is an NFT?",
    text: "A plain-language introduction: what you own, how it is proven on the blockchain, and why studios license them.",
  },
  {
    to: "/blog/a-beginners-guide-to-diginoor",
    title: "A beginner's guide to Diginoor",
    text: "From sign-up to your first collectible: accounts, wallets, paying by card or crypto, and your showcase.",
  },
  {
    to: "/how it works#faq",
    title: "Questions fans ask",
    text: "Answers to the questions fans ask most, from royalties to delivery times.",
  },
];

function FeaturedTile({ item }: { item: CollectionCard }) {
  const body = (
    <>
      <span className="poster-tile-art">
        <img src={item.thumbnailUrl} alt="" loading="lazy" decoding="async" width={300} height={450} />
      </span>
      <span className="poster-tile-name">{item.name}</span>
      <span className="poster-tile-meta">
        {item.comingSoon ? "Coming soon" : `${item.nftCount} collectibles`}
      </span>
    </>
  );
  return item.href && !item.comingSoon ? (
    <Link to={item.href} className="poster-tile">
      {body}
    </Link>
  ) : (
    <div className="poster-tile">{body}</div>
  );
}

export function HomePage() {
  useDocumentTitle("Collectibles of Indian cinema");
  const collections = useCollections();
  const isDesktop = useIsDesktop();
  const featured = collections.data?.featured ?? [];
  const topSellers = (collections.data?.topSellers ?? []).slice(0, 8);
  // Three posters fanned out, the first in front.
  const heroPosters = featured.slice(0, 3);

  return (
    <>
      <section className="home-hero">
        <div className="container home-hero-inner">
          <div className="home-hero-copy">
            <p className="eyebrow">Licensed by the studios · Owned on the blockchain</p>
            <h1>Own a moment of Indian cinema</h1>
            <p className="home-hero-lead">
              Collect officially licensed NFTs of the films and stars you love, from Kabali to Chandramukhi.
              Build a showcase, bid on one-of-one legends, and know every sale pays 10% royalties back to the
              studios.
            </p>
            <div className="home-hero-actions">
              <ButtonLink to="/marketplace" size="lg">
                Explore the marketplace
              </ButtonLink>
              <ButtonLink to="/collections" variant="secondary" size="lg">
                View collections
              </ButtonLink>
            </div>
          </div>
          <div className="home-hero-art">
            {collections.isLoading ? (
              <Skeleton height="100%" radius="var(--radius-lg)" />
            ) : heroPosters.length > 0 ? (
              heroPosters.map((c, i) => (
                <img
                  key={c.slug}
                  className={`home-hero-poster home-hero-poster-${i}`}
                  src={c.thumbnailUrl}
                  alt={i === 0 ? `${c.name} poster` : ""}
                  width={300}
                  height={450}
                  // All three are above the fold, and the rotated side posters cover more of a
                  // narrow screen than the front one: any of them can be the largest paint.
                  decoding="sync"
                  fetchPriority="high"
                />
              ))
            ) : (
              <div className="home-hero-glow" />
            )}
          </div>
        </div>
      </section>

      <section className="section container" aria-labelledby="featured-title">
        <div className="section-head">
          <div>
            <p className="eyebrow">Now showing</p>
            <h2 id="featured-title">Featured collections</h2>
          </div>
          <Link to="/collections" className="text-link">
            All collections →
          </Link>
        </div>
        <QueryState
          query={collections}
          loading={
            <div className="poster-grid" data-loading="">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} height="auto" style={{ aspectRatio: "2 / 3" }} radius="var(--radius-lg)" />
              ))}
            </div>
          }
          errorTitle="We couldn't load the collections"
          isEmpty={() => featured.length === 0}
          empty={
            <EmptyState title="No collections yet">
              New film collections are on their way. Check back soon.
            </EmptyState>
          }
        >
          {() => (
            <ul className="poster-grid plain-list">
              {featured.map((item) => (
                <li key={item.slug}>
                  <FeaturedTile item={item} />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </section>

      <section className="section container" aria-labelledby="guides-title">
        <div className="section-head">
          <div>
            <p className="eyebrow">New here?</p>
            <h2 id="guides-title">Start with the basics</h2>
          </div>
        </div>
        <ul className="grid-3 plain-list">
          {guides.map((g, i) => (
            <li key={g.title}>
              <Link to={g.to} className="guide-card">
                <span className="guide-step tabular">0{i + 1}</span>
                <h3>{g.title}</h3>
                <p>{g.text}</p>
                <span className="text-link">Read more →</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="section tiers-band" aria-labelledby="tiers-title">
        <div className="container">
          <div className="section-head">
            <div>
              <p className="eyebrow">Elusive &amp; exclusive</p>
              <h2 id="tiers-title">Four tiers of rarity</h2>
            </div>
            <Link to="/about" className="text-link">
              How tiers work →
            </Link>
          </div>
          <ol className="tier-list plain-list">
            {tierOrder.map((tier) => (
              <li key={tier} className={`tier-card tier-${tier}`}>
                <span className={`tier-badge tier-${tier}`}>{tierLabel[tier]}</span>
                <p>{tierBlurbs[tier]}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section container" aria-labelledby="sellers-title">
        <div className="section-head">
          <div>
            <p className="eyebrow">What fans are collecting</p>
            <h2 id="sellers-title">Top sellers</h2>
          </div>
          <Link to="/marketplace" className="text-link">
            See the marketplace →
          </Link>
        </div>
        <QueryState
          query={collections}
          loading={<NftGridSkeleton count={isDesktop ? 8 : 1} />}
          errorTitle="We couldn't load the top sellers"
          isEmpty={() => topSellers.length === 0}
          empty={
            <EmptyState
              title="No sales yet"
              action={<ButtonLink to="/marketplace">Browse the marketplace</ButtonLink>}
            >
              Be the first collector: the marketplace has every NFT on sale.
            </EmptyState>
          }
        >
          {() =>
            isDesktop ? (
              <NftGrid items={topSellers} />
            ) : (
              <Carousel
                items={topSellers}
                label="Top sellers"
                getKey={(n) => n.id}
                renderItem={(nft) => <NftCard nft={nft} />}
              />
            )
          }
        </QueryState>
      </section>
    </>
  );
}
