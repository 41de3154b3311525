// Blog queries. Lists are keyset pages on (published_at, slug), newest first, never OFFSET.
import { and, desc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { blogPosts } from "./tables.ts";

export type PostRow = typeof blogPosts.$inferSelect;
export type NewPostRow = typeof blogPosts.$inferInsert;

export interface PostKey {
  publishedAt: Date;
  slug: string;
}

/** Published posts (published_at ≤ now) after `after`, newest first; `limit` rows at most. */
export async function listPublished(
  db: Db,
  opts: { now: Date; limit: number; after?: PostKey; featuredOnly?: boolean },
): Promise<PostRow[]> {
  const conditions = [lte(blogPosts.publishedAt, opts.now)];
  if (opts.featuredOnly) conditions.push(eq(blogPosts.featured, true));
  if (opts.after) {
    const a = opts.after;
    const older = or(
      lt(blogPosts.publishedAt, a.publishedAt),
      and(eq(blogPosts.publishedAt, a.publishedAt), lt(blogPosts.slug, a.slug)),
    );
    if (older) conditions.push(older);
  }
  return db
    .select()
    .from(blogPosts)
    .where(and(...conditions))
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.slug))
    .limit(opts.limit);
}

export async function findBySlug(db: Db, slug: string): Promise<PostRow | undefined> {
  const rows = await db.select().from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  return rows[0];
}

/** Inserts posts in one statement; returns their slugs. */
export async function insertPosts(db: Db, rows: NewPostRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(blogPosts).values(rows).returning({ slug: blogPosts.slug });
  return inserted.map((r) => r.slug);
}

/** Which of `slugs` are taken. */
export async function existingSlugs(db: Db, slugs: string[]): Promise<string[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(inArray(blogPosts.slug, slugs));
  return rows.map((r) => r.slug);
}

/** Stores a new rendering of a post's Markdown. */
export async function updateRendering(
  db: Db,
  id: number,
  r: { html: string; renderVersion: number; readingMinutes: number },
): Promise<void> {
  await db.update(blogPosts).set(r).where(eq(blogPosts.id, id));
}

export async function countPosts(db: Db): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(blogPosts);
  return Number(rows[0]?.n ?? 0);
}

/** Every post of ours, scheduled ones too, newest first (the studio console). */
export function allPosts(db: Db, limit: number): Promise<PostRow[]> {
  return db.select().from(blogPosts).orderBy(desc(blogPosts.publishedAt), desc(blogPosts.slug)).limit(limit);
}

/** Changes one post (and `updated_at`); returns the new row. */
export async function updatePost(
  db: Db,
  slug: string,
  changes: Partial<Omit<NewPostRow, "id" | "slug" | "createdAt" | "updatedAt">>,
): Promise<PostRow | undefined> {
  const rows = await db
    .update(blogPosts)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(blogPosts.slug, slug))
    .returning();
  return rows[0];
}
