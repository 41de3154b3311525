import {
  type CreatePostInput,
  createPostSchema,
  type ListPostsParsed,
  POST_SLUG,
  type PostDetail,
  type PostListResponse,
  type PostSummary,
} from "@diginoor/api/blog";
import { type AdminPost, adminPostPatchSchema } from "@diginoor/api/admin";
import type { Db } from "../../db/client.ts";
import { AppError, zodIssues } from "../../http/errors.ts";
import { type Clock, systemClock } from "../../platform/clock.ts";
import * as repo from "./repo.ts";
import { readingMinutes, RENDER_VERSION, renderMarkdown } from "./render.ts";
import type { PostRecord, WordPressSource } from "./wordpress.ts";

export { createWordPressSource } from "./wordpress.ts";

const FEATURED = 6;

export interface BlogServiceOptions {
  clock?: Clock;
  /** Posts of a WordPress site, shown beside ours (ours win when both have a slug). */
  wordpress?: WordPressSource;
}

interface Cursor {
  publishedAt: Date;
  slug: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.publishedAt.toISOString(), c.slug])).toString("base64url");
}

function decodeCursor(raw: string): Cursor {
  try {
    const [at, slug] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown[];
    const publishedAt = new Date(String(at));
    if (typeof slug === "string" && POST_SLUG.test(slug) && !Number.isNaN(publishedAt.getTime())) {
      return { publishedAt, slug };
    }
  } catch {
    // fall through
  }
  throw AppError.validation("query parameter", [{ field: "cursor", message: "is not a valid cursor" }]);
}

/** Newest first; equal dates by slug, descending (the same order as the SQL keyset). */
function newestFirst(a: PostRecord, b: PostRecord): number {
  const d = b.publishedAt.getTime() - a.publishedAt.getTime();
  return d !== 0 ? d : a.slug < b.slug ? 1 : a.slug > b.slug ? -1 : 0;
}

function isAfter(p: PostRecord, c: Cursor): boolean {
  const t = p.publishedAt.getTime();
  const ct = c.publishedAt.getTime();
  return t < ct || (t === ct && p.slug < c.slug);
}

export function toSummary(p: PostRecord): PostSummary {
  return {
    slug: p.slug,
    title: p.title,
    excerpt: p.excerpt,
    coverImageUrl: p.coverImageUrl,
    coverImageAlt: p.coverImageAlt,
    author: p.author,
    publishedAt: p.publishedAt.toISOString(),
    featured: p.featured,
    readingMinutes: p.readingMinutes,
    source: p.source,
  };
}

/** The blog: posts written here in Markdown (stored with their sanitized HTML), plus WordPress's. */
export function createBlogService(db: Db, opts: BlogServiceOptions = {}) {
  const clock = opts.clock ?? systemClock;

  /** A stored row as a record; rows rendered by an older renderer are rendered again and saved. */
  async function fromRow(row: repo.PostRow): Promise<PostRecord> {
    let { html, readingMinutes: minutes } = row;
    if (row.renderVersion !== RENDER_VERSION) {
      html = renderMarkdown(row.markdown);
      minutes = readingMinutes(html);
      await repo.updateRendering(db, row.id, {
        html,
        renderVersion: RENDER_VERSION,
        readingMinutes: minutes,
      });
    }
    return {
      slug: row.slug,
      title: row.title,
      excerpt: row.excerpt,
      coverImageUrl: row.coverImageUrl,
      coverImageAlt: row.coverImageAlt,
      author: row.authorName,
      publishedAt: row.publishedAt,
      featured: row.featured,
      readingMinutes: minutes,
      html,
      source: "diginoor",
    };
  }

  /** WordPress posts that are published by now and whose slug is not one of ours. */
  async function wordpressPosts(now: Date, ours: (slug: string) => Promise<boolean>): Promise<PostRecord[]> {
    if (!opts.wordpress) return [];
    const all = (await opts.wordpress.list()).filter((p) => p.publishedAt <= now);
    const out: PostRecord[] = [];
    for (const p of all) if (!(await ours(p.slug))) out.push(p);
    return out;
  }

  async function page(
    limit: number,
    after: Cursor | undefined,
    featuredOnly: boolean,
  ): Promise<PostRecord[]> {
    const now = clock.date();
    const rows = await repo.listPublished(db, { now, limit, after, featuredOnly });
    const local = await Promise.all(rows.map(fromRow));
    if (!opts.wordpress) return local;
    const slugs = new Set(local.map((p) => p.slug));
    const remote = (
      await wordpressPosts(
        now,
        async (slug) => slugs.has(slug) || (await repo.findBySlug(db, slug)) !== undefined,
      )
    ).filter((p) => (!featuredOnly || p.featured) && (!after || isAfter(p, after)));
    return [...local, ...remote].sort(newestFirst).slice(0, limit);
  }

  return {
    /** The featured posts and one page of all posts, newest first. */
    async listPosts(query: ListPostsParsed): Promise<PostListResponse> {
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const [featured, items] = await Promise.all([
        page(FEATURED, undefined, true),
        page(query.limit + 1, after, false),
      ]);
      const shown = items.slice(0, query.limit);
      const last = shown[shown.length - 1];
      return {
        featured: featured.map(toSummary),
        items: shown.map(toSummary),
        nextCursor: items.length > query.limit && last ? encodeCursor(last) : null,
      };
    },

    /** Every published post, newest first, up to `max` (RSS feed, sitemap). */
    async allPosts(max = 500): Promise<PostSummary[]> {
      return (await page(max, undefined, false)).map(toSummary);
    },

    /** One published post by slug; 404 when there is none. */
    async getPost(slug: string): Promise<PostDetail> {
      const s = slug.toLowerCase();
      if (!POST_SLUG.test(s) || s.length > 120) throw AppError.notFound("Post");
      const now = clock.date();
      const row = await repo.findBySlug(db, s);
      let post: PostRecord | undefined;
      if (row) post = row.publishedAt <= now ? await fromRow(row) : undefined;
      else if (opts.wordpress)
        post = (await wordpressPosts(now, async () => false)).find((p) => p.slug === s);
      if (!post) throw AppError.notFound("Post");
      return { ...toSummary(post), html: post.html };
    },

    /**
     * Writes new posts from Markdown, rendering and sanitizing each once. Input is validated (400
     * naming the field); a slug that exists already is a 409 and nothing is written.
     */
    async createPosts(inputs: CreatePostInput[]): Promise<string[]> {
      const rows: repo.NewPostRow[] = inputs.map((input, i) => {
        const parsed = createPostSchema.safeParse(input);
        if (!parsed.success) {
          const issues = zodIssues(parsed.error).map((x) => ({
            ...x,
            field: inputs.length > 1 ? `${i}.${x.field}` : x.field,
          }));
          throw AppError.validation("post", issues);
        }
        const p = parsed.data;
        const html = renderMarkdown(p.markdown);
        return {
          slug: p.slug,
          title: p.title,
          excerpt: p.excerpt,
          coverImageUrl: p.coverImageUrl,
          coverImageAlt: p.coverImageAlt,
          authorName: p.author,
          markdown: p.markdown,
          html,
          renderVersion: RENDER_VERSION,
          readingMinutes: readingMinutes(html),
          featured: p.featured,
          publishedAt: p.publishedAt ? new Date(p.publishedAt) : clock.date(),
        };
      });
      const slugs = rows.map((r) => r.slug);
      const dup = slugs.find((s, i) => slugs.indexOf(s) !== i);
      if (dup) throw AppError.conflict(`Two posts have the slug ${dup}`);
      const existing = await repo.existingSlugs(db, slugs);
      if (existing.length > 0) {
        throw AppError.conflict(`A post with the slug ${existing[0]} exists already`, { slugs: existing });
      }
      // One statement: all rows or none (a concurrent writer of the same slug makes it fail whole).
      return repo.insertPosts(db, rows);
    },

    countPosts: () => repo.countPosts(db),
  };
}

export type BlogService = ReturnType<typeof createBlogService>;

// ---- the studio console's posts (modules/admin calls these inside its transaction)

export function adminPostView(r: repo.PostRow): AdminPost {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    excerpt: r.excerpt,
    markdown: r.markdown,
    author: r.authorName,
    coverImageUrl: r.coverImageUrl,
    featured: r.featured,
    publishedAt: r.publishedAt.toISOString(),
  };
}

type PostPatch = Partial<Omit<CreatePostInput, "slug">>;

export const postsAdmin = {
  list: async (db: Db) => (await repo.allPosts(db, 1000)).map(adminPostView),

  async get(db: Db, slug: string): Promise<AdminPost> {
    const row = await repo.findBySlug(db, slug);
    if (!row) throw AppError.notFound("Post");
    return adminPostView(row);
  },

  /** Writes one post (its Markdown rendered and sanitized once, like every post; 409 on a taken slug). */
  async create(db: Db, input: CreatePostInput): Promise<AdminPost> {
    const [slug] = await createBlogService(db).createPosts([input]);
    return postsAdmin.get(db, slug ?? input.slug);
  },

  /** Changes a post; new Markdown is rendered and sanitized again. */
  async update(db: Db, slug: string, patch: PostPatch): Promise<{ before: AdminPost; after: AdminPost }> {
    const before = await postsAdmin.get(db, slug);
    const parsed = adminPostPatchSchema.safeParse(patch);
    if (!parsed.success) throw AppError.validation("post", zodIssues(parsed.error));
    const p = parsed.data;
    const changes: Parameters<typeof repo.updatePost>[2] = {};
    if (p.title !== undefined) changes.title = p.title;
    if (p.excerpt !== undefined) changes.excerpt = p.excerpt;
    if (p.author !== undefined) changes.authorName = p.author;
    if (p.coverImageUrl !== undefined) changes.coverImageUrl = p.coverImageUrl;
    if (p.coverImageAlt !== undefined) changes.coverImageAlt = p.coverImageAlt;
    if (p.featured !== undefined) changes.featured = p.featured;
    if (p.publishedAt !== undefined) changes.publishedAt = new Date(p.publishedAt);
    if (p.markdown !== undefined) {
      const html = renderMarkdown(p.markdown);
      Object.assign(changes, {
        markdown: p.markdown,
        html,
        renderVersion: RENDER_VERSION,
        readingMinutes: readingMinutes(html),
      });
    }
    const row = await repo.updatePost(db, slug, changes);
    if (!row) throw AppError.notFound("Post");
    return { before, after: adminPostView(row) };
  },
};
