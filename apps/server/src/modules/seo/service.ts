// Pages for search engines and link previews: the title, description, canonical URL and Open Graph /
// Twitter tags of a page (written into the HTML the server returns, so crawlers need no
// JavaScript), /sitemap.xml and /robots.txt. The catalogue and the blog are reached through their
// services only.
import type { NftDetail } from "@diginoor/api/catalogue";
import { shortAddress } from "@diginoor/api/wallets";
import type { CatalogueService } from "../catalogue/service.ts";
import type { BlogService } from "../blog/service.ts";
import { CARD_HEIGHT, CARD_TYPE, CARD_WIDTH, type CardSpec, type Cards } from "../media/service.ts";
import { XMLBuilder } from "fast-xml-parser";
import { AppError } from "../../http/errors.ts";
import { type Clock, systemClock } from "../../platform/clock.ts";

export interface PageMeta {
  /** The whole document title. */
  title: string;
  description: string;
  /** Absolute canonical URL. */
  url: string;
  /** Absolute URL of the preview picture. */
  image?: string;
  imageAlt?: string;
  /** Its size and type, when known (the generated cards: 1200 × 630 JPEG). */
  imageWidth?: number;
  imageHeight?: number;
  imageType?: string;
  type: "website" | "article";
  /** ISO 8601, articles only. */
  publishedAt?: string;
  author?: string;
}

export const SITE_NAME = "Diginoor";
const DEFAULT_DESCRIPTION =
  "Buy, bid on and collect licensed NFTs of Indian films and film stars: Kabali, Sivaji, Chandramukhi and more, in Common, Rare, Ultimate and Legendary tiers.";
const DESCRIPTION_CHARS = 200;

/** Public pages without parameters, with their titles (as the web app sets them) and descriptions. */
const STATIC_PAGES: { path: string; title: string; description?: string }[] = [
  { path: "/", title: "Collectibles of Indian cinema" },
  {
    path: "/marketplace",
    title: "Marketplace",
    description: "Every Diginoor NFT on sale: filter by rarity, film, star and price, and buy or bid.",
  },
  {
    path: "/lottery",
    title: "Lottery",
    description:
      "Buy tickets for a chance to win a licensed Indian cinema NFT or a prize pool, watch the count live, and verify every draw yourself.",
  },
  {
    path: "/blog",
    title: "Blog",
    description:
      "Guides to collecting licensed NFTs of Indian cinema, wallets and safety, and stories from the films in the Diginoor catalogue.",
  },
  { path: "/about", title: "About", description: "The team, the studios and the stars behind Diginoor." },
  {
    path: "/how it works",
    title: "How it works",
    description:
      "Video walk-throughs and answers to the questions fans ask most, from royalties to delivery times.",
  },
  { path: "/contact", title: "Contact", description: "Write to the Diginoor team." },
  { path: "/Termscondition", title: "Terms and Conditions" },
  { path: "/Privacypolicy", title: "Privacy Policy" },
];

/** The web app's pages that search engines should not index (accounts, forms behind sign-in). */
export const PRIVATE_PATHS = [
  "/api/",
  "/dev/",
  "/login",
  "/signup",
  "/resetpass",
  "/verify-email",
  "/profile",
  "/edit_profile",
  "/wallet",
  "/admin",
];

/** Sitemaps hold at most 50,000 URLs (sitemaps.org). */
const SITEMAP_MAX_URLS = 50_000;
const NFT_PAGE = 100;

const pageTitle = (title: string) => `${title} · ${SITE_NAME}`;

function shorten(text: string, max = DESCRIPTION_CHARS): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).replace(/[\s,.;:]+$/, "")}…`;
}

/** The picture to show in link previews: SVG is not shown by the big previewers, so prefer a raster. */
function rasterOf(...urls: (string | null | undefined)[]): string | undefined {
  const all = urls.filter((u): u is string => Boolean(u));
  return all.find((u) => !/\.svg(\?|$)/i.test(u)) ?? all[0];
}

const TIER_COLOUR: Record<string, string> = {
  common: "#b9bec9",
  rare: "#4f8dff",
  ultimate: "#a970ff",
  legendary: "#e9b949",
};

const capitalised = (s: string) => `${s[0]?.toUpperCase() ?? ""}${s.slice(1)}`;

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return words.length > 1
    ? `${[...(words[0] ?? "")][0]}${[...(words.at(-1) ?? "")][0]}`
    : [...name].slice(0, 2).join("");
}

/** The kinds of link-preview card, as in their URL /og/:kind/:name.jpg. */
export const CARD_KINDS = ["site", "nft", "film", "u", "post"] as const;
export type CardKind = (typeof CARD_KINDS)[number];

async function orNotFound<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

export interface SeoServiceOptions {
  publicUrl: string;
  catalogue: CatalogueService;
  blog: BlogService;
  /** Film pages of the web app: path slug → film slug. */
  filmPages: string[];
  /** Tokens on the chain (/nftshowcase/:id pages); without it those pages get the site's meta. */
  tokens?: { getToken(tokenId: string): Promise<{ nftId: string | null; owner: string }> };
  /** Public profiles (/u/:handle pages) and who holds an address (the owner in a token's preview). */
  social?: {
    profile(
      handle: string,
      viewerId: null,
    ): Promise<{ name: string; handle: string; avatarUrl: string | null; followers: number }>;
    holderName(address: string): Promise<string | undefined>;
  };
  /** Lotteries (/lottery/:id pages and their sitemap entries). */
  lotteries?: {
    get(id: string): Promise<{
      id: string;
      name: string;
      imageUrl: string | null;
      prizeNft: { imageUrl: string } | null;
      ticketPriceCents: number;
      minTickets: number;
      closesAt: string;
    }>;
    list(): Promise<{ items: { id: string; closesAt: string }[] }>;
  };
  /** Link-preview cards (Open Graph images); without it pages name the entity's own picture. */
  cards?: Cards;
  /** How long a built sitemap is served (default 10 minutes; 0 = always build). */
  sitemapTtlMs?: number;
  clock?: Clock;
}

export function createSeoService(opts: SeoServiceOptions) {
  const base = opts.publicUrl.replace(/\/+$/, "");
  const clock = opts.clock ?? systemClock;
  const ttl = opts.sitemapTtlMs ?? 10 * 60_000;
  const abs = (pathOrUrl: string) => new URL(pathOrUrl, `${base}/`).toString();
  const filmPages = new Set(opts.filmPages.map((s) => s.toLowerCase()));
  let sitemap: { at: number; xml: Promise<string> } | undefined;
  /** The page of a film: its old fixed route when it has one, else /films/:slug. */
  const filmPath = (slug: string) => (filmPages.has(slug) ? `/${slug}` : `/films/${slug}`);

  /** A picture's path under /media/ (ours only: a picture elsewhere is never downloaded), or undefined. */
  const mediaPath = (url: string | null | undefined): string | undefined => {
    if (!url) return undefined;
    let u: URL;
    try {
      u = new URL(url, `${base}/`);
    } catch {
      return undefined;
    }
    if (u.origin !== new URL(`${base}/`).origin || !u.pathname.startsWith("/media/")) return undefined;
    try {
      return decodeURIComponent(u.pathname.slice("/media/".length));
    } catch {
      return undefined;
    }
  };
  const pictures = (...urls: (string | null | undefined)[]) =>
    urls.map(mediaPath).filter((p): p is string => Boolean(p));

  const nftCard = (n: NftDetail): CardSpec => ({
    eyebrow: `${capitalised(n.tier)} NFT · ${n.film.name}`,
    title: n.title,
    subtitle: `${n.celebrity.name} · ${n.editionSize} edition${n.editionSize === 1 ? "" : "s"}`,
    accent: TIER_COLOUR[n.tier],
    art: { kind: "portrait", paths: pictures(n.imageUrl).slice(0, 1) },
  });
  async function siteCard(): Promise<CardSpec> {
    // The newest three NFTs' art, fanned out; the card changes (new name) when they do.
    const newest = await opts.catalogue.listNfts({ sort: "newest", limit: 3 });
    return {
      eyebrow: "Diginoor marketplace",
      title: "Licensed collectibles of Indian cinema",
      subtitle: "Buy, bid on and collect NFTs of the films and stars you love.",
      art: { kind: "portrait", paths: newest.items.flatMap((n) => pictures(n.thumbnailUrl)).slice(0, 3) },
    };
  }

  /** The spec of a card by its URL's kind and name, or null when its subject does not exist. */
  async function cardSpec(kind: CardKind, name: string): Promise<CardSpec | null> {
    switch (kind) {
      case "site":
        return name === "diginoor" ? siteCard() : null;
      case "nft": {
        const n = await orNotFound(() => opts.catalogue.getNft(name));
        return n ? nftCard(n) : null;
      }
      case "film": {
        const f = await orNotFound(() => opts.catalogue.getFilm(name));
        return f ? filmCard(f) : null;
      }
      case "u": {
        if (!opts.social || !/^[a-z0-9][a-z0-9-]{0,40}$/.test(name)) return null;
        const p = await orNotFound(() => opts.social!.profile(name, null));
        return p ? profileCard(p) : null;
      }
      case "post": {
        const p = await orNotFound(() => opts.blog.getPost(name));
        return p ? postCard(p) : null;
      }
    }
  }
  function filmCard(f: {
    name: string;
    tagline: string;
    releaseYear: number | null;
    posterUrl: string;
    thumbnailUrl: string;
  }): CardSpec {
    return {
      eyebrow: f.releaseYear ? `Film · ${f.releaseYear}` : "Film",
      title: f.name,
      subtitle: f.tagline || undefined,
      art: { kind: "portrait", paths: pictures(f.posterUrl, f.thumbnailUrl).slice(0, 1) },
    };
  }
  function profileCard(p: { name: string; handle: string; avatarUrl: string | null }): CardSpec {
    return {
      eyebrow: "Collector on Diginoor",
      title: p.name,
      subtitle: `@${p.handle}`,
      art: { kind: "avatar", paths: pictures(p.avatarUrl) },
      initials: initialsOf(p.name),
    };
  }
  function postCard(p: { title: string; author: string; coverImageUrl: string | null }): CardSpec {
    return {
      eyebrow: "Diginoor blog",
      title: p.title,
      subtitle: p.author ? `By ${p.author}` : undefined,
      art: { kind: "cover", paths: pictures(p.coverImageUrl) },
    };
  }

  /** The card's image fields of a page's meta (absolute URL with the card's version, size, type). */
  async function cardImage(kind: CardKind, name: string, spec: CardSpec, alt: string) {
    if (!opts.cards) return undefined;
    const version = await opts.cards.version(spec);
    return {
      image: abs(`/og/${kind}/${encodeURIComponent(name)}.jpg?v=${version}`),
      imageAlt: alt,
      imageWidth: CARD_WIDTH,
      imageHeight: CARD_HEIGHT,
      imageType: CARD_TYPE,
    };
  }
  const siteImage = async () =>
    cardImage("site", "diginoor", await siteCard(), "Diginoor: licensed collectibles of Indian cinema");

  /**
   * The meta of a page of the web app, or null when the page's subject does not exist (unknown NFT,
   * post): the app then shows its not-found page with status 404. `undefined`: not a page we
   * describe (the caller decides by the route table).
   */
  async function pageMeta(pathname: string): Promise<PageMeta | null | undefined> {
    let path: string;
    try {
      path = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    path = path.length > 1 ? path.replace(/\/+$/, "") : path;
    const lower = path.toLowerCase();
    const site = { url: abs(path), type: "website" as const };

    const post = /^\/blog\/([^/]+)$/i.exec(path);
    if (post) {
      const p = await orNotFound(() => opts.blog.getPost(post[1] ?? ""));
      if (!p) return null;
      return {
        title: `${p.title} | ${SITE_NAME}`,
        description: shorten(p.excerpt || p.title),
        url: abs(`/blog/${p.slug}`),
        image: p.coverImageUrl ? abs(p.coverImageUrl) : undefined,
        imageAlt: p.coverImageAlt || undefined,
        ...(await cardImage("post", p.slug, postCard(p), p.coverImageAlt || p.title)),
        type: "article",
        publishedAt: p.publishedAt,
        author: p.author,
      };
    }

    const nft = /^\/nftdetail\/([^/]+)$/i.exec(path);
    if (nft) {
      const n = await orNotFound(() => opts.catalogue.getNft(nft[1] ?? ""));
      if (!n) return null;
      const image = rasterOf(n.imageUrl, n.thumbnailUrl);
      return {
        title: pageTitle(n.title),
        description: shorten(
          `${n.description} ${n.tier[0]?.toUpperCase()}${n.tier.slice(1)} NFT from ${n.film.name}, with ${n.celebrity.name}.`,
        ),
        url: abs(`/nftdetail/${n.id}`),
        image: image ? abs(image) : undefined,
        imageAlt: n.title,
        ...(await cardImage("nft", n.id, nftCard(n), `${n.title}: ${n.celebrity.name} in ${n.film.name}`)),
        type: "website",
      };
    }

    const token = /^\/nftshowcase\/(\d{1,78})$/.exec(path);
    if (token && opts.tokens) {
      const t = await orNotFound(() => opts.tokens!.getToken(token[1] ?? ""));
      if (!t) return null;
      const n = t.nftId ? await orNotFound(() => opts.catalogue.getNft(t.nftId ?? "")) : undefined;
      const holder = (await opts.social?.holderName(t.owner)) ?? shortAddress(t.owner);
      const title = n ? `${n.title} #${token[1]}` : `Token #${token[1]}`;
      const image = n ? rasterOf(n.imageUrl, n.thumbnailUrl) : undefined;
      return {
        title: pageTitle(`${title}, owned by ${holder}`),
        description: shorten(
          n
            ? `${holder} owns ${n.title}, a ${n.tier} NFT from ${n.film.name} with ${n.celebrity.name}, on Diginoor.`
            : `${holder} owns this Diginoor NFT.`,
        ),
        url: abs(`/nftshowcase/${token[1]}`),
        image: image ? abs(image) : undefined,
        imageAlt: n?.title,
        ...(n ? await cardImage("nft", n.id, nftCard(n), n.title) : await siteImage()),
        type: "website",
      };
    }

    const lottery =
      /^\/lottery\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\/verify)?$/.exec(lower);
    if (lottery && opts.lotteries) {
      const l = await orNotFound(() => opts.lotteries!.get(lottery[1] ?? ""));
      if (!l) return null;
      const image = rasterOf(l.imageUrl, l.prizeNft?.imageUrl);
      const verify = !!lottery[2];
      return {
        title: pageTitle(verify ? `Verify the draw: ${l.name}` : l.name),
        description: shorten(
          verify
            ? `Every input of the ${l.name} draw, and how to recompute the winning ticket yourself.`
            : `${l.name}: tickets at $${(l.ticketPriceCents / 100).toFixed(2)}, activates at ${l.minTickets} tickets, closes ${new Date(l.closesAt).toUTCString()}. A draw anyone can verify.`,
        ),
        url: abs(`/lottery/${l.id}${verify ? "/verify" : ""}`),
        image: image ? abs(image) : undefined,
        imageAlt: l.name,
        type: "website",
      };
    }

    const profile = /^\/u\/([a-z0-9][a-z0-9-]{0,40})$/.exec(lower);
    if (profile && opts.social) {
      const p = await orNotFound(() => opts.social!.profile(profile[1] ?? "", null));
      if (!p) return null;
      return {
        title: pageTitle(`${p.name} (@${p.handle})`),
        description: shorten(
          `${p.name}'s showcase of licensed Indian cinema NFTs on Diginoor. ${p.followers} follower${p.followers === 1 ? "" : "s"}.`,
        ),
        url: abs(`/u/${p.handle}`),
        image: p.avatarUrl && rasterOf(p.avatarUrl) ? abs(p.avatarUrl) : undefined,
        imageAlt: p.avatarUrl ? p.name : undefined,
        ...(await cardImage("u", p.handle, profileCard(p), `${p.name} (@${p.handle}) on Diginoor`)),
        type: "website",
      };
    }

    // A film's page: one of the old fixed routes (/kabali), or /films/:slug for any film.
    const legacyFilm = /^\/([a-z0-9-]+)$/.exec(lower);
    const anyFilm = /^\/films\/([a-z0-9-]+)$/.exec(lower);
    const filmSlug =
      anyFilm?.[1] ?? (legacyFilm && filmPages.has(legacyFilm[1] ?? "") ? legacyFilm[1] : undefined);
    if (filmSlug) {
      const f = await orNotFound(() => opts.catalogue.getFilm(filmSlug));
      if (!f) return null;
      const image = rasterOf(f.thumbnailUrl, f.posterUrl, f.bannerUrl);
      return {
        title: pageTitle(f.name),
        description: shorten(f.description || f.tagline),
        url: abs(filmPath(f.slug)),
        image: image ? abs(image) : undefined,
        imageAlt: `${f.name} poster`,
        ...(await cardImage("film", f.slug, filmCard(f), `${f.name} poster`)),
        type: "website",
      };
    }

    if (lower === "/collections") {
      const c = await opts.catalogue.getCollections();
      const names = c.featured.map((x) => x.name);
      const first = c.featured[0];
      return {
        ...site,
        url: abs("/collections"),
        title: pageTitle("Collections"),
        description: shorten(
          names.length
            ? `Licensed NFT collections of Indian cinema: ${names.join(", ")}. Hot collections, top sellers and every film in one place.`
            : DEFAULT_DESCRIPTION,
        ),
        image: first ? abs(first.thumbnailUrl) : undefined,
        imageAlt: first ? `${first.name} collection` : undefined,
        ...(await siteImage()),
      };
    }

    const known = STATIC_PAGES.find((p) => p.path.toLowerCase() === lower);
    if (known) {
      return {
        ...site,
        url: abs(known.path),
        title: pageTitle(known.title),
        description: known.description ?? DEFAULT_DESCRIPTION,
        ...(await siteImage()),
      };
    }
    return undefined;
  }

  async function buildSitemap(): Promise<string> {
    const urls: { loc: string; lastmod?: string }[] = [];
    for (const p of STATIC_PAGES) urls.push({ loc: abs(p.path) });
    urls.push({ loc: abs("/collections") });
    const films = await opts.catalogue.listFilms();
    for (const f of films.items) urls.push({ loc: abs(filmPath(f.slug)) });
    for (const l of (await opts.lotteries?.list())?.items ?? []) urls.push({ loc: abs(`/lottery/${l.id}`) });
    for (const p of await opts.blog.allPosts(5000)) {
      urls.push({ loc: abs(`/blog/${p.slug}`), lastmod: p.publishedAt });
    }
    // Every NFT, newest first, through the catalogue's own paging, up to the protocol's limit.
    let cursor: string | undefined;
    while (urls.length < SITEMAP_MAX_URLS) {
      const page = await opts.catalogue.listNfts({
        sort: "newest",
        limit: Math.min(NFT_PAGE, SITEMAP_MAX_URLS - urls.length),
        cursor,
      });
      for (const n of page.items) urls.push({ loc: abs(`/nftdetail/${n.id}`), lastmod: n.createdAt });
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return sitemapBuilder.build({
      "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
      urlset: {
        "@_xmlns": "http://www.sitemaps.org/schemas/sitemap/0.9",
        url: urls.map((u) =>
          u.lastmod ? { loc: u.loc, lastmod: new Date(u.lastmod).toISOString() } : { loc: u.loc },
        ),
      },
    }) as string;
  }

  return {
    pageMeta,
    cardSpec,

    /** /sitemap.xml: public pages, films, posts and NFTs (sitemaps.org protocol). */
    sitemapXml(): Promise<string> {
      const now = clock.now();
      if (ttl > 0 && sitemap && now - sitemap.at < ttl) return sitemap.xml;
      const xml = buildSitemap();
      sitemap = { at: now, xml };
      xml.catch(() => {
        if (sitemap?.xml === xml) sitemap = undefined;
      });
      return xml;
    },

    /** Forgets the built sitemap (the catalogue or the blog changed). */
    forgetSitemap(): void {
      sitemap = undefined;
    },

    /** /robots.txt: everything public may be crawled; accounts and the API may not. */
    robotsTxt(): string {
      return [
        "User-agent: *",
        "Allow: /",
        ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`),
        "",
        `Sitemap: ${base}/sitemap.xml`,
        "",
      ].join("\n");
    },
  };
}

const sitemapBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressBooleanAttributes: false,
});

export type SeoService = ReturnType<typeof createSeoService>;
