import { useMatches, useParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { useFilm } from "../../lib/catalogue/film.ts";
import { useDocumentTitle, useIsDesktop } from "../../lib/hooks.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { Carousel } from "../../ui/Carousel.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { containerFrame, QueryState } from "../../ui/QueryState.tsx";
import { NftCard, NftGrid, NftGridSkeleton } from "../../ui/NftCard.tsx";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { FilmHeader, FilmHeaderSkeleton } from "../../features/films/components/FilmHeader.tsx";
import "./films.css";

/** Route component: the film slug comes from the route's handle (set in the route table). */
export function FilmRoute() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as { filmSlug?: string } | undefined;
  const slug = handle?.filmSlug;
  if (!slug) throw new Error("Film route is missing its filmSlug handle");
  return <FilmPage slug={slug} />;
}

/** /films/:slug: any film's page (films added in the studio console have no fixed route). */
export function FilmBySlugRoute() {
  const { slug } = useParams();
  return <FilmPage slug={(slug ?? "").toLowerCase()} />;
}

/** A film's collection page: /kabali, /Kabali, /sivaji, /chandramukhi, /pasumainayaganvivek … */
export function FilmPage({ slug }: { slug: string }) {
  const film = useFilm(slug);
  const isDesktop = useIsDesktop();
  useDocumentTitle(film.data?.name);

  if (film.isError && film.error instanceof ApiError && film.error.status === 404) {
    return (
      <NotFoundContent
        title="We couldn't find that film"
        message="This collection doesn't exist or was retired."
      />
    );
  }

  return (
    <>
      <QueryState
        query={film}
        loading={<FilmHeaderSkeleton />}
        errorTitle="We couldn't load this collection"
        errorFrame={containerFrame}
      >
        {(data) => <FilmHeader film={data} />}
      </QueryState>

      {film.isError && !film.data ? null : (
        <section className="container section" aria-labelledby="film-nfts-title">
          <div className="section-head">
            <h2 id="film-nfts-title">
              {film.data ? `${film.data.nfts.length} collectibles` : "Collectibles"}
            </h2>
          </div>
          <QueryState
            query={film}
            loading={<NftGridSkeleton count={isDesktop ? 8 : 1} />}
            error={null}
            isEmpty={(d) => d.nfts.length === 0}
            empty={(d) => (
              <EmptyState
                title="No NFTs in this collection yet"
                action={<ButtonLink to="/marketplace">Browse the marketplace</ButtonLink>}
              >
                The first drop for {d.name} is being prepared. Meanwhile, explore the rest of the marketplace.
              </EmptyState>
            )}
          >
            {(data) =>
              isDesktop ? (
                <NftGrid items={data.nfts} eagerCount={4} />
              ) : (
                <Carousel
                  items={data.nfts}
                  label={`${data.name} NFTs`}
                  getKey={(n) => n.id}
                  renderItem={(nft, i) => <NftCard nft={nft} eager={i === 0} />}
                />
              )
            }
          </QueryState>
        </section>
      )}
    </>
  );
}
