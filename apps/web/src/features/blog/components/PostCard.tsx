import type { PostSummary } from "@diginoor/api/blog";
import { Link } from "react-router";
import { Skeleton } from "../../../ui/Skeleton.tsx";
import { PostCover, PostMeta } from "./PostMeta.tsx";

/** A post in the grid: the whole card is one link to the post. */
export function PostCard({ post }: { post: PostSummary }) {
  return (
    <article className="post-card" data-testid="post-card">
      <div className="post-card-media">
        <PostCover post={post} />
      </div>
      <div className="post-card-body">
        <h3 className="post-card-title">
          <Link to={`/blog/${post.slug}`} className="post-card-link">
            {post.title}
          </Link>
        </h3>
        <p className="post-card-excerpt">{post.excerpt}</p>
        <PostMeta post={post} />
      </div>
    </article>
  );
}

export function PostCardSkeleton() {
  return (
    <div className="post-card" data-loading="">
      <Skeleton height="auto" style={{ aspectRatio: "1200 / 630" }} radius="0" />
      <div className="post-card-body">
        <Skeleton height={24} width="80%" />
        <Skeleton height={16} />
        <Skeleton height={16} width="60%" />
      </div>
    </div>
  );
}
