import http from "node:http";
import type { AddressInfo } from "node:net";
import { postListResponseSchema } from "@diginoor/api/blog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBlog } from "../seed/blog.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * The optional WordPress source against a local server answering like WordPress's REST API
 * (wp-json/wp/v2/posts?_embed): posts shown beside ours, sanitized the same way, cached.
 */

const wpPosts = [
  {
    id: 11,
    slug: "from-wordpress",
    date: "2026-03-02T08:04:05",
    date_gmt: "2026-03-02T02:34:05",
    status: "publish",
    featured: "yes",
    title: { rendered: "Rock &amp; Roll &#8211; <em>live</em>" },
    excerpt: { rendered: "<p>A short excerpt &hellip;</p>\n" },
    content: {
      rendered:
        '<p class="wp-block">A <strong>real</strong> paragraph.</p><script>alert(1)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">bad link</a><svg onload="alert(1)"></svg><iframe src="https://evil.example"></iframe><p>End.</p>',
    },
    featured_media_src_url: "https://wp.example/cover.jpg",
    _embedded: {
      author: [{ id: 1, name: "WP Author" }],
      "wp:featuredmedia": [{ source_url: "https://wp.example/other.jpg", alt_text: "A cover &amp; more" }],
    },
  },
  {
    // Same slug as one of our posts: ours wins.
    slug: "what-is-an-nft",
    date: "2026-03-03T00:00:00",
    title: { rendered: "Imposter" },
    excerpt: { rendered: "" },
    content: { rendered: "<p>imposter</p>" },
  },
  {
    slug: "Bad Slug!",
    date: "2026-03-01T00:00:00",
    title: { rendered: "x" },
    excerpt: { rendered: "" },
    content: { rendered: "" },
  },
  {
    slug: "a-draft",
    status: "draft",
    date: "2026-03-01T00:00:00",
    title: { rendered: "Draft" },
    excerpt: { rendered: "" },
    content: { rendered: "" },
  },
  {
    slug: "no-cover-here",
    date: "2026-02-01T00:00:00",
    featured_media_src_url: "javascript:alert(1)",
    title: { rendered: "No cover" },
    excerpt: { rendered: "<p>Plain.</p>" },
    content: { rendered: "<p>Plain body.</p>" },
    _embedded: { author: [{}] },
  },
  { not: "a post" },
];

let mode: "ok" | "fail" = "ok";
let requests: string[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (mode === "fail") {
      res.writeHead(503).end("down");
      return;
    }
    if (!req.url?.startsWith("/wp-json/wp/v2/posts")) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(wpPosts));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("WordPress source", () => {
  let t: TestApp;
  const clock = createTestClock(new Date("2026-04-01T12:00:00Z"));

  beforeAll(async () => {
    // A generous timeout: on a loaded machine a read must not fail for slowness (that is another test).
    t = await createTestApp({ WORDPRESS_URL: `${base}/`, WORDPRESS_TIMEOUT_MS: "60000" }, { clock });
    await seedBlog(t.ctx.db, { now: clock.date() });
  });
  afterAll(() => t?.close());

  const get = (url: string) => t.app.inject({ method: "GET", url });

  it("lists WordPress posts beside ours, read from wp-json/wp/v2/posts?_embed", async () => {
    requests = [];
    const res = await get("/api/v1/posts?limit=50");
    expect(res.statusCode).toBe(200);
    const body = postListResponseSchema.parse(res.json());
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0] ?? "", base);
    expect(url.pathname).toBe("/wp-json/wp/v2/posts");
    expect(url.searchParams.has("_embed")).toBe(true);

    const wp = body.items.find((p) => p.slug === "from-wordpress");
    expect(wp).toMatchObject({
      title: "Rock & Roll \u2013 live",
      excerpt: "A short excerpt \u2026",
      author: "WP Author",
      coverImageUrl: "https://wp.example/cover.jpg",
      coverImageAlt: "A cover & more",
      featured: true,
      source: "wordpress",
      publishedAt: "2026-03-02T02:34:05.000Z",
    });
    expect(body.featured.map((p) => p.slug)).toContain("from-wordpress");
    // Ours wins a shared slug; drafts, bad slugs and non-posts are skipped.
    expect(body.items.filter((p) => p.slug === "what-is-an-nft")).toHaveLength(1);
    expect(body.items.find((p) => p.slug === "what-is-an-nft")?.source).toBe("diginoor");
    const slugs = body.items.map((p) => p.slug);
    expect(slugs).not.toContain("a-draft");
    expect(slugs.some((s) => s.includes(" "))).toBe(false);
    // A cover URL that is not http(s) is dropped; a missing author name falls back to ours.
    expect(body.items.find((p) => p.slug === "no-cover-here")).toMatchObject({
      coverImageUrl: null,
      author: "Diginoor",
    });
    // Newest first across both sources.
    const dates = body.items.map((p) => p.publishedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("serves a WordPress post with its body sanitized like ours", async () => {
    const res = await get("/api/v1/posts/from-wordpress");
    expect(res.statusCode).toBe(200);
    const { html } = res.json();
    expect(html).toContain("<p>A <strong>real</strong> paragraph.</p>");
    expect(html).toContain("<p>End.</p>");
    expect(html).not.toMatch(/<script|<svg|<iframe|\son[a-z]+=|javascript:|class=/i);
    expect((await get("/api/v1/posts/what-is-an-nft")).json().html).not.toContain("imposter");
  });

  it("includes WordPress posts in the RSS feed", async () => {
    const res = await get("/blog/rss.xml");
    expect(res.body).toContain("<link>http://localhost:3000/blog/from-wordpress</link>");
  });

  it("caches the list, refreshes it after five minutes, and serves the last good list when WordPress fails", async () => {
    requests = [];
    await get("/api/v1/posts");
    await get("/api/v1/posts/from-wordpress");
    expect(requests).toHaveLength(0);

    clock.advance(5 * 60_000 + 1);
    await get("/api/v1/posts");
    expect(requests).toHaveLength(1);

    mode = "fail";
    clock.advance(5 * 60_000 + 1);
    const stale = await get("/api/v1/posts/from-wordpress");
    expect(stale.statusCode).toBe(200);
    expect(requests).toHaveLength(2);
    // Failures are not retried on every request.
    await get("/api/v1/posts");
    expect(requests).toHaveLength(2);

    mode = "ok";
    clock.advance(31_000);
    await get("/api/v1/posts");
    expect(requests).toHaveLength(3);
  });
});

describe("WordPress source that cannot be reached", () => {
  let t: TestApp;
  beforeAll(async () => {
    // A port nobody listens on: the closed server's.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    t = await createTestApp({ WORDPRESS_URL: `http://127.0.0.1:${port}` });
    await seedBlog(t.ctx.db);
  });
  afterAll(() => t?.close());

  it("still serves our own posts", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/posts?limit=50" });
    expect(res.statusCode).toBe(200);
    const body = postListResponseSchema.parse(res.json());
    expect(body.items.length).toBeGreaterThan(5);
    expect(body.items.every((p) => p.source === "diginoor")).toBe(true);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/posts/from-wordpress" })).statusCode).toBe(404);
  });
});
