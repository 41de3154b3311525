import { type Page, expect, test } from "@playwright/test";
import { XMLParser } from "fast-xml-parser";
import sharp from "sharp";
import { E2E_ADMIN_EMAIL, signInAsAdmin, signUpAndSignIn } from "./support/accounts.ts";
import {
  type Allowed,
  VIEWPORTS,
  expectNoHorizontalScroll,
  expectNoProblems,
  screenshot,
  settle,
  waitForData,
  watchPage,
} from "./support/page.ts";

/**
 * The studio console (issue 13 point 3): an administrator creates a film and an NFT with uploaded
 * images and publishes a post, and each shows on the public pages, in /sitemap.xml and (the post)
 * in /blog/rss.xml; a hostile post written in the console runs no script; visitors, users and
 * studio accounts reach only what is theirs.
 */

test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const FILM = { name: `Premiere ${run}`, slug: `premiere-${run}` };
const NFT_TITLE = `Opening night poster ${run}`;
const POST = { title: `Behind the premiere ${run}`, slug: `behind-the-premiere-${run}` };
const HOSTILE = { title: `Hostile console post ${run}`, slug: `hostile-console-post-${run}` };

async function png(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 900, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

async function upload(page: Page, label: string, fill: string, data: Buffer) {
  await page
    .getByLabel(label, { exact: true })
    .setInputFiles({ name: "art.png", mimeType: "image/png", buffer: data });
  await expect(page.getByLabel(fill)).toHaveValue(/^\/media\/console\//);
}

async function locs(page: Page): Promise<string[]> {
  const res = await page.request.get("/sitemap.xml");
  expect(res.status()).toBe(200);
  const doc = new XMLParser({ isArray: (n) => n === "url" }).parse(await res.text());
  return (doc.urlset.url as { loc: string }[]).map((u) => new URL(u.loc).pathname);
}

test("an admin creates a film, an NFT with an uploaded image and a post; each is public at once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page.request);

  // A film with its poster.
  await page.goto("/admin/films");
  await waitForData(page);
  await expect(page.getByRole("heading", { level: 2, name: "Films" })).toBeVisible();
  await page.getByRole("button", { name: "New film" }).click();
  await page.getByLabel("Name *").fill(FILM.name);
  await page.getByLabel("Slug *").fill(FILM.slug);
  await page.getByLabel("Tagline").fill("A night at the pictures");
  await page.getByLabel("Release year").fill("2026");
  await page.getByLabel("Studio", { exact: true }).selectOption({ label: "Kaveri Frames" });
  await upload(page, "Poster", "Poster URL *", await png(180, 40, 60));
  await page.getByRole("button", { name: "Create film" }).click();
  await expect(page.getByText("Film created")).toBeVisible();
  await expect(page.getByRole("link", { name: `/films/${FILM.slug}` })).toBeVisible();

  // An NFT of it, with uploaded artwork.
  await page.goto("/admin/nfts");
  await waitForData(page);
  await page.getByRole("button", { name: "New NFT" }).click();
  // A missing required field is named and focused, and nothing is sent.
  await page.getByRole("button", { name: "Create NFT" }).click();
  await expect(page.getByLabel("Title *")).toBeFocused();
  await expect(page.getByText("Title is required")).toBeVisible();
  await page.getByLabel("Title *").fill(NFT_TITLE);
  await page.getByLabel("Category *").fill("Poster");
  await page.getByLabel("Film *").selectOption({ label: FILM.name });
  await page.getByLabel("Celebrity *").selectOption({ label: "Rajinikanth" });
  await page.getByLabel("Tier *").selectOption({ label: "Legendary" });
  await page.getByLabel("Price (USD) *").fill("49.50");
  await page.getByLabel("Edition size *").fill("25");
  await upload(page, "Artwork", "Image URL *", await png(40, 80, 200));
  await page.getByRole("button", { name: "Create NFT" }).click();
  await expect(page.getByText("NFT created")).toBeVisible();
  const nftLink = page.getByRole("link", { name: NFT_TITLE });
  const nftHref = await nftLink.getAttribute("href");
  expect(nftHref).toMatch(/^\/nftdetail\/[A-Za-z0-9_-]+$/);

  // A post.
  await page.goto("/admin/posts");
  await waitForData(page);
  await page.getByRole("button", { name: "New post" }).click();
  await page.getByLabel("Title *").fill(POST.title);
  await page.getByLabel("Slug *").fill(POST.slug);
  await page.getByLabel("Excerpt").fill("How the premiere collection came together.");
  await page.getByLabel("Body (Markdown) *").fill("## The night\n\nFans queued around the block.\n");
  await page.getByLabel("Feature in the blog's carousel").check();
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByText("Post created")).toBeVisible();

  // Public at once: the film page, the NFT page (with the uploaded image), the post, the marketplace.
  await page.goto(`/films/${FILM.slug}`);
  await expect(page.getByRole("heading", { name: FILM.name })).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(NFT_TITLE) })).toBeVisible();
  await page.goto(nftHref ?? "/");
  await expect(page.getByRole("heading", { level: 1, name: NFT_TITLE })).toBeVisible();
  await expect(page.locator(`img[src*="/console/nft/"]`).first()).toBeVisible();
  await page.goto(`/marketplace?q=${encodeURIComponent(NFT_TITLE)}`);
  await expect(page.getByRole("link", { name: new RegExp(NFT_TITLE) })).toBeVisible();
  await page.goto(`/blog/${POST.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: POST.title })).toBeVisible();
  await expect(page.getByText("Fans queued around the block.")).toBeVisible();

  const sitemap = await locs(page);
  expect(sitemap).toContain(`/films/${FILM.slug}`);
  expect(sitemap).toContain(nftHref);
  expect(sitemap).toContain(`/blog/${POST.slug}`);
  const rss = await page.request.get("/blog/rss.xml");
  const feed = new XMLParser({ isArray: (n) => n === "item" }).parse(await rss.text());
  const items = feed.rss.channel.item as { title: string; link: string }[];
  expect(items.some((i) => i.link.endsWith(`/blog/${POST.slug}`) && i.title === POST.title)).toBe(true);

  // Every one of those actions is in the audit log.
  await page.goto("/admin/audit");
  await waitForData(page);
  for (const action of ["film.create", "nft.create", "post.create", "image.upload"]) {
    await expect(page.getByRole("cell", { name: action, exact: true }).first()).toBeVisible();
  }
  expectNoProblems(watch);
});

test("a hostile post written in the console runs no script", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  const watch = watchPage(page);
  await signInAsAdmin(page.request);
  await page.goto("/admin/posts");
  await waitForData(page);
  await page.getByRole("button", { name: "New post" }).click();
  await page.getByLabel("Title *").fill(HOSTILE.title);
  await page.getByLabel("Slug *").fill(HOSTILE.slug);
  await page.getByLabel("Body (Markdown) *").fill(
    [
      "Safe opening paragraph.",
      "",
      "<script>alert('script')</script>",
      "",
      "<p onmouseover=\"alert('hover')\" onclick=\"alert('click')\">Hover or click me.</p>",
      "",
      "[A javascript link](javascript:alert('link'))",
      "",
      // An image that cannot load (so onerror would fire) without a request that 404s.
      '<img src="/robots.txt" onerror="alert(\'img\')">',
      "",
      "<svg><script>alert('svg')</script></svg>",
      "",
      "<iframe src=\"javascript:alert('frame')\"></iframe>",
      "",
      "Safe closing paragraph.",
    ].join("\n"),
  );
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByText("Post created")).toBeVisible();

  await page.goto(`/blog/${HOSTILE.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: HOSTILE.title })).toBeVisible();
  await expect(page.getByText("Safe closing paragraph.")).toBeVisible();
  const prose = page.locator(".prose");
  await expect(prose.locator("script, iframe, object, embed, svg, form, style")).toHaveCount(0);
  const active = await prose.evaluate((root) =>
    Array.from(root.querySelectorAll("*")).flatMap((el) =>
      Array.from(el.attributes)
        .filter((a) => a.name.startsWith("on") || /^\s*(javascript|data|vbscript):/i.test(a.value))
        .map((a) => `${el.tagName} ${a.name}=${a.value}`),
    ),
  );
  expect(active).toEqual([]);
  await page.getByText("Hover or click me.").hover();
  await page.getByText("Hover or click me.").click();
  await page.getByText("A javascript link").click();
  await expect(page).toHaveURL(`/blog/${HOSTILE.slug}`);
  await page.waitForTimeout(500);
  expect(dialogs).toEqual([]);
  expectNoProblems(watch);
});

test("visitors sign in first; users and studio accounts get 403 outside what is theirs", async ({
  page,
  browser,
}) => {
  // Signed out: the console asks to sign in and comes back after.
  await page.goto("/admin/films");
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Ffilms/);

  // A user: the page says 403, the API too.
  const fanContext = await browser.newContext();
  const fan = await fanContext.newPage();
  const { email } = await signUpAndSignIn(fan.request, "console-fan", "Console Fan");
  const allowed: Allowed[] = [{ method: "GET", path: /^\/api\/v1\/admin\//, status: 403 }];
  const watch = watchPage(fan, allowed);
  await fan.goto("/admin");
  await expect(fan.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  expect((await fan.request.get("/api/v1/admin/films")).status()).toBe(403);
  expect((await fan.request.post("/api/v1/admin/films", { data: {} })).status()).toBe(403);

  // The administrator makes the user a studio account of one production house.
  await signInAsAdmin(page.request);
  const users = await (await page.request.get(`/api/v1/admin/users?q=${encodeURIComponent(email)}`)).json();
  const studios = await (await page.request.get("/api/v1/admin/studios")).json();
  const house = (studios.items as { id: number; name: string }[]).find(
    (s) => s.name === "Golden Lotus Pictures",
  );
  const role = await page.request.put(`/api/v1/admin/users/${users.items[0].id}/role`, {
    data: { role: "studio", productionHouseId: house?.id },
  });
  expect(role.status(), await role.text()).toBe(200);

  // The studio account sees its own house's films only, and no administrator section.
  await fan.goto("/admin/films");
  await waitForData(fan);
  await expect(fan.getByText("Studio: Golden Lotus Pictures")).toBeVisible();
  await expect(fan.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(fan.getByText(FILM.name)).toHaveCount(0);
  await fan.goto("/admin/users");
  await expect(fan.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  expect((await fan.request.get("/api/v1/admin/users")).status()).toBe(403);
  expect((await fan.request.get("/api/v1/admin/audit-log")).status()).toBe(403);
  expectNoProblems(watch);
  await fanContext.close();
});

test("the console at 390 px and 1440 px: no sideways scrolling, tables as cards on phones", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page.request);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const section of ["films", "nfts", "users", "audit"]) {
      await page.goto(`/admin/${section}`);
      await waitForData(page);
      await settle(page);
      await expectNoHorizontalScroll(page, `/admin/${section} at ${viewport.width}px`);
      await screenshot(page, `admin-${section}`);
    }
    if (viewport.width < 464) {
      // On a phone the section tabs are one row that scrolls sideways (issue 28): every section is
      // reachable, the last one too, and the page itself does not scroll sideways.
      const tabs = page.locator(".admin-nav ul");
      const row = await tabs.evaluate((el) => ({
        overflowX: getComputedStyle(el).overflowX,
        scrolls: el.scrollWidth > el.clientWidth,
      }));
      expect(row).toEqual({ overflowX: "auto", scrolls: true });
      const last = page.locator(".admin-nav a").last();
      const href = await last.getAttribute("href");
      await last.scrollIntoViewIfNeeded();
      await expect(last).toBeInViewport();
      await last.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expectNoHorizontalScroll(page, `console tabs scrolled at ${viewport.width}px`);
      await screenshot(page, "admin-tabs-scrolled");
    }
    await page.goto("/admin/nfts");
    await waitForData(page);
    await page.getByRole("button", { name: "New NFT" }).click();
    await expectNoHorizontalScroll(page, `NFT form at ${viewport.width}px`);
    await screenshot(page, "admin-nft-form");
    const header = page.locator(".admin-table thead");
    if (viewport.width < 464) await expect(header).not.toBeInViewport();
    else await expect(header).toBeVisible();
  }
});

test("the console's searches and filters reach the API: user search, order state, older audit entries", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page.request);
  const answered = (path: string, query: string) =>
    page.waitForResponse((res) => {
      const url = new URL(res.url());
      return url.pathname === path && url.search.includes(query) && res.status() === 200;
    });

  // Users: the search box asks GET /api/v1/admin/users?q=… and shows the account it matches.
  await page.goto("/admin/users");
  await waitForData(page);
  await page.getByLabel("Search by name or email").fill("e2e-admin@");
  const searched = answered("/api/v1/admin/users", "q=e2e-admin%40");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const users = (await (await searched).json()) as { items: { email: string }[] };
  expect(users.items.map((u) => u.email)).toEqual([E2E_ADMIN_EMAIL]);
  await expect(page.locator(".admin-table")).toContainText(E2E_ADMIN_EMAIL);

  // Orders: the state filter asks GET /api/v1/admin/orders?state=…
  await page.goto("/admin/orders");
  await waitForData(page);
  const filtered = answered("/api/v1/admin/orders", "state=fulfilled");
  await page.getByLabel("State").selectOption("fulfilled");
  const orders = (await (await filtered).json()) as { items: { state: string }[] };
  expect(orders.items.every((o) => o.state === "fulfilled")).toBe(true);

  // Audit log: more than a page of entries (50), so "Older entries" asks for the next page.
  const studios = (await (await page.request.get("/api/v1/admin/studios")).json()) as {
    items: { id: number; description: string }[];
  };
  const studio = studios.items[0];
  if (!studio) throw new Error("no studio");
  for (let i = 0; i < 51; i++) {
    const res = await page.request.patch(`/api/v1/admin/studios/${studio.id}`, {
      data: { description: studio.description },
    });
    expect(res.status()).toBe(200);
  }
  await page.goto("/admin/audit");
  await waitForData(page);
  const older = answered("/api/v1/admin/audit-log", "before=");
  await page.getByRole("button", { name: "Older entries" }).click();
  const page2 = (await (await older).json()) as { items: { id: number }[] };
  expect(page2.items.length).toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Newest" })).toBeVisible();
  expectNoProblems(watch);
});
