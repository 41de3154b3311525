// Optional second source of posts: a WordPress site's REST API (`WORDPRESS_URL`). The newest 100
// published posts are read from wp-json/wp/v2/posts?_embed, sanitized like our own posts, and kept
// in memory for `ttlMs`; when a refresh fails the last good list is served (and the failure logged),
// and before the first success the blog shows our own posts only.
import { POST_SLUG } from "@diginoor/api/blog";
import { z } from "zod";
import { type Clock, systemClock } from "../../platform/clock.ts";
import { htmlToText, readingMinutes, sanitizePostHtml } from "./render.ts";

/** A post as the blog service sees it, whatever its source. */
export interface PostRecord {
  slug: string;
  title: string;
  excerpt: string;
  coverImageUrl: string | null;
  coverImageAlt: string;
  author: string;
  publishedAt: Date;
  featured: boolean;
  readingMinutes: number;
  html: string;
  source: "diginoor" | "wordpress";
}

const rendered = z.object({ rendered: z.string() });

/** The fields we read of a WordPress post (everything else is ignored). */
const wpPostSchema = z.object({
  slug: z.string(),
  date: z.string(),
  date_gmt: z.string().nullish(),
  status: z.string().optional(),
  sticky: z.boolean().optional(),
  /** "yes" or empty: the old site's featured flag (a custom field). */
  featured: z.unknown().optional(),
  featured_media_src_url: z.string().nullish(),
  title: rendered,
  content: rendered,
  excerpt: rendered,
  _embedded: z
    .object({
      author: z.array(z.object({ name: z.string().optional() }).passthrough()).optional(),
      "wp:featuredmedia": z
        .array(z.object({ source_url: z.string().optional(), alt_text: z.string().optional() }).passthrough())
        .optional(),
    })
    .passthrough()
    .optional(),
});
type WpPost = z.infer<typeof wpPostSchema>;

const MAX_BYTES = 5 * 1024 * 1024;
const EXCERPT_CHARS = 300;

function httpUrl(u: string | null | undefined): string | null {
  if (!u) return null;
  try {
    const url = new URL(u);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** WordPress dates carry no zone: `date_gmt` is UTC, `date` is the site's local time (taken as UTC). */
function wpDate(p: WpPost): Date | null {
  const raw = p.date_gmt || p.date;
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).replace(/[\s,.;:]+$/, "")}…`;
}

/** One WordPress post as a PostRecord, or null when it cannot be shown (bad slug, bad date). */
export function fromWordPress(p: WpPost): PostRecord | null {
  const slug = p.slug.toLowerCase();
  if (!POST_SLUG.test(slug) || slug.length > 120) return null;
  if (p.status && p.status !== "publish") return null;
  const publishedAt = wpDate(p);
  if (!publishedAt) return null;
  const html = sanitizePostHtml(p.content.rendered);
  const media = p._embedded?.["wp:featuredmedia"]?.[0];
  const title = htmlToText(p.title.rendered) || slug;
  return {
    slug,
    title: shorten(title, 200),
    excerpt: shorten(htmlToText(p.excerpt.rendered), EXCERPT_CHARS),
    coverImageUrl: httpUrl(p.featured_media_src_url) ?? httpUrl(media?.source_url),
    coverImageAlt: htmlToText(media?.alt_text ?? ""),
    author: htmlToText(p._embedded?.author?.[0]?.name ?? "") || "Diginoor",
    publishedAt,
    featured: p.featured === "yes" || p.featured === true || p.sticky === true,
    readingMinutes: readingMinutes(html),
    html,
    source: "wordpress",
  };
}

export interface WordPressSourceOptions {
  /** The site's base URL, e.g. https://blog.example.com (the REST API is under /wp-json/). */
  baseUrl: string;
  /** How long a fetched list is served before it is fetched again (default 5 minutes). */
  ttlMs?: number;
  timeoutMs?: number;
  clock?: Clock;
  log?: { warn: (obj: object, msg: string) => void };
}

export interface WordPressSource {
  /** The site's posts (newest 100), from the cache when fresh. Never throws. */
  list(): Promise<PostRecord[]>;
}

export function createWordPressSource(opts: WordPressSourceOptions): WordPressSource {
  const ttl = opts.ttlMs ?? 5 * 60_000;
  const clock = opts.clock ?? systemClock;
  const url = new URL("wp-json/wp/v2/posts", opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`);
  url.searchParams.set("_embed", "1");
  url.searchParams.set("per_page", "100");
  let good: { at: number; posts: PostRecord[] } | undefined;
  let inFlight: Promise<PostRecord[]> | undefined;
  let failedAt: number | undefined;

  async function fetchPosts(): Promise<PostRecord[]> {
    const res = await fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
      redirect: "follow",
    });
    if (!res.ok) throw new Error(`WordPress answered ${res.status}`);
    const length = Number(res.headers.get("content-length") ?? 0);
    if (length > MAX_BYTES) throw new Error(`WordPress answer is too large (${length} bytes)`);
    const text = await res.text();
    if (text.length > MAX_BYTES) throw new Error("WordPress answer is too large");
    const body = z.array(z.unknown()).parse(JSON.parse(text));
    const posts: PostRecord[] = [];
    const seen = new Set<string>();
    for (const item of body) {
      const parsed = wpPostSchema.safeParse(item);
      const post = parsed.success ? fromWordPress(parsed.data) : null;
      if (post && !seen.has(post.slug)) {
        seen.add(post.slug);
        posts.push(post);
      }
    }
    return posts;
  }

  return {
    list() {
      const now = clock.now();
      if (good && now - good.at < ttl) return Promise.resolve(good.posts);
      // After a failure, wait a little before trying again (the stale list, or none, meanwhile).
      if (failedAt !== undefined && now - failedAt < Math.min(ttl, 30_000))
        return Promise.resolve(good?.posts ?? []);
      inFlight ??= fetchPosts()
        .then((posts) => {
          good = { at: clock.now(), posts };
          failedAt = undefined;
          return posts;
        })
        .catch((err: unknown) => {
          failedAt = clock.now();
          opts.log?.warn({ err, url: url.toString() }, "WordPress posts could not be read");
          return good?.posts ?? [];
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
  };
}
