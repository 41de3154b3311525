import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import {
  imageUrlSchema,
  isoDateTime,
  lineText,
  paragraphsOk,
  paragraphText,
  requiredLine,
  textMessages,
} from "./text.ts";

/** A post's URL name: lower-case words of letters and digits joined by single dashes. */
export const POST_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const postSlugSchema = z
  .string()
  .max(120, "at most 120 characters")
  .regex(POST_SLUG, "must be lower-case letters and digits joined by single dashes");

/** Where a post comes from: written here in Markdown, or read from the configured WordPress site. */
export const postSourceSchema = z.enum(["diginoor", "wordpress"]);

/** A post in lists (the blog grid, the featured carousel, the RSS feed). */
export const postSummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  /** Absolute or site-relative URL of the cover picture; null when the post has none. */
  coverImageUrl: z.string().nullable(),
  coverImageAlt: z.string(),
  author: z.string(),
  /** ISO 8601 date-time. */
  publishedAt: z.string(),
  featured: z.boolean(),
  readingMinutes: z.number().int().min(1),
  source: postSourceSchema,
});
export type PostSummary = z.infer<typeof postSummarySchema>;

/** One post with its body as sanitized HTML (safe to insert into the page as is). */
export const postDetailSchema = postSummarySchema.extend({ html: z.string() });
export type PostDetail = z.infer<typeof postDetailSchema>;

/** Query string of GET /api/v1/posts. */
export const listPostsQuerySchema = z
  .object({
    limit: z
      .string()
      .regex(/^\d{1,3}$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1).max(50))
      .default(12),
    cursor: z.string().max(300, "is not a valid cursor").optional(),
  })
  .strict();
export type ListPostsQuery = z.input<typeof listPostsQuerySchema>;
export type ListPostsParsed = z.output<typeof listPostsQuerySchema>;

/** GET /api/v1/posts: the featured posts (carousel) and one page of every post, newest first. */
export const postListResponseSchema = z.object({
  featured: z.array(postSummarySchema),
  items: z.array(postSummarySchema),
  nextCursor: z.string().nullable(),
});
export type PostListResponse = z.infer<typeof postListResponseSchema>;

/** A new post written in Markdown (the seed, and later the studio console). */
export const createPostSchema = z
  .object({
    slug: postSlugSchema,
    title: requiredLine(200),
    excerpt: paragraphText(500).default(""),
    markdown: z
      .string()
      .min(1, "is required")
      .max(200_000, "at most 200,000 characters")
      .refine(paragraphsOk, textMessages.paragraphs),
    author: requiredLine(120),
    /** Like every image field: a /media/ path or an https URL. */
    coverImageUrl: imageUrlSchema.nullable().default(null),
    coverImageAlt: lineText(300).default(""),
    featured: z.boolean().default(false),
    /** ISO 8601 (years 1900–2200); default now. A future date schedules the post. */
    publishedAt: isoDateTime().optional(),
  })
  .strict();
export type CreatePostInput = z.input<typeof createPostSchema>;

/** The public blog (decision 130); the console's writes are admin endpoints. */
export const blogEndpoints = {
  listPosts: endpoint({
    operationId: "listPosts",
    method: "GET",
    path: "/api/v1/posts",
    summary: "Blog posts: the featured ones and a page of all, newest first (cursor pagination)",
    tags: ["blog"],
    query: listPostsQuerySchema,
    success: { status: 200, schema: postListResponseSchema },
  }),
  getPost: endpoint({
    operationId: "getPost",
    method: "GET",
    path: "/api/v1/posts/{slug}",
    summary: "One blog post with its body as sanitized HTML",
    tags: ["blog"],
    params: z.object({ slug: z.string().min(1).max(200) }).strict(),
    success: { status: 200, schema: postDetailSchema },
    errors: ["not_found"],
  }),
};
