import type { PostDetail } from "@diginoor/api/blog";
import { type MouseEvent, useEffect } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { NotFoundContent } from "../../ui/NotFound.tsx";
import { containerFrame, QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { usePost } from "../../features/blog/api/posts.ts";
import { PostCover, PostMeta } from "../../features/blog/components/PostMeta.tsx";
import "./blog.css";

function PostSkeleton() {
  return (
    <div className="container post" data-loading="">
      <Skeleton height={16} width={120} />
      <Skeleton height={48} width="85%" style={{ marginTop: "var(--space-4)" }} />
      <Skeleton height={18} width={260} style={{ marginTop: "var(--space-4)" }} />
      <Skeleton
        height="auto"
        style={{ aspectRatio: "1200 / 630", marginTop: "var(--space-6)" }}
        radius="var(--radius-lg)"
      />
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} height={18} style={{ marginTop: "var(--space-3)" }} />
      ))}
    </div>
  );
}

/** /blog/:slug: cover, title, author, date and the body (HTML sanitized by the server). */
export function PostPage() {
  const { slug = "" } = useParams();
  const query = usePost(slug);
  const post = query.data;

  // The spec's title for a post: its title plus the product name.
  useEffect(() => {
    if (post) document.title = `${post.title} | Diginoor`;
  }, [post]);

  if (query.isError && query.error instanceof ApiError && query.error.status === 404) {
    return (
      <NotFoundContent
        title="We couldn't find that post"
        message="It may have moved, or the link is mistyped. The blog has the latest stories:"
      />
    );
  }
  return (
    <QueryState
      query={query}
      loading={<PostSkeleton />}
      errorTitle="We couldn't load this post"
      errorFrame={containerFrame}
    >
      {(data) => <PostArticle post={data} />}
    </QueryState>
  );
}

function PostArticle({ post }: { post: PostDetail }) {
  const navigate = useNavigate();

  // Links in the body are plain HTML: follow the site's own ones inside the app, without a reload.
  function onBodyClick(e: MouseEvent<HTMLDivElement>) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest("a");
    if (!a?.href) return;
    const url = new URL(a.href);
    if (url.origin !== window.location.origin || a.target) return;
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  }

  return (
    <article className="container post">
      <Link to="/blog" className="text-link post-back">
        ← All posts
      </Link>
      <header className="post-header">
        <h1>{post.title}</h1>
        <PostMeta post={post} />
      </header>
      <figure className="post-figure">
        <PostCover post={post} eager />
      </figure>
      {/* The server renders Markdown and sanitizes it (and WordPress HTML) to an allowlist: decision 130. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (decision 130) */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: Enter on a focused link fires this click too; it only routes the links */}
      <div className="prose" onClick={onBodyClick} dangerouslySetInnerHTML={{ __html: post.html }} />
      <footer className="post-footer">
        <p className="muted">
          Written by <strong>{post.author}</strong>.
        </p>
        <Link to="/blog" className="text-link">
          More from the blog →
        </Link>
      </footer>
    </article>
  );
}
