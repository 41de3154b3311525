import type { PostSummary } from "@diginoor/api/blog";

// One calendar for every reader and for the server that renders the page (decision 033): India's.
const dateFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "Asia/Kolkata",
});

export function formatPostDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** "Meera Krishnan · 12 October 2026 · 4 min read" */
export function PostMeta({ post, withAuthor = true }: { post: PostSummary; withAuthor?: boolean }) {
  return (
    <p className="post-meta">
      {withAuthor ? <span className="post-meta-author">{post.author}</span> : null}
      <time dateTime={post.publishedAt}>{formatPostDate(post.publishedAt)}</time>
      <span>{post.readingMinutes} min read</span>
    </p>
  );
}

/** The post's cover, or a drawn placeholder of the same shape when it has none. */
export function PostCover({ post, eager = false }: { post: PostSummary; eager?: boolean }) {
  return post.coverImageUrl ? (
    <img
      className="post-cover"
      src={post.coverImageUrl}
      alt={post.coverImageAlt}
      width={1200}
      height={630}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
    />
  ) : (
    <span className="post-cover post-cover-blank" aria-hidden="true">
      <span className="eyebrow">Diginoor Blog</span>
    </span>
  );
}
