import { sql } from "drizzle-orm";
import { createBlogService, postsAdmin } from "../src/modules/blog/service.ts";
import * as blogRepo from "../src/modules/blog/repo.ts";
import type { Db } from "../src/db/client.ts";
import { blogCoverSvg } from "./artwork/svg.ts";
import { type ArtworkFile, writeArtwork } from "./artwork/write.ts";
import type { Storage } from "../src/lib/storage/storage.ts";
import { type SeedPost, seedPosts } from "./blog-data.ts";
import { retiredPosts } from "./blog-retired.ts";

const DAY = 86_400_000;

/** Media paths of a post's generated cover: the SVG and the JPEG shown on pages and in link previews. */
export const blogCoverPaths = (slug: string) => ({
  svg: `blog/${slug}.svg`,
  jpeg: `blog/${slug}.jpg`,
});

export function blogArtwork(posts: SeedPost[] = seedPosts): ArtworkFile[] {
  return posts.map((p) => ({
    svgPath: blogCoverPaths(p.slug).svg,
    webp: { path: blogCoverPaths(p.slug).jpeg, width: 1200, format: "jpeg" as const },
    render: () => blogCoverSvg({ slug: p.slug, title: p.title, label: p.label, paletteKey: p.palette }),
  }));
}

export interface SeedBlogResult {
  /** False when the blog already had posts and nothing was inserted. */
  seeded: boolean;
  posts: number;
  /** Launch posts still in an earlier launch text, nobody's edit since, given today's text. */
  refreshed: number;
  artworkFilesWritten: number;
}

/**
 * Writes the launch posts when the blog has none (idempotent, also against a second process
 * starting at the same time), through the blog service so they are rendered and sanitized like any
 * other post. Cover files are written when missing.
 */
export async function seedBlog(
  db: Db,
  opts: { storage?: Storage; now?: Date } = {},
): Promise<SeedBlogResult> {
  const now = opts.now ?? new Date();
  const inserted = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727274)`);
    const blog = createBlogService(tx);
    if ((await blog.countPosts()) > 0) return { inserted: 0, refreshed: await refreshRetiredPosts(tx) };
    const slugs = await blog.createPosts(
      seedPosts.map((p) => ({
        slug: p.slug,
        title: p.title,
        excerpt: p.excerpt,
        markdown: p.markdown,
        author: p.author,
        coverImageUrl: `/media/${blogCoverPaths(p.slug).jpeg}`,
        coverImageAlt: `Cover of "${p.title}": the title over ${p.label} artwork`,
        featured: p.featured,
        // Whole minutes, so every seed run gives the same dates for the same `now`.
        publishedAt: new Date(Math.floor((now.getTime() - p.daysAgo * DAY) / 60_000) * 60_000).toISOString(),
      })),
    );
    return { inserted: slugs.length, refreshed: 0 };
  });
  const artworkFilesWritten = opts.storage ? await writeArtwork(opts.storage, blogArtwork()) : 0;
  return {
    seeded: inserted.inserted > 0,
    posts: inserted.inserted,
    refreshed: inserted.refreshed,
    artworkFilesWritten,
  };
}

/**
 * A blog seeded before a launch post was rewritten (issue 35: the help told of MetaMask, US dollars
 * and 20 to 30 minutes) still holds the old text. Each post whose title, excerpt and Markdown are
 * still exactly an earlier launch text gets today's; a post anyone has edited is left as it is.
 */
async function refreshRetiredPosts(db: Db): Promise<number> {
  let refreshed = 0;
  for (const old of retiredPosts) {
    const now = seedPosts.find((p) => p.slug === old.slug);
    const row = await blogRepo.findBySlug(db, old.slug);
    if (!now || !row) continue;
    if (row.title !== old.title || row.excerpt !== old.excerpt || row.markdown !== old.markdown) continue;
    await postsAdmin.update(db, old.slug, { title: now.title, excerpt: now.excerpt, markdown: now.markdown });
    refreshed++;
  }
  return refreshed;
}
