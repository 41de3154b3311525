import { type PostListResponse, postDetailSchema, postListResponseSchema } from "@diginoor/api/blog";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeXml } from "../seed/artwork/svg.ts";
import { seedBlog } from "../seed/blog.ts";
import { seedPosts } from "../seed/blog-data.ts";
import { retiredPosts } from "../seed/blog-retired.ts";
import { rowsOf } from "../src/lib/rate-limit.ts";
import { createBlogService, postsAdmin } from "../src/modules/blog/service.ts";
import { AppError } from "../src/http/errors.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { localStorage } from "../src/lib/storage/local.ts";

let t: TestApp;
const NOW = new Date();

beforeAll(async () => {
  t = await createTestApp();
  const result = await seedBlog(t.ctx.db, { now: NOW });
  expect(result).toMatchObject({ seeded: true, posts: seedPosts.length });
});
afterAll(() => t?.close());

async function get(url: string) {
  const res = await t.app.inject({ method: "GET", url });
  return { status: res.statusCode, body: res.body, json: () => res.json(), headers: res.headers };
}

async function list(query = ""): Promise<PostListResponse> {
  const res = await get(`/api/v1/posts${query ? `?${query}` : ""}`);
  expect(res.status, res.body).toBe(200);
  return postListResponseSchema.parse(res.json());
}

describe("seed", () => {
  it("is idempotent, and writes each cover as SVG and as a 1200 × 630 JPEG for link previews", async () => {
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-blog-covers-"));
    try {
      const again = await seedBlog(t.ctx.db, { now: NOW, storage: localStorage(mediaDir) });
      expect(again).toMatchObject({ seeded: false, posts: 0, artworkFilesWritten: seedPosts.length * 2 });
      for (const p of seedPosts) {
        const svg = fs.readFileSync(path.join(mediaDir, `blog/${p.slug}.svg`), "utf8");
        expect(svg).toContain(escapeXml(p.label.toUpperCase()));
        const meta = await sharp(path.join(mediaDir, `blog/${p.slug}.jpg`)).metadata();
        expect(meta).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
      }
    } finally {
      fs.rmSync(mediaDir, { recursive: true, force: true });
    }
  });
});

describe("seed refresh", () => {
  it("gives a launch post still in its retired text today's text, and leaves an edited one alone", async () => {
    const retired = (slug: string) => {
      const old = retiredPosts.find((r) => r.slug === slug);
      expect(old, slug).toBeTruthy();
      return old as NonNullable<typeof old>;
    };
    const guide = retired("a-beginners-guide-to-diginoor");
    const wallet = retired("choosing-your-first-wallet");
    const { slug: _g, ...guideOld } = guide;
    const { slug: _w, ...walletOld } = wallet;
    // A blog seeded before the rewrite: both posts in the old text; someone then retitled one.
    await postsAdmin.update(t.ctx.db, guide.slug, guideOld);
    await postsAdmin.update(t.ctx.db, wallet.slug, { ...walletOld, title: "Our wallet guide (edited)" });
    try {
      const again = await seedBlog(t.ctx.db, { now: NOW });
      expect(again).toMatchObject({ seeded: false, posts: 0, refreshed: 1 });
      const now = seedPosts.find((p) => p.slug === guide.slug);
      const refreshed = await postsAdmin.get(t.ctx.db, guide.slug);
      expect(refreshed).toMatchObject({ title: now?.title, excerpt: now?.excerpt, markdown: now?.markdown });
      const page = await get(`/api/v1/posts/${guide.slug}`);
      expect(page.body).not.toMatch(/MetaMask|US dollars|20 to 30 minutes/);
      expect(page.body).toContain("within seconds");
      const edited = await postsAdmin.get(t.ctx.db, wallet.slug);
      expect(edited).toMatchObject({ title: "Our wallet guide (edited)", markdown: wallet.markdown });
      // Once refreshed, nothing is left to refresh.
      expect(await seedBlog(t.ctx.db, { now: NOW })).toMatchObject({ refreshed: 0 });
    } finally {
      const w = seedPosts.find((p) => p.slug === wallet.slug);
      await postsAdmin.update(t.ctx.db, wallet.slug, {
        title: w?.title,
        excerpt: w?.excerpt,
        markdown: w?.markdown,
      });
    }
  });
});

describe("GET /api/v1/posts", () => {
  it("lists every seeded post newest first, walking the pages without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const q = `limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await list(q);
      seen.push(...page.items.map((p) => p.slug));
      cursor = page.nextCursor;
      if (!cursor) break;
      expect(page.items).toHaveLength(4);
    }
    const expected = [...seedPosts].sort((a, b) => a.daysAgo - b.daysAgo).map((p) => p.slug);
    expect(seen).toEqual(expected);
  });

  it("returns the featured posts, the two beginner guides among them, with covers and authors", async () => {
    const page = await list();
    const featured = page.featured.map((p) => p.slug);
    expect(featured).toEqual(
      seedPosts
        .filter((p) => p.featured)
        .sort((a, b) => a.daysAgo - b.daysAgo)
        .map((p) => p.slug),
    );
    expect(featured).toEqual(expect.arrayContaining(["what-is-an-nft", "a-beginners-guide-to-diginoor"]));
    for (const p of page.items) {
      expect(p.coverImageUrl).toBe(`/media/blog/${p.slug}.jpg`);
      expect(p.author.length).toBeGreaterThan(0);
      expect(p.readingMinutes).toBeGreaterThanOrEqual(1);
      expect(p.source).toBe("diginoor");
    }
  });

  it("refuses bad paging input with the one error shape", async () => {
    for (const [q, field] of [
      ["limit=0", "limit"],
      ["limit=51", "limit"],
      ["limit=abc", "limit"],
      ["cursor=not-a-cursor", "cursor"],
      [`cursor=${Buffer.from('["2026-01-01T00:00:00Z","Bad Slug"]').toString("base64url")}`, "cursor"],
      ["sort=title", "sort"],
    ] as const) {
      const res = await get(`/api/v1/posts?${q}`);
      expect(res.status, q).toBe(400);
      const body = res.json();
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe("GET /api/v1/posts/:slug", () => {
  it("returns a guide with its sanitized HTML body", async () => {
    const res = await get("/api/v1/posts/what-is-an-nft");
    expect(res.status).toBe(200);
    const post = postDetailSchema.parse(res.json());
    expect(post.title).toBe("What is an NFT?");
    expect(post.html).toContain("<h2>Non-fungible, in one sentence</h2>");
    expect(post.html).toContain('<a href="/blog/a-beginners-guide-to-diginoor">');
    expect(post.author).toBe("Meera Krishnan");
  });

  it("answers 404 in the one error shape for unknown and malformed slugs", async () => {
    for (const slug of ["no-such-post", "Bad%20Slug", "..%2F..%2Fetc", "a".repeat(150), "%F0%9F%8E%AC"]) {
      const res = await get(`/api/v1/posts/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.json()).toEqual({ error: { code: "not_found", message: "Post not found" } });
    }
  });

  it("accepts the slug in any letter case", async () => {
    expect((await get("/api/v1/posts/What-Is-An-NFT")).status).toBe(200);
  });
});

describe("writing posts", () => {
  const blog = () => createBlogService(t.ctx.db);

  it("stores hostile Markdown rendered inert, and serves that", async () => {
    await blog().createPosts([
      {
        slug: "hostile-markup-test",
        title: "Hostile <script>alert(1)</script> title",
        excerpt: "x",
        author: "Tester",
        markdown:
          '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[link](javascript:alert(1))\n\n<svg onload="alert(1)"><script>alert(2)</script></svg>\n\n<iframe src="https://evil.example"></iframe>\n\nSafe text.',
        publishedAt: new Date(NOW.getTime() - 1000 * 86_400_000).toISOString(),
      },
    ]);
    const res = await get("/api/v1/posts/hostile-markup-test");
    expect(res.status).toBe(200);
    const { html, title } = res.json();
    // The title is text: the page escapes it. The body is HTML, and inert.
    expect(title).toBe("Hostile <script>alert(1)</script> title");
    expect(html).not.toMatch(/<script|<svg|<iframe|\son[a-z]+=|href="javascript/i);
    expect(html).toContain("Safe text.");
  });

  it("refuses bad input naming the field, and a taken slug with 409, writing nothing", async () => {
    const before = await blog().countPosts();
    const bad = [
      [{ slug: "Bad Slug", title: "t", markdown: "m", author: "a" }, "slug"],
      [{ slug: "ok-slug", title: "", markdown: "m", author: "a" }, "title"],
      [{ slug: "ok-slug", title: "t", markdown: "", author: "a" }, "markdown"],
      [{ slug: "ok-slug", title: "t", markdown: "m", author: "a", publishedAt: "yesterday" }, "publishedAt"],
    ] as const;
    for (const [input, field] of bad) {
      const err = await blog()
        .createPosts([input])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect(((err as AppError).details as { field: string }[]).map((d) => d.field)).toContain(field);
    }
    const conflict = await blog()
      .createPosts([
        { slug: "a-fresh-post", title: "t", markdown: "m", author: "a" },
        { slug: "what-is-an-nft", title: "t", markdown: "m", author: "a" },
      ])
      .catch((e: unknown) => e);
    expect((conflict as AppError).status).toBe(409);
    expect(await blog().countPosts()).toBe(before);
  });

  it("hides scheduled posts until their date", async () => {
    await blog().createPosts([
      {
        slug: "scheduled-post",
        title: "Coming next week",
        markdown: "Soon.",
        author: "a",
        publishedAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    ]);
    expect((await get("/api/v1/posts/scheduled-post")).status).toBe(404);
    const page = await list("limit=50");
    expect(page.items.map((p) => p.slug)).not.toContain("scheduled-post");
  });

  it("renders again a post stored by an older renderer, and saves the new rendering", async () => {
    await t.ctx.db.execute(
      sql`UPDATE blog_posts SET html = '<p>stale</p>', render_version = 0 WHERE slug = 'what-is-an-nft'`,
    );
    const post = (await get("/api/v1/posts/what-is-an-nft")).json();
    expect(post.html).toContain("<h2>Non-fungible, in one sentence</h2>");
    const rows = rowsOf<{ v: number; html: string }>(
      await t.ctx.db.execute(
        sql`SELECT render_version AS v, html FROM blog_posts WHERE slug = 'what-is-an-nft'`,
      ),
    );
    expect(rows[0]?.v).toBeGreaterThan(0);
    expect(rows[0]?.html).toBe(post.html);
  });
});

describe("GET /blog/rss.xml", () => {
  it("is an RSS 2.0 feed with every published post", async () => {
    const res = await get("/blog/rss.xml");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_" }).parse(res.body);
    expect(doc.rss["@_version"]).toBe("2.0");
    const channel = doc.rss.channel;
    expect(channel.title).toBe("Diginoor Blog");
    expect(channel.link).toBe("http://localhost:3000/blog");
    expect(channel.description.length).toBeGreaterThan(10);
    const items = channel.item as Record<string, unknown>[];
    const links = items.map((i) => i.link);
    for (const p of seedPosts) expect(links).toContain(`http://localhost:3000/blog/${p.slug}`);
    expect(links).not.toContain("http://localhost:3000/blog/scheduled-post");
    for (const item of items) {
      expect(typeof item.title).toBe("string");
      expect(typeof item.description).toBe("string");
      expect((item.guid as Record<string, string>)["#text"]).toBe(item.link);
      // RFC 822 dates, as RSS 2.0 requires.
      expect(item.pubDate).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    }
    // Text that looks like markup is escaped, not interpreted.
    const hostile = items.find((i) => i.link === "http://localhost:3000/blog/hostile-markup-test");
    expect(hostile?.title).toBe("Hostile <script>alert(1)</script> title");
    expect(res.body).not.toContain("<script>");
  });
});
