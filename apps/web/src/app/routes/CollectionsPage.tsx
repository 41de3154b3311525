import type { CollectionCard, Tier } from "@diginoor/api/catalogue";
import { Link, useSearchParams } from "react-router";
import { useCollections } from "../../lib/catalogue/collections.ts";
import { useInfiniteNfts } from "../../lib/catalogue/nfts.ts";
import { tierLabel, tierOrder } from "../../lib/format.ts";
import { useDocumentTitle, useIsDesktop } from "../../lib/hooks.ts";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { Carousel } from "../../ui/Carousel.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { NftCard, NftGrid, NftGridSkeleton } from "../../ui/NftCard.tsx";
import { NftResults } from "../../ui/NftResults.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TierPicker } from "../../ui/TierPicker.tsx";
import "./collections.css";

function FeaturedSlide({ item }: { item: CollectionCard }) {
  return (
    <div className="featured-slide">
      <img
        className="featured-slide-banner"
        src={item.bannerUrl}
        alt={`${item.name} banner`}
        decoding="async"
      />
      <div className="featured-slide-body">
        <img
          className="featured-slide-poster"
          src={item.thumbnailUrl}
          alt=""
          loading="lazy"
          width={300}
          height={450}
        />
        <div>
          <p className="eyebrow">Featured collection</p>
          <h2>{item.name}</h2>
          <p>{item.description}</p>
          {item.href ? (
            <ButtonLink to={item.href} aria-label={`Check it out: ${item.name}`}>
              Check it out
            </ButtonLink>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function HotTile({ item }: { item: CollectionCard }) {
  if (item.comingSoon || !item.href) {
    return (
      <div className="poster-tile">
        <span className="poster-tile-art poster-tile-soon">
          <span>Next drop</span>
        </span>
        <span className="poster-tile-name">{item.name}</span>
        <span className="poster-tile-meta">{item.description}</span>
      </div>
    );
  }
  return (
    <Link to={item.href} className="poster-tile">
      <span className="poster-tile-art">
        <img src={item.thumbnailUrl} alt="" loading="lazy" decoding="async" width={300} height={450} />
      </span>
      <span className="poster-tile-name">{item.name}</span>
      <span className="poster-tile-meta">
        {item.nftCount} collectibles · {item.description}
      </span>
    </Link>
  );
}

const isTier = (v: string | null): v is Tier => v !== null && (tierOrder as readonly string[]).includes(v);

/** NFT cards of the catalogue, leaving out those the Top sellers section below already shows. */
function ExploreGrid({ exclude }: { exclude: ReadonlySet<string> }) {
  const [params, setParams] = useSearchParams();
  const tierParam = params.get("tier");
  const tier = isTier(tierParam) ? tierParam : undefined;
  const nfts = useInfiniteNfts({ tier }, 12);
  const items = (nfts.data?.pages.flatMap((p) => p.items) ?? []).filter((n) => !exclude.has(n.id));

  function setTier(next: Tier | undefined) {
    const copy = new URLSearchParams(params);
    if (next) copy.set("tier", next);
    else copy.delete("tier");
    setParams(copy, { replace: true, preventScrollReset: true });
  }

  return (
    <>
      <TierPicker
        className="tier-filter"
        legend="Filter by rarity"
        allLabel="All"
        value={tier}
        onChange={setTier}
      />
      <NftResults
        query={nfts}
        items={items}
        empty={
          <EmptyState
            title="Nothing in this tier yet"
            action={<Button onClick={() => setTier(undefined)}>Show all tiers</Button>}
          >
            No {tier ? tierLabel[tier] : ""} NFTs are on sale right now. Try another tier.
          </EmptyState>
        }
      />
    </>
  );
}

export function CollectionsPage() {
  useDocumentTitle("Collections");
  const collections = useCollections();
  const topSellerIds = new Set((collections.data?.topSellers ?? []).slice(0, 8).map((n) => n.id));
  const isDesktop = useIsDesktop();

  return (
    <>
      <section className="container page-head">
        <p className="eyebrow">Collections</p>
        <h1>Every film, every star, every moment</h1>
        <p>Explore officially licensed collections from the films that shaped Tamil cinema.</p>
      </section>

      <section className="container" aria-label="Featured collections">
        <QueryState
          query={collections}
          loading={
            <Skeleton
              height="auto"
              style={{ aspectRatio: "21 / 9", minHeight: 320 }}
              radius="var(--radius-lg)"
            />
          }
          errorTitle="We couldn't load the collections"
          isEmpty={(d) => d.featured.length === 0}
          empty={
            <EmptyState title="No featured collections">
              New collections are on their way. Check back soon.
            </EmptyState>
          }
        >
          {(data) => (
            <Carousel
              items={data.featured}
              label="Featured collections"
              getKey={(c) => c.slug}
              renderItem={(item) => <FeaturedSlide item={item} />}
            />
          )}
        </QueryState>
      </section>

      <section className="container section" aria-labelledby="hot-title">
        <div className="section-head">
          <h2 id="hot-title">Hot collections</h2>
        </div>
        <QueryState
          query={collections}
          loading={
            <div className="poster-grid poster-grid-5" data-loading="">
              {[0, 1, 2, 3, 4].map((i) => (
                <Skeleton key={i} height="auto" style={{ aspectRatio: "2 / 3" }} radius="var(--radius-lg)" />
              ))}
            </div>
          }
          error={null}
          isEmpty={(d) => d.hot.length === 0}
          empty={<EmptyState title="No hot collections yet">Check back when the next drop lands.</EmptyState>}
        >
          {(data) => (
            <ul className="poster-grid poster-grid-5 plain-list">
              {data.hot.map((item) => (
                <li key={item.slug}>
                  <HotTile item={item} />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </section>

      <section className="container section" aria-labelledby="explore-title">
        <div className="section-head">
          <h2 id="explore-title">Explore</h2>
          <Link to="/marketplace" className="text-link">
            Search and filter in the marketplace →
          </Link>
        </div>
        <ExploreGrid exclude={topSellerIds} />
      </section>

      <section className="container section" aria-labelledby="top-title">
        <div className="section-head">
          <h2 id="top-title">Top sellers</h2>
        </div>
        <QueryState
          query={collections}
          loading={<NftGridSkeleton count={isDesktop ? 8 : 1} />}
          error={null}
          isEmpty={(d) => d.topSellers.length === 0}
          empty={
            <EmptyState title="No sales yet">
              Be the first collector: every NFT on sale is in the marketplace.
            </EmptyState>
          }
        >
          {(data) =>
            isDesktop ? (
              <NftGrid items={data.topSellers.slice(0, 8)} />
            ) : (
              <Carousel
                items={data.topSellers.slice(0, 8)}
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
