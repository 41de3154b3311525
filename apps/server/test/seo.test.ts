import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeHTMLAttribute } from "entities";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBlog } from "../seed/blog.ts";
import { seedPosts } from "../seed/blog-data.ts";
import { seedFilms, seedNfts } from "../seed/catalogue-data.ts";
import { nftPublicId, seedCatalogue } from "../seed/seed.ts";
import { createBlogService } from "../src/modules/blog/service.ts";
import { createTestApp, type TestApp } from "./harness.ts";

/**
 * Search-engine pages: the HTML the server returns carries each page's title, description,
 * canonical URL and Open Graph / Twitter tags without JavaScript; /sitemap.xml and /robots.txt.
 */

const BASE = "http://localhost:3000";
// The web app's index.html (the built one has the same head, plus Vite's script and style tags).
const INDEX_HTML = fs.readFileSync(new URL("../../web/index.html", import.meta.url), "utf8");

let t: TestApp;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-seo-web-"));

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, "index.html"), INDEX_HTML);
  t = await createTestApp({ WEB_DIST_DIR: dist });
  await seedCatalogue(t.ctx.db);
  await seedBlog(t.ctx.db);
  await createBlogService(t.ctx.db).createPosts([
    {
      slug: "quotes-and-tags",
      title: 'A "quoted" </title><script>alert(1)</script> title & more',
      excerpt: '"><img src=x onerror=alert(1)>',
      markdown: "Body.",
      author: "Tester",
      publishedAt: new Date(Date.now() - 3_600_000).toISOString(),
    },
  ]);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

interface Head {
  status: number;
  title: string[];
  meta: Record<string, string>;
  canonical: string[];
  body: string;
}

/** The page's head as a crawler reads it: titles, meta name/property → content, canonical links. */
async function head(url: string): Promise<Head> {
  const res = await t.app.inject(url);
  expect(res.headers["content-type"]).toContain("text/html");
  const html = res.body;
  const headHtml = html.slice(0, html.indexOf("</head>"));
  const meta: Record<string, string> = {};
  for (const m of headHtml.matchAll(/<meta\s+(?:name|property)="([^"]+)"\s+content="([^"]*)"\s*\/>/g)) {
    expect(meta[m[1] as string], `one ${m[1]}`).toBeUndefined();
    meta[m[1] as string] = decodeHTMLAttribute(m[2] as string);
  }
  // The multi-line description of the template is gone when a page has its own.
  const descriptions = headHtml.match(/name="description"/g) ?? [];
  expect(descriptions).toHaveLength(1);
  if (!meta.description) {
    const m = /<meta\s+name="description"\s+content="([^"]*)"/.exec(headHtml);
    if (m) meta.description = decodeHTMLAttribute(m[1] as string);
  }
  return {
    status: res.statusCode,
    title: [...headHtml.matchAll(/<title>([\s\S]*?)<\/title>/g)].map((m) => m[1] as string),
    meta,
    canonical: [...headHtml.matchAll(/<link rel="canonical" href="([^"]*)"/g)].map((m) => m[1] as string),
    body: html,
  };
}

describe("HTML of an NFT page", () => {
  const seed = seedNfts.find((n) => n.slug === "kabali-magizhchi");
  const id = nftPublicId(seed?.slug ?? "");

  it("carries the NFT's title, description and picture in its Open Graph and Twitter tags", async () => {
    const nft = (await t.app.inject(`/api/v1/nfts/${id}`)).json();
    const h = await head(`/nftdetail/${id}`);
    expect(h.status).toBe(200);
    expect(h.title).toEqual([`${nft.title} · Diginoor`]);
    expect(h.meta["og:title"]).toBe(`${nft.title} · Diginoor`);
    expect(h.meta["og:description"]).toContain(nft.description.slice(0, 40));
    expect(h.meta.description).toBe(h.meta["og:description"]);
    // The picture: a 1200 × 630 JPEG card of the NFT (previewers do not show SVG), absolute
    // (og-cards.test.ts fetches every page's card).
    expect(nft.imageUrl).toMatch(/\.svg$/);
    expect(h.meta["og:image"]).toMatch(new RegExp(`^${BASE}/og/nft/${id}\\.jpg\\?v=[0-9a-f]{16}$`));
    expect(h.meta["og:image:type"]).toBe("image/jpeg");
    expect(h.meta["twitter:image"]).toBe(h.meta["og:image"]);
    expect(h.meta["twitter:card"]).toBe("summary_large_image");
    expect(h.meta["og:url"]).toBe(`${BASE}/nftdetail/${id}`);
    expect(h.canonical).toEqual([`${BASE}/nftdetail/${id}`]);
    expect(h.body).toContain('<div id="root"></div>');
    expect(h.body).toContain('<script type="module"');
  });

  it("serves the app with 404 for an unknown NFT id, without that NFT's tags", async () => {
    for (const url of ["/nftdetail/no-such-nft", "/nftdetail/%F0%9F%8E%AC", "/nftdetail/x%00y"]) {
      const h = await head(url);
      expect(h.status, url).toBe(404);
      expect(h.body).toContain('<div id="root"></div>');
      expect(h.meta["og:title"]).toBeUndefined();
      expect(h.canonical).toEqual([]);
    }
  });
});

describe("HTML of a blog post", () => {
  it("has the post's title plus ' | Diginoor', its excerpt, cover and article tags", async () => {
    const post = seedPosts.find((p) => p.slug === "what-is-an-nft");
    const h = await head("/blog/what-is-an-nft");
    expect(h.status).toBe(200);
    expect(h.title).toEqual(["What is an NFT? | Diginoor"]);
    expect(h.meta.description).toBe(post?.excerpt);
    expect(h.meta["og:type"]).toBe("article");
    expect(h.meta["og:image"]).toMatch(/^http:\/\/localhost:3000\/og\/post\/what-is-an-nft\.jpg\?v=/);
    expect(h.meta["article:author"]).toBe(post?.author);
    expect(Number.isNaN(Date.parse(h.meta["article:published_time"] ?? ""))).toBe(false);
    expect(h.canonical).toEqual([`${BASE}/blog/what-is-an-nft`]);
  });

  it("escapes everything it writes: markup in a title stays text", async () => {
    const h = await head("/blog/quotes-and-tags");
    expect(h.status).toBe(200);
    const title = 'A "quoted" </title><script>alert(1)</script> title & more | Diginoor';
    expect(h.meta["og:title"]).toBe(title);
    expect(h.meta.description).toBe('"><img src=x onerror=alert(1)>');
    expect(h.title).toEqual([
      'A "quoted" &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; title &amp; more | Diginoor',
    ]);
    expect(h.body).not.toContain("<script>alert");
    expect(h.body).not.toContain("<img src=x");
  });

  it("answers 404 for an unknown post", async () => {
    const h = await head("/blog/no-such-post");
    expect(h.status).toBe(404);
    expect(h.meta["og:title"]).toBeUndefined();
  });
});

describe("HTML of film pages, collections and other pages", () => {
  it("describes each film page with the film's name, description and poster", async () => {
    for (const f of seedFilms) {
      for (const url of [`/${f.slug}`, `/${f.slug[0]?.toUpperCase()}${f.slug.slice(1)}`]) {
        const h = await head(url);
        expect(h.status, url).toBe(200);
        expect(h.title).toEqual([`${f.name} · Diginoor`]);
        expect(h.meta["og:description"]).toContain(f.description.slice(0, 40));
        expect(h.meta["og:image"]).toMatch(new RegExp(`^${BASE}/og/film/${f.slug}\\.jpg\\?v=`));
        expect(h.canonical).toEqual([`${BASE}/${f.slug}`]);
      }
    }
  });

  it("describes /collections with the featured collections", async () => {
    const h = await head("/collections");
    expect(h.status).toBe(200);
    expect(h.title).toEqual(["Collections · Diginoor"]);
    expect(h.meta["og:description"]).toContain("Sivaji");
    expect(h.meta["og:image"]).toMatch(/^http:\/\/localhost:3000\/og\/site\/diginoor\.jpg\?v=/);
    expect(h.canonical).toEqual([`${BASE}/collections`]);
  });

  it("gives other public pages their own title and canonical URL, and leaves unknown paths a 404", async () => {
    const h = await head("/how%20it%20works");
    expect(h.status).toBe(200);
    expect(h.title).toEqual(["How it works · Diginoor"]);
    expect(h.canonical).toEqual([`${BASE}/how%20it%20works`]);
    const blog = await head("/blog");
    expect(blog.title).toEqual(["Blog · Diginoor"]);
    // Pages we do not describe keep the app's own title (it sets its own once loaded).
    const login = await head("/login");
    expect(login.status).toBe(200);
    expect(login.title).toEqual(["Diginoor · Collectibles of Indian cinema"]);
    expect((await head("/no-such-page")).status).toBe(404);
  });
});

describe("/sitemap.xml", () => {
  it("lists the public pages, films, posts and every NFT under the sitemap protocol", async () => {
    const res = await t.app.inject("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      isArray: (n) => n === "url",
    }).parse(res.body);
    expect(doc.urlset["@_xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const urls = doc.urlset.url as { loc: string; lastmod?: string }[];
    expect(urls.length).toBeLessThanOrEqual(50_000);
    const locs = urls.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    for (const u of urls) {
      expect(u.loc.startsWith(`${BASE}/`)).toBe(true);
      expect(() => new URL(u.loc)).not.toThrow();
      expect(u.loc).not.toMatch(/\s/);
      if (u.lastmod !== undefined)
        expect(u.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Object.keys(u).every((k) => ["loc", "lastmod", "changefreq", "priority"].includes(k))).toBe(
        true,
      );
    }
    for (const p of [
      "/",
      "/collections",
      "/marketplace",
      "/blog",
      "/about",
      "/how%20it%20works",
      "/contact",
    ]) {
      expect(locs, p).toContain(`${BASE}${p}`);
    }
    for (const f of seedFilms) expect(locs).toContain(`${BASE}/${f.slug}`);
    for (const p of seedPosts) expect(locs).toContain(`${BASE}/blog/${p.slug}`);
    for (const n of seedNfts) expect(locs).toContain(`${BASE}/nftdetail/${nftPublicId(n.slug)}`);
    expect(locs.filter((l) => l.includes("/nftdetail/"))).toHaveLength(seedNfts.length);
    for (const l of locs) expect(l).not.toMatch(/\/(login|signup|profile|api)\b/);
  });
});

describe("/robots.txt", () => {
  it("lets crawlers in, keeps them out of the API and accounts, and points at the sitemap", async () => {
    const res = await t.app.inject("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const lines = res.body.split("\n");
    expect(lines[0]).toBe("User-agent: *");
    expect(lines).toContain("Disallow: /api/");
    expect(lines).toContain("Disallow: /profile");
    expect(lines).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });
});
