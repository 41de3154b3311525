// Drizzle definition of the blog module's table; it mirrors migrations/0080_blog.sql (the SQL file
// is the source of truth: the slug CHECK and the length limits live there).
import { bigserial, boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    coverImageUrl: text("cover_image_url"),
    coverImageAlt: text("cover_image_alt").notNull().default(""),
    authorName: text("author_name").notNull(),
    markdown: text("markdown").notNull(),
    html: text("html").notNull(),
    renderVersion: integer("render_version").notNull(),
    readingMinutes: integer("reading_minutes").notNull(),
    featured: boolean("featured").notNull().default(false),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("blog_posts_published_idx").on(t.publishedAt.desc(), t.slug.desc())],
);
