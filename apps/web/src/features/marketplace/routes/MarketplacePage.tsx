import type { NftSort, Tier } from "@diginoor/api/catalogue";
import {
  type FormEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import type { marketEndpoints } from "@diginoor/api/chain";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { callApi } from "../../../lib/api.ts";
import { useLiveFallback } from "../../../lib/live-streams.ts";
import { useChainInfo } from "../../../lib/wallet/chain.ts";
import { useCollections } from "../../../lib/catalogue/collections.ts";
import { type NftListFilters, useInfiniteNfts, useNfts } from "../../../lib/catalogue/nfts.ts";
import { formatPrice, tierLabel, tierOrder } from "../../../lib/format.ts";
import { useRates } from "../../../lib/rates.ts";
import { useDocumentTitle, useIsDesktop } from "../../../lib/hooks.ts";
import { Button } from "../../../ui/Button.tsx";
import { Carousel } from "../../../ui/Carousel.tsx";
import { Dialog } from "../../../ui/Dialog.tsx";
import { EmptyState } from "../../../ui/EmptyState.tsx";
import { QueryState } from "../../../ui/QueryState.tsx";
import { FilterIcon, SearchIcon } from "../../../ui/icons.tsx";
import { NftCard, NftCardSkeleton } from "../../../ui/NftCard.tsx";
import { NftResults } from "../../../ui/NftResults.tsx";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { TokenCard } from "../../../ui/TokenCard.tsx";
import { derivePriceRanges, parsePriceValue } from "../priceRanges.ts";
import "./marketplace.css";

const sorts: { value: NftSort; label: string }[] = [
  { value: "newest", label: "Newest" },
  { value: "price_asc", label: "Price: low to high" },
  { value: "price_desc", label: "Price: high to low" },
  { value: "title", label: "Title A–Z" },
];

const isTier = (v: string | null): v is Tier => v !== null && (tierOrder as readonly string[]).includes(v);
const isSort = (v: string | null): v is NftSort => sorts.some((s) => s.value === v);
const slugOrUndefined = (v: string | null) =>
  v && /^[a-z0-9-]{1,80}$/i.test(v) ? v.toLowerCase() : undefined;

/** Reads the filters from the URL, ignoring values the API would reject. */
function filtersFromParams(params: URLSearchParams): NftListFilters {
  const tier = params.get("tier");
  const price = params.get("price");
  const sort = params.get("sort");
  const q = params.get("q")?.trim().slice(0, 100);
  const priceBounds = price === "auction" ? null : parsePriceValue(price);
  return {
    tier: isTier(tier) ? tier : undefined,
    film: slugOrUndefined(params.get("film")),
    celebrity: slugOrUndefined(params.get("celebrity")),
    saleType: price === "auction" ? "auction" : undefined,
    minPriceCents: priceBounds?.minPriceCents !== undefined ? String(priceBounds.minPriceCents) : undefined,
    maxPriceCents: priceBounds?.maxPriceCents !== undefined ? String(priceBounds.maxPriceCents) : undefined,
    q: q || undefined,
    sort: isSort(sort) ? sort : undefined,
  };
}

function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="market-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

function TopAuctions() {
  const auctions = useNfts({ saleType: "auction", limit: "5" });
  return (
    <QueryState
      query={auctions}
      loading={
        <div className="top-auctions-skeleton" data-loading="">
          <NftCardSkeleton />
        </div>
      }
      errorTitle="We couldn't load the top auctions"
      isEmpty={(d) => d.items.length === 0}
      empty={
        <EmptyState title="No auctions running">
          New auctions open regularly. Meanwhile, browse the buy-now NFTs below.
        </EmptyState>
      }
    >
      {(data) => (
        <Carousel
          items={data.items}
          label="Top auctions"
          getKey={(n) => n.id}
          desktopPerView={3}
          renderItem={(nft, i) => <NftCard nft={nft} eager={i < 3} />}
        />
      )}
    </QueryState>
  );
}

export function MarketplacePage() {
  useDocumentTitle("Marketplace");
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const collections = useCollections();
  const facets = collections.data?.filters;
  const rates = useRates().data;
  const priceRanges = useMemo(
    () =>
      facets
        ? derivePriceRanges(facets.minPriceUsdCents, facets.maxPriceUsdCents, 5, (usdCents) =>
            formatPrice({ usdCents }, rates),
          )
        : [],
    [facets, rates],
  );
  const results = useInfiniteNfts(filters, 12);
  const isDesktop = useIsDesktop();
  const [sheetOpen, setSheetOpen] = useState(false);
  const items = results.data?.pages.flatMap((p) => p.items) ?? [];

  const urlQuery = params.get("q") ?? "";
  const [search, setSearch] = useState(urlQuery);
  // Follow the URL when it changes from outside (back/forward, clear filters).
  useEffect(() => setSearch(urlQuery), [urlQuery]);

  const paramsRef = useRef(params);
  paramsRef.current = params;
  const update = useCallback(
    (key: string, value: string | undefined) => {
      const next = new URLSearchParams(paramsRef.current);
      if (value) next.set(key, value);
      else next.delete(key);
      setParams(next, { preventScrollReset: true });
    },
    [setParams],
  );

  // Debounced search-as-you-type; Enter applies at once.
  useEffect(() => {
    const value = search.trim();
    if (value === urlQuery.trim()) return;
    const timer = setTimeout(() => update("q", value || undefined), 350);
    return () => clearTimeout(timer);
  }, [search, urlQuery, update]);

  function onSearch(event: FormEvent) {
    event.preventDefault();
    update("q", search.trim() || undefined);
  }

  const active =
    params.has("tier") ||
    params.has("film") ||
    params.has("celebrity") ||
    params.has("price") ||
    params.has("q");
  const priceValue = params.get("price") ?? "";
  const knownPrice = priceValue === "auction" || priceRanges.some((r) => r.value === priceValue);

  const activeFilters = ["tier", "film", "celebrity", "price", "sort"].filter((k) => params.has(k)).length;
  const clearAll = () => {
    // Cleared in the same render as the URL, so the debounced search never re-applies the old words
    // (it did when the render after clearing came later than the debounce, on a loaded machine).
    setSearch("");
    setParams(new URLSearchParams(), { preventScrollReset: true });
  };
  const filterControls = (
    <div className="market-filters">
      <FilterSelect label="Rarity" value={filters.tier ?? ""} onChange={(v) => update("tier", v)}>
        <option value="">All rarities</option>
        {tierOrder.map((t) => (
          <option key={t} value={t}>
            {tierLabel[t]}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect label="Movie" value={filters.film ?? ""} onChange={(v) => update("film", v)}>
        <option value="">All movies</option>
        {facets?.films.map((f) => (
          <option key={f.slug} value={f.slug}>
            {f.name}
          </option>
        ))}
        {filters.film && !facets?.films.some((f) => f.slug === filters.film) ? (
          <option value={filters.film}>{filters.film}</option>
        ) : null}
      </FilterSelect>
      <FilterSelect label="Price range" value={priceValue} onChange={(v) => update("price", v)}>
        <option value="">Any price</option>
        {priceRanges.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
        <option value="auction">On auction</option>
        {priceValue && !knownPrice ? <option value={priceValue}>Custom range</option> : null}
      </FilterSelect>
      <FilterSelect label="Actor" value={filters.celebrity ?? ""} onChange={(v) => update("celebrity", v)}>
        <option value="">All Actors</option>
        {facets?.celebrities.map((c) => (
          <option key={c.slug} value={c.slug}>
            {c.name}
          </option>
        ))}
        {filters.celebrity && !facets?.celebrities.some((c) => c.slug === filters.celebrity) ? (
          <option value={filters.celebrity}>{filters.celebrity}</option>
        ) : null}
      </FilterSelect>
      <FilterSelect
        label="Sort by"
        value={filters.sort ?? "newest"}
        onChange={(v) => update("sort", v === "newest" ? undefined : v)}
      >
        {sorts.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </FilterSelect>
    </div>
  );

  return (
    <>
      <section className="container page-head market-head">
        <p className="eyebrow">Marketplace</p>
        <h1>Find your next collectible</h1>
        <p>Every licensed NFT on Diginoor, from buy-now editions to one-of-one auctions.</p>
      </section>

      {/* Search and filters come first, so results of a search are on screen (not under a carousel). */}
      <section className="container market-tools" aria-label="Search and filters">
        <div className="market-toolbar">
          <search>
            <form className="market-search" onSubmit={onSearch}>
              <label htmlFor="market-q" className="visually-hidden">
                Search NFTs
              </label>
              <SearchIcon className="market-search-icon" />
              <input
                id="market-q"
                type="search"
                placeholder="search nfts..."
                value={search}
                maxLength={100}
                onChange={(e) => setSearch(e.target.value)}
              />
            </form>
          </search>
          {isDesktop ? null : (
            <Button
              variant="secondary"
              className="market-filter-button"
              aria-haspopup="dialog"
              onClick={() => setSheetOpen(true)}
            >
              <FilterIcon width={18} height={18} /> Filters{activeFilters ? ` (${activeFilters})` : ""}
            </Button>
          )}
        </div>
        {isDesktop ? (
          filterControls
        ) : (
          <Dialog open={sheetOpen} onClose={() => setSheetOpen(false)} title="Filters" variant="sheet">
            {filterControls}
            <div className="market-sheet-actions">
              <Button block onClick={() => setSheetOpen(false)}>
                {results.isSuccess
                  ? `Show ${items.length}${results.hasNextPage ? "+" : ""} NFT${items.length === 1 ? "" : "s"}`
                  : "Show NFTs"}
              </Button>
              {active ? (
                <Button variant="ghost" block onClick={clearAll}>
                  Clear filters
                </Button>
              ) : null}
            </div>
          </Dialog>
        )}
      </section>

      {active ? null : (
        <section className="container section market-auctions" aria-labelledby="auctions-title">
          <div className="section-head">
            <h2 id="auctions-title">Top auctions</h2>
          </div>
          <TopAuctions />
        </section>
      )}

      {active ? null : (
        <section className="container section market-collectors" aria-labelledby="collectors-title">
          <div className="section-head">
            <h2 id="collectors-title">From collectors</h2>
          </div>
          <CollectorsMarket />
        </section>
      )}

      <section className="container section market-results" aria-labelledby="browse-title">
        <h2 id="browse-title" className={active ? "visually-hidden" : "market-all-title"}>
          {active ? "Search results" : "All NFTs"}
        </h2>
        <div className="market-status" aria-live="polite">
          {results.isSuccess ? (
            <span>
              Showing {items.length} NFT{items.length === 1 ? "" : "s"}
              {filters.q ? ` matching “${filters.q}”` : ""}
              {results.hasNextPage ? ", more below" : ""}
            </span>
          ) : null}
          {active ? (
            <button type="button" className="text-button" onClick={clearAll}>
              Clear filters
            </button>
          ) : null}
        </div>
        <NftResults
          query={results}
          items={items}
          empty={
            <EmptyState
              title="No NFTs match these filters"
              action={<Button onClick={clearAll}>Clear filters</Button>}
            >
              Try a different search, a wider price range or another movie.
            </EmptyState>
          }
        />
      </section>
    </>
  );
}

/** Tokens their holders have put on sale or up for auction (resales and primary auctions), from the chain. */
function CollectorsMarket() {
  const fallback = useLiveFallback("market");
  const market = useQuery({
    queryKey: ["market"],
    queryFn: ({ signal }) => callApi<typeof marketEndpoints.listMarket>("GET /api/v1/market", { signal }),
    refetchInterval: fallback,
  });
  const symbol = useChainInfo().data?.nativeSymbol ?? "ETH";
  return (
    <QueryState
      query={market}
      loading={<Skeleton height={200} />}
      errorTitle="We couldn't load the collectors' market"
      isEmpty={(d) => d.items.length === 0}
      empty={
        <EmptyState title="Nothing from collectors yet">
          When collectors put their NFTs on sale or up for auction, they appear here.
        </EmptyState>
      }
    >
      {(data) => (
        <ul className="token-cards">
          {data.items.map((t) => (
            <li key={t.tokenId}>
              <TokenCard token={t} symbol={symbol} to={`/nfttransfer/${t.tokenId}`} />
            </li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}
