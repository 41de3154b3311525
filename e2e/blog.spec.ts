import { expect, type Page, test } from "@playwright/test";
import { XMLParser } from "fast-xml-parser";
import { getJson } from "./support/api.ts";
import {
  expectNoHorizontalScroll,
  expectNoProblems,
  screenshot,
  settle,
  VIEWPORTS,
  waitForData,
  watchPage,
} from "./support/page.ts";

/** The stand-in WordPress site's hostile post (e2e/support/wordpress-fixture.mjs). */
const HOSTILE_SLUG = "sanitizer-check-hostile-markup";

/**
 * The blog with the seeded posts and the stand-in WordPress site's hostile post
 * (e2e/support/wordpress-fixture.mjs): /blog, a post, the home page's beginner guides, and a
 * hostile post that must run no script.
 */

interface Post {
  slug: string;
  title: string;
  author: string;
  excerpt: string;
  featured: boolean;
  source: string;
}
interface PostList {
  featured: Post[];
  items: Post[];
  nextCursor: string | null;
}

async function allPosts(page: Page): Promise<PostList> {
  return getJson<PostList>(page.request, "/api/v1/posts?limit=50");
}

test.describe("blog", () => {
  test("/blog shows the featured carousel and a grid of every post", async ({ page }) => {
    const watch = watchPage(page);
    await page.goto("/blog");
    await waitForData(page);
    const data = await allPosts(page);
    expect(data.items.length).toBeGreaterThanOrEqual(10);
    expect(data.items.some((p) => p.source === "wordpress")).toBe(true);

    await expect(page.getByRole("heading", { level: 1, name: "Stories from the foyer" })).toBeVisible();
    await expect(page).toHaveTitle("Blog · Diginoor");
    const carousel = page.getByRole("group", { name: "Featured posts" });
    await expect(carousel.getByRole("link", { name: data.featured[0]!.title })).toBeVisible();
    const cards = page.getByTestId("post-card");
    await expect(cards).toHaveCount(Math.min(12, data.items.length));
    for (const p of data.items.slice(0, 12)) {
      await expect(cards.getByRole("link", { name: p.title, exact: true })).toBeAttached();
    }
    expectNoProblems(watch);
  });

  test("a post opens from the grid with its title as the document title", async ({ page }) => {
    const watch = watchPage(page);
    const post = (await allPosts(page)).items.find(
      (p) => p.slug === "kabali-da-inside-the-kabali-collection",
    )!;
    await page.goto("/blog");
    await waitForData(page);
    await page.getByTestId("post-card").getByRole("link", { name: post.title, exact: true }).click();
    await expect(page).toHaveURL(`/blog/${post.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: post.title })).toBeVisible();
    await expect(page).toHaveTitle(`${post.title} | Diginoor`);
    await expect(page.locator(".post-header").getByText(post.author)).toBeVisible();
    await expect(page.locator(".post-header time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    await expect(page.locator(".post-figure img")).toHaveJSProperty("complete", true);
    expect(await page.locator(".post-figure img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(
      1200,
    );
    // The body is the rendered Markdown, with its internal links working in the app.
    await expect(page.locator(".prose h2").first()).toBeVisible();
    // Links inside the body stay in the app (no reload: the marker set on window survives).
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await page.locator(".prose").getByRole("link", { name: "Kabali page" }).click();
    await expect(page).toHaveURL("/kabali");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect(page.getByRole("heading", { level: 1, name: "Kabali" })).toBeVisible();
    expectNoProblems(watch);
  });

  test("the home page's beginner guide cards open the two guides", async ({ page }) => {
    const watch = watchPage(page);
    for (const [card, slug, title] of [
      ["What is an NFT?", "what-is-an-nft", "What is an NFT?"],
      ["A beginner's guide to Diginoor", "a-beginners-guide-to-diginoor", "A beginner's guide to Diginoor"],
    ] as const) {
      await page.goto("/");
      await page.locator(".guide-card", { hasText: card }).click();
      await expect(page).toHaveURL(`/blog/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(page).toHaveTitle(`${title} | Diginoor`);
    }
    expectNoProblems(watch);
  });

  test("a hostile post runs no script: no dialog, no handler, no javascript: link", async ({ page }) => {
    const dialogs: string[] = [];
    page.on("dialog", async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const watch = watchPage(page);
    await page.goto("/blog");
    await waitForData(page);
    await page.getByRole("link", { name: /^Sanitizer check: a post full of hostile markup/ }).click();
    await expect(page).toHaveURL(`/blog/${HOSTILE_SLUG}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Sanitizer check: a post full of hostile markup <script>alert(1)</script>",
    );
    await expect(page.getByText("Safe paragraph: this text must be shown.")).toBeVisible();
    await expect(page.getByText("Last safe paragraph.")).toBeVisible();

    const prose = page.locator(".prose");
    // Nothing active survived the server's sanitizer.
    await expect(
      prose.locator("script, iframe, object, embed, svg, math, form, style, details, button"),
    ).toHaveCount(0);
    const active = await prose.evaluate((root) =>
      Array.from(root.querySelectorAll("*")).flatMap((el) =>
        Array.from(el.attributes)
          .filter(
            (a) =>
              a.name.startsWith("on") ||
              a.name === "style" ||
              a.name === "srcdoc" ||
              /^\s*(javascript|data|vbscript):/i.test(a.value),
          )
          .map((a) => `${el.tagName} ${a.name}=${a.value}`),
      ),
    );
    expect(active).toEqual([]);
    // Touch what would have fired: hover, click the former javascript: link and paragraph.
    await page.getByText("Hover or click me.").hover();
    await page.getByText("Hover or click me.").click();
    await page.getByText("A javascript: link", { exact: true }).click();
    await expect(page).toHaveURL(`/blog/${HOSTILE_SLUG}`);
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expectNoProblems(watch);
  });

  test("an unknown post shows the not-found page with status 404", async ({ page }) => {
    const watch = watchPage(page, [
      { method: "GET", path: "/blog/no-such-post", status: 404 },
      { method: "GET", path: "/api/v1/posts/no-such-post", status: 404 },
    ]);
    const res = await page.goto("/blog/no-such-post");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "We couldn't find that post" })).toBeVisible();
    expectNoProblems(watch);
  });

  test("the built server's HTML, feed and sitemap carry what crawlers and link previews need", async ({
    request,
    baseURL,
  }) => {
    // What `curl` sees: no JavaScript runs.
    const nft = (await getJson<{ items: { id: string; title: string }[] }>(request, "/api/v1/nfts?limit=1"))
      .items[0]!;
    const detail = await getJson<{ thumbnailUrl: string; imageUrl: string }>(
      request,
      `/api/v1/nfts/${nft.id}`,
    );
    const html = await (await request.get(`/nftdetail/${nft.id}`)).text();
    expect(html).toContain(
      `<meta property="og:title" content="${nft.title.replace(/&/g, "&amp;").replace(/"/g, "&quot;")} · Diginoor" />`,
    );
    // The link-preview card drawn from the NFT's art (decision 163): a 1200 × 630 JPEG.
    expect(detail.imageUrl).toBeTruthy();
    expect(html).toMatch(
      new RegExp(`<meta property="og:image" content="${baseURL}/og/nft/[^"]+\\.jpg[^"]*" />`),
    );
    expect(html).toContain('<meta property="og:image:width" content="1200" />');
    expect(html).toMatch(/<script type="module"[^>]+src="\/assets\//);

    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      isArray: (n) => n === "url" || n === "item",
    });
    const feed = parser.parse(await (await request.get("/blog/rss.xml")).text());
    expect(feed.rss["@_version"]).toBe("2.0");
    expect(feed.rss.channel.item.map((i: { link: string }) => i.link)).toContain(
      `${baseURL}/blog/what-is-an-nft`,
    );
    const sitemap = parser.parse(await (await request.get("/sitemap.xml")).text());
    const locs = sitemap.urlset.url.map((u: { loc: string }) => u.loc);
    expect(locs).toContain(`${baseURL}/nftdetail/${nft.id}`);
    expect(locs).toContain(`${baseURL}/blog/${HOSTILE_SLUG}`);
    expect(await (await request.get("/robots.txt")).text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  for (const viewport of VIEWPORTS) {
    test(`blog pages at ${viewport.width} px: no sideways scrolling, screenshots`, async ({ page }) => {
      const watch = watchPage(page);
      await page.setViewportSize(viewport);
      for (const [name, path] of [
        ["blog", "/blog"],
        ["blog-post", "/blog/a-beginners-guide-to-diginoor"],
        ["blog-hostile-post", `/blog/${HOSTILE_SLUG}`],
      ] as const) {
        await page.goto(path);
        await waitForData(page);
        await settle(page);
        // Decode every picture before the full-page shot (covers below the fold are decoded lazily).
        await page.evaluate(() =>
          Promise.all(Array.from(document.images).map((img) => img.decode().catch(() => {}))),
        );
        await expectNoHorizontalScroll(page, path);
        await screenshot(page, name);
      }
      expectNoProblems(watch);
    });
  }
});
