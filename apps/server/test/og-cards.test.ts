import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeHTMLAttribute } from "entities";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeArtwork } from "../seed/artwork/write.ts";
import { blogArtwork, seedBlog } from "../seed/blog.ts";
import { seedFilms, seedNfts } from "../seed/catalogue-data.ts";
import { catalogueArtwork, mediaPaths, nftPublicId, seedCatalogue } from "../seed/seed.ts";
import { newUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import Fastify from "fastify";
import { RENDITION_WIDTHS } from "@diginoor/api/media";
import { registerMediaRenditions } from "../src/modules/media/routes.ts";
import { createRenditions } from "../src/modules/media/service.ts";

/**
 * Issue 23: every shared page names a link-preview card (og:image) that previewers show: a 1200 × 630
 * JPEG with its width, height and type in the page, drawn once and kept under its content hash. And
 * the NFT art as raster renditions (GET /media/_r/:width/…) for the web app's srcset.
 */

const BASE = "http://localhost:3000";
const INDEX_HTML = fs.readFileSync(new URL("../../web/index.html", import.meta.url), "utf8");

let t: TestApp;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-og-web-"));
const nftId = nftPublicId(seedNfts[0]?.slug ?? "");
const film = seedFilms[0]?.slug ?? "";
let handle = "";
let avatarHandle = "";

beforeAll(async () => {
  fs.writeFileSync(path.join(dist, "index.html"), INDEX_HTML);
  // Media in the database's table (STORAGE=postgres, the default with DATABASE_URL): the cards and
  // renditions must read pictures from where every server stores them, not from this disk.
  // RENDITION_WAIT_MS 0: these tests check the renditions made, however loaded the machine.
  t = await createTestApp({ WEB_DIST_DIR: dist, STORAGE: "postgres", RENDITION_WAIT_MS: "0" });
  await seedCatalogue(t.ctx.db);
  await seedBlog(t.ctx.db);
  // The seed's pictures these pages draw on (all of them take minutes to draw on a busy machine):
  // the first NFT's art, the three newest NFTs' thumbnails (the site card), a film's poster, a cover.
  const wanted = new Set([
    ...seedNfts.slice(0, 3).map((n) => mediaPaths.nftImage(n.slug)),
    mediaPaths.poster(film),
  ]);
  await writeArtwork(
    t.ctx.storage,
    catalogueArtwork().filter((f) => wanted.has(f.svgPath)),
  );
  await writeArtwork(
    t.ctx.storage,
    blogArtwork().filter((f) => f.svgPath.includes("what-is-an-nft")),
  );
  const fan = await newUser(t.ctx, { name: "Card Kavya" });
  const withAvatar = await newUser(t.ctx, { name: "Avatar Arjun" });
  // An avatar as uploads store it (a WebP under /media).
  await t.ctx.storage.put(
    "avatars/og-test/a.webp",
    await sharp({ create: { width: 256, height: 256, channels: 3, background: "#4f8dff" } })
      .webp()
      .toBuffer(),
    "image/webp",
  );
  await t.ctx.database.query("UPDATE users SET avatar_url = $1 WHERE id = $2", [
    "/media/avatars/og-test/a.webp",
    withAvatar.id,
  ]);
  const handles = await t.ctx.database.query<{ id: string; handle: string }>(
    "SELECT id, handle FROM users WHERE id = ANY($1)",
    [[fan.id, withAvatar.id]],
  );
  handle = handles.find((r) => r.id === fan.id)?.handle ?? "";
  avatarHandle = handles.find((r) => r.id === withAvatar.id)?.handle ?? "";
}, 300_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The page's og:image tags, as a previewer reads them. */
async function ogImage(page: string) {
  const res = await t.app.inject(page);
  expect(res.statusCode, page).toBe(200);
  const head = res.body.slice(0, res.body.indexOf("</head>"));
  const meta = (key: string) => {
    const m = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(head);
    return m ? decodeHTMLAttribute(m[1] as string) : undefined;
  };
  return {
    url: meta("og:image"),
    type: meta("og:image:type"),
    width: meta("og:image:width"),
    height: meta("og:image:height"),
    alt: meta("og:image:alt"),
    twitter: meta("twitter:image"),
    card: meta("twitter:card"),
  };
}

/** Fetches a card as a previewer does and reads what it really is. */
async function fetchCard(url: string) {
  expect(url.startsWith(`${BASE}/og/`), url).toBe(true);
  const res = await t.app.inject(url.slice(BASE.length));
  expect(res.statusCode, url).toBe(200);
  const meta = await sharp(res.rawPayload).metadata();
  return { res, meta };
}

const cardFiles = () => {
  const dir = path.join(t.config.paths.cache, "cards");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jpg")) : [];
};

describe("link-preview cards (og:image)", () => {
  const pages = () => [
    "/",
    "/marketplace",
    "/blog",
    "/about",
    "/collections",
    `/nftdetail/${nftId}`,
    `/${film}`,
    `/films/${film}`,
    `/u/${handle}`,
    `/u/${avatarHandle}`,
    "/blog/what-is-an-nft",
  ];

  it("every shared page names a 1200 × 630 JPEG card with its width, height and type, and it is one", async () => {
    for (const page of pages()) {
      const og = await ogImage(page);
      expect(og.url, page).toMatch(
        /^http:\/\/localhost:3000\/og\/(site|nft|film|u|post)\/[^/]+\.jpg\?v=[0-9a-f]{16}$/,
      );
      expect(og, page).toMatchObject({ type: "image/jpeg", width: "1200", height: "630" });
      expect(og.alt, page).toBeTruthy();
      expect(og.twitter, page).toBe(og.url);
      expect(og.card, page).toBe("summary_large_image");
      const { res, meta } = await fetchCard(og.url as string);
      expect(res.headers["content-type"], page).toBe("image/jpeg");
      expect(meta, page).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    }
  }, 300_000);

  it("the site's pages share one card; NFTs, films, profiles and posts have their own", async () => {
    const site = await Promise.all(
      ["/", "/marketplace", "/blog", "/about"].map(async (p) => (await ogImage(p)).url),
    );
    expect(new Set(site).size).toBe(1);
    expect(site[0]).toContain("/og/site/diginoor.jpg");
    expect((await ogImage(`/nftdetail/${nftId}`)).url).toContain(`/og/nft/${nftId}.jpg`);
    expect((await ogImage(`/${film}`)).url).toContain(`/og/film/${film}.jpg`);
    expect((await ogImage(`/u/${handle}`)).url).toContain(`/og/u/${handle}.jpg`);
    expect((await ogImage("/blog/what-is-an-nft")).url).toContain("/og/post/what-is-an-nft.jpg");
  });

  it("draws each card once: the file is named by its content hash and asking again draws nothing", async () => {
    const og = await ogImage(`/nftdetail/${nftId}`);
    const first = await fetchCard(og.url as string);
    const before = cardFiles();
    const version = new URL(og.url as string).searchParams.get("v") as string;
    expect(before.some((f) => f.startsWith(version))).toBe(true);
    const stat = fs.statSync(
      path.join(
        t.config.paths.cache,
        "cards",
        `${first.res.headers.etag?.toString().replaceAll('"', "")}.jpg`,
      ),
    );
    const again = await fetchCard(og.url as string);
    expect(again.res.rawPayload.equals(first.res.rawPayload)).toBe(true);
    expect(cardFiles()).toEqual(before);
    expect(
      fs.statSync(
        path.join(
          t.config.paths.cache,
          "cards",
          `${(first.res.headers.etag as string).replaceAll('"', "")}.jpg`,
        ),
      ).mtimeMs,
    ).toBe(stat.mtimeMs);
    // A validator: a previewer that has it gets 304.
    const cached = await t.app.inject({
      url: (og.url as string).slice(BASE.length),
      headers: { "if-none-match": first.res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    // Two profiles differ (one has an avatar, one initials): different cards.
    const a = await fetchCard((await ogImage(`/u/${handle}`)).url as string);
    const b = await fetchCard((await ogImage(`/u/${avatarHandle}`)).url as string);
    expect(a.res.headers.etag).not.toBe(b.res.headers.etag);
  });

  it("answers 404 for a card of nothing", async () => {
    for (const url of [
      "/og/nft/no-such-nft.jpg",
      "/og/film/no-such-film.jpg",
      "/og/u/nobody-00000.jpg",
      "/og/post/no-such-post.jpg",
      "/og/site/other.jpg",
      "/og/secret/x.jpg",
      `/og/nft/${nftId}.png`,
      "/og/u/..%2F..%2Fetc.jpg",
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toContain("application/json");
    }
  });
});

describe("raster renditions of the art (GET /media/_r/:width/…)", () => {
  const svg = mediaPaths.nftImage(seedNfts[0]?.slug ?? "");

  it("serves the SVG art as WebP at each offered width, with a validator", async () => {
    // The art is in the configured storage only (PostgreSQL's table on that pass), never on this disk.
    if (t.ctx.storage.kind !== "local")
      expect(fs.existsSync(path.join(t.config.paths.media, svg))).toBe(false);
    for (const width of [240, 480, 960]) {
      const res = await t.app.inject(`/media/_r/${width}/${svg}`);
      expect(res.statusCode, String(width)).toBe(200);
      expect(res.headers["content-type"]).toBe("image/webp");
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: "webp", width });
      expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}-\d+"$/);
      const again = await t.app.inject({
        url: `/media/_r/${width}/${svg}`,
        headers: { "if-none-match": res.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
    }
    // Much smaller than the SVG drawn at full size by the phone.
    const small = await t.app.inject(`/media/_r/480/${svg}`);
    expect(small.rawPayload.length).toBeLessThan(60_000);
    const head = await t.app.inject({ method: "HEAD", url: `/media/_r/480/${svg}` });
    expect(head.statusCode).toBe(200);
  });

  it("does not enlarge a raster, and refuses other widths, missing files and paths outside /media", async () => {
    const thumb = mediaPaths.nftThumb(seedNfts[0]?.slug ?? "");
    const res = await t.app.inject(`/media/_r/960/${thumb}`);
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(360);
    for (const url of [
      `/media/_r/500/${svg}`,
      `/media/_r/0480/${svg}`,
      `/media/_r/abc/${svg}`,
      "/media/_r/480/catalogue/nfts/no-such.svg",
      "/media/_r/480/..%2F..%2Fetc%2Fpasswd",
      "/media/_r/480/%2Fetc%2Fhostname.png",
      "/media/_r/480/catalogue/nfts",
    ]) {
      const r = await t.app.inject(url);
      expect(r.statusCode, url).toBe(404);
    }
    // A file that is not a picture under an image name: nothing to render.
    await t.ctx.storage.put("not-a-picture.png", Buffer.from("hello"), "image/png");
    expect((await t.app.inject("/media/_r/480/not-a-picture.png")).statusCode).toBe(404);
  });

  it("sends the original, not to be cached, when the rendition is not made in time, and the rendition next", async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "renditions-"));
    const renditions = createRenditions({ storage: t.ctx.storage, cacheDir });
    const app = Fastify();
    registerMediaRenditions(app, renditions, { waitMs: 1 });
    try {
      const first = await app.inject(`/media/_r/720/${svg}`);
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-type"]).toContain("image/svg+xml");
      expect(first.headers["cache-control"]).toBe("no-store");
      expect(first.body).toContain("<svg");
      // The rendition was still made (this joins the render the request started) and is served next.
      const made = await renditions.get(svg, 720);
      expect(made && "file" in made && fs.existsSync(made.file)).toBe(true);
      const next = await app.inject(`/media/_r/720/${svg}`);
      expect(next.headers["content-type"]).toBe("image/webp");
      expect(next.headers["cache-control"]).toBe("public, max-age=86400");
      expect((await app.inject("/media/_r/720/catalogue/nfts/no-such.svg")).statusCode).toBe(404);
    } finally {
      await app.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("warms every width of the seeded art ahead of the first request", async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "renditions-"));
    const renditions = createRenditions({ storage: t.ctx.storage, cacheDir });
    try {
      const keys = catalogueArtwork()
        .slice(0, 3)
        .map((f) => f.svgPath);
      expect(await renditions.warm([...keys, "catalogue/nfts/no-such.svg"])).toBe(
        keys.length * RENDITION_WIDTHS.length,
      );
      expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith(".webp"))).toHaveLength(
        keys.length * RENDITION_WIDTHS.length,
      );
      // Warm again: everything is found, nothing is made twice.
      const before = fs.readdirSync(cacheDir).map((f) => fs.statSync(path.join(cacheDir, f)).mtimeMs);
      expect(await renditions.warm(keys)).toBe(keys.length * RENDITION_WIDTHS.length);
      expect(fs.readdirSync(cacheDir).map((f) => fs.statSync(path.join(cacheDir, f)).mtimeMs)).toEqual(
        before,
      );
    } finally {
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
