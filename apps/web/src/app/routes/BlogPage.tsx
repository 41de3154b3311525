import type { PostSummary } from "@diginoor/api/blog";
import { Link } from "react-router";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { ButtonLink } from "../../ui/Button.tsx";
import { Carousel } from "../../ui/Carousel.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { LoadMore } from "../../ui/LoadMore.tsx";
import { QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { usePosts } from "../../features/blog/api/posts.ts";
import { PostCard, PostCardSkeleton } from "../../features/blog/components/PostCard.tsx";
import { PostCover, PostMeta } from "../../features/blog/components/PostMeta.tsx";
import "./blog.css";

function FeaturedSlide({ post, first }: { post: PostSummary; first: boolean }) {
  return (
    <article className="blog-featured">
      <div className="blog-featured-media">
        <PostCover post={post} eager={first} />
      </div>
      <div className="blog-featured-body">
        <p className="eyebrow">Featured</p>
        <h3 className="blog-featured-title">
          <Link to={`/blog/${post.slug}`}>{post.title}</Link>
        </h3>
        <p className="blog-featured-excerpt">{post.excerpt}</p>
        <PostMeta post={post} />
        <span className="text-link" aria-hidden="true">
          Read the story →
        </span>
      </div>
    </article>
  );
}

/** /blog: a featured carousel and a grid of every post, newest first. */
export function BlogPage() {
  useDocumentTitle("Blog");
  const posts = usePosts();
  const pages = posts.data?.pages ?? [];
  const featured = pages[0]?.featured ?? [];
  const items = pages.flatMap((p) => p.items);

  return (
    <>
      <section className="blog-hero">
        <div className="container">
          <p className="eyebrow">Diginoor Blog</p>
          <h1>Stories from the foyer</h1>
          <p className="blog-hero-lead">
            Beginner guides, wallet know-how and the stories behind the films in our collections.
          </p>
          <a className="text-link" href="/blog/rss.xml">
            Follow by RSS
          </a>
        </div>
      </section>

      <QueryState
        query={posts}
        loading={
          <section className="section container" aria-label="Loading posts">
            <Skeleton
              height="auto"
              style={{ aspectRatio: "2.4 / 1", minHeight: 280 }}
              radius="var(--radius-lg)"
            />
            <ul className="post-grid plain-list">
              {[0, 1, 2].map((i) => (
                <li key={i}>
                  <PostCardSkeleton />
                </li>
              ))}
            </ul>
          </section>
        }
        errorTitle="We couldn't load the blog"
        errorFrame={(state) => <section className="section container">{state}</section>}
        isEmpty={() => items.length === 0}
        empty={
          <section className="section container">
            <EmptyState
              title="No posts yet"
              action={<ButtonLink to="/how it works">Visit the Help Center</ButtonLink>}
            >
              Our first stories are being written. Meanwhile, the Help Center answers the questions fans ask
              most.
            </EmptyState>
          </section>
        }
      >
        {() => (
          <>
            {featured.length > 0 ? (
              <section className="section container" aria-labelledby="blog-featured-title">
                <h2 id="blog-featured-title" className="visually-hidden">
                  Featured posts
                </h2>
                <Carousel
                  items={featured}
                  label="Featured posts"
                  getKey={(p) => p.slug}
                  renderItem={(p, i) => <FeaturedSlide post={p} first={i === 0} />}
                  intervalMs={7000}
                />
              </section>
            ) : null}
            <section className="section container" aria-labelledby="blog-all-title">
              <div className="section-head">
                <div>
                  <p className="eyebrow">Newest first</p>
                  <h2 id="blog-all-title">All posts</h2>
                </div>
              </div>
              <ul className="post-grid plain-list">
                {items.map((p) => (
                  <li key={p.slug}>
                    <PostCard post={p} />
                  </li>
                ))}
              </ul>
              <LoadMore
                query={posts}
                label="More posts"
                className="blog-more"
                errorMessage="We couldn't load more posts. Press More posts to try again."
                errorClassName="blog-more muted"
              />
            </section>
          </>
        )}
      </QueryState>
    </>
  );
}
