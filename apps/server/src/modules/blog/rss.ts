// The blog's RSS 2.0 feed (/blog/rss.xml), built with fast-xml-parser's builder, which escapes
// every text and attribute.
import type { PostSummary } from "@diginoor/api/blog";
import { XMLBuilder } from "fast-xml-parser";

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
});

/** Absolute URL of a site path or an absolute URL as is. */
export function absoluteUrl(base: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${base}/`).toString();
}

/**
 * The feed of `posts`. A cover becomes the item's enclosure only when its size is known
 * (`coverLengths`, bytes by cover URL): RSS 2.0 requires the length, and a made-up 0 misleads readers
 * that pre-fetch enclosures. Covers in our own media storage are measured; a cover elsewhere (a
 * WordPress site's) is left out rather than fetched from here.
 */
export function rssFeed(
  publicUrl: string,
  posts: PostSummary[],
  coverLengths: ReadonlyMap<string, number> = new Map(),
): string {
  const blogUrl = `${publicUrl}/blog`;
  const newest = posts[0]?.publishedAt;
  const doc = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    rss: {
      "@_version": "2.0",
      "@_xmlns:atom": "http://www.w3.org/2005/Atom",
      "@_xmlns:dc": "http://purl.org/dc/elements/1.1/",
      channel: {
        title: "Diginoor Blog",
        link: blogUrl,
        description:
          "Guides to collecting licensed NFTs of Indian cinema, wallets and safety, and stories from the films in the Diginoor catalogue.",
        language: "en",
        ...(newest ? { lastBuildDate: new Date(newest).toUTCString() } : {}),
        "atom:link": { "@_href": `${blogUrl}/rss.xml`, "@_rel": "self", "@_type": "application/rss+xml" },
        item: posts.map((p) => {
          const link = `${blogUrl}/${p.slug}`;
          return {
            title: p.title,
            link,
            guid: { "#text": link, "@_isPermaLink": "true" },
            pubDate: new Date(p.publishedAt).toUTCString(),
            "dc:creator": p.author,
            description: p.excerpt,
            ...(p.coverImageUrl && coverLengths.has(p.coverImageUrl)
              ? {
                  enclosure: {
                    "@_url": absoluteUrl(publicUrl, p.coverImageUrl),
                    "@_type": imageType(p.coverImageUrl),
                    "@_length": String(coverLengths.get(p.coverImageUrl)),
                  },
                }
              : {}),
          };
        }),
      },
    },
  };
  return builder.build(doc) as string;
}

function imageType(url: string): string {
  const ext = url.split("?")[0]?.split(".").pop()?.toLowerCase();
  return ext === "png"
    ? "image/png"
    : ext === "webp"
      ? "image/webp"
      : ext === "svg"
        ? "image/svg+xml"
        : "image/jpeg";
}
