// Issue 23 (hardening, second round), inputs and what real clients expect: (6) image URLs, control
// characters in human text and absurd years refused with a 400 naming the field; (12) CORS and ETags
// on media and the RSS feed, real enclosure lengths (token metadata: indexer-api.test.ts); (14) unknown
// media and assets answer a JSON 404, not the web app's page (the document itself: openapi.test.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORIGIN } from "./fixtures/accounts.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("point 6: image URLs, control characters and years", () => {
  let admin: { cookie: string };
  beforeAll(async () => {
    admin = await newSignedInUser(t.ctx, { role: "admin" });
  });
  const send = (method: "POST" | "PATCH", url: string, body: unknown, cookie = admin.cookie) =>
    t.app.inject({
      method,
      url,
      headers: { origin: ORIGIN, cookie, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
  type Issue = { field: string; message: string };
  type Answer = {
    statusCode: number;
    body: string;
    json(): { error: { code: string; message: string; details: Issue[] } };
  };
  const expectRefused = (res: Answer, field: string, why: RegExp) => {
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe("validation_failed");
    expect(error.message).toContain(field);
    expect(error.details[0]?.field).toBe(field);
    expect(error.details[0]?.message).toMatch(why);
  };
  const post = (over: Record<string, unknown>) => ({
    slug: `p-${Math.random().toString(36).slice(2, 10)}`,
    title: "A fine post",
    markdown: "Hello\n\nWorld",
    author: "Staff",
    ...over,
  });

  it("takes a post's cover image only as a /media/ path or an https URL", async () => {
    for (const cover of [
      "javascript:alert(1)",
      "http://example.com/a.png",
      "cover.png",
      "data:image/png;base64,AAAA",
    ]) {
      expectRefused(
        await send("POST", "/api/v1/admin/posts", post({ coverImageUrl: cover })),
        "coverImageUrl",
        /\/media\/ path or an https URL/,
      );
    }
    for (const cover of ["/media/blog/a.jpg", "https://cdn.example.com/a.png", null]) {
      const ok = await send("POST", "/api/v1/admin/posts", post({ coverImageUrl: cover }));
      expect(ok.statusCode, ok.body).toBe(201);
    }
    expectRefused(
      await send("PATCH", "/api/v1/admin/posts/some-post", { coverImageUrl: "ftp://x/y.png" }),
      "coverImageUrl",
      /https URL/,
    );
  });

  it("refuses CR, LF and other control characters in titles, authors and names, and keeps paragraphs' line breaks", async () => {
    const breaks = [
      "Title\r\nInjected: header",
      "Tab\there",
      "Bell\u0007",
      "Override\u202Eevil",
      "Line\u2028sep",
    ];
    for (const bad of breaks) {
      expectRefused(await send("POST", "/api/v1/admin/posts", post({ title: bad })), "title", /one line/);
      expectRefused(await send("POST", "/api/v1/admin/posts", post({ author: bad })), "author", /one line/);
    }
    const cases: [string, Record<string, unknown>, string][] = [
      ["/api/v1/admin/studios", { slug: "ctl-studio", name: "Bad\nName", logoUrl: "/media/l.webp" }, "name"],
      ["/api/v1/admin/celebrities", { slug: "ctl-star", name: "Star\r" + "x" }, "name"],
      [
        "/api/v1/admin/films",
        {
          slug: "ctl-film",
          name: "Film\nName",
          posterUrl: "/media/p.webp",
          bannerUrl: "/media/b.webp",
          thumbnailUrl: "/media/t.webp",
        },
        "name",
      ],
      [
        "/api/v1/admin/nfts",
        {
          title: "NFT\u0085title",
          tier: "common",
          category: "Poster",
          filmId: 1,
          celebrityId: 1,
          imageUrl: "/media/a.webp",
          thumbnailUrl: "/media/a.webp",
          editionSize: 1,
          saleType: "fixed",
          priceUsdCents: 100,
        },
        "title",
      ],
      ["/api/v1/admin/lotteries", { name: "Lottery\nName" }, "name"],
      [
        "/api/v1/contact",
        { name: "Fan\r\nBcc: x@example.com", email: "fan@example.com", message: "hi" },
        "name",
      ],
    ];
    for (const [url, body, field] of cases) {
      const res = await send("POST", url, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(
        res.json().error.details.map((d: { field: string }) => d.field),
        url,
      ).toContain(field);
      const issue = res.json().error.details.find((d: { field: string }) => d.field === field);
      expect(issue.message, url).toMatch(/one line without control characters/);
    }
    // A payer's phone, sent on to the payment provider, too.
    const fan = await newSignedInUser(t.ctx);
    expectRefused(
      await send(
        "POST",
        "/api/v1/orders",
        { nftId: "abcdefgh", provider: "cashfree", phone: "+91987654\r\n3210" },
        fan.cookie,
      ),
      "phone",
      /one line without control characters/,
    );
    // A PATCH is held to the same rule.
    expectRefused(
      await send("PATCH", "/api/v1/admin/celebrities/1", { name: "A\nB" }),
      "name",
      /one line without control characters/,
    );
    // Descriptions and Markdown keep their line breaks; other control characters are still refused.
    const ok = await send(
      "POST",
      "/api/v1/admin/posts",
      post({ excerpt: "Two\nlines", markdown: "a\r\n\tb\n" }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expectRefused(
      await send("POST", "/api/v1/admin/posts", post({ markdown: "a\u001b[31mred" })),
      "markdown",
      /control characters/,
    );
  });

  it("refuses dates outside the years 1900–2200", async () => {
    for (const when of [
      "0001-01-01T00:00:00Z",
      "1899-12-31T23:59:59Z",
      "2201-01-01T00:00:00Z",
      "9999-12-31T00:00:00+05:30",
    ]) {
      expectRefused(
        await send("POST", "/api/v1/admin/posts", post({ publishedAt: when })),
        "publishedAt",
        /between the years 1900 and 2200/,
      );
    }
    const ok = await send("POST", "/api/v1/admin/posts", post({ publishedAt: "1999-12-31T18:30:00+05:30" }));
    expect(ok.statusCode, ok.body).toBe(201);
    const lottery = await send("POST", "/api/v1/admin/lotteries", {
      name: "Year one",
      ticketPriceCents: 100,
      opensAt: "0001-01-01T00:00:00Z",
      closesAt: "2030-01-01T00:00:00Z",
      prize: { kind: "pool", amountCents: 1000 },
    });
    expectRefused(lottery, "opensAt", /between the years 1900 and 2200/);
  });
});

describe("point 12: media and the feed for outside readers", () => {
  it("lets any site read media: CORS *, preflight 204 with GET and HEAD, errors included", async () => {
    await t.ctx.storage.put("blog/cors-test.jpg", Buffer.from("not really a jpeg"), "image/jpeg");
    const res = await t.app.inject({
      url: "/media/blog/cors-test.jpg",
      headers: { origin: "https://dapp.example" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-expose-headers"]).toMatch(/ETag/);
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    const head = await t.app.inject({ method: "HEAD", url: "/media/blog/cors-test.jpg" });
    expect(head.headers["access-control-allow-origin"]).toBe("*");
    const cached = await t.app.inject({
      url: "/media/blog/cors-test.jpg",
      headers: { "if-none-match": res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.headers["access-control-allow-origin"]).toBe("*");
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/media/blog/cors-test.jpg",
      headers: { origin: "https://dapp.example", "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    const missing = await t.app.inject({ url: "/media/no/such-file.png" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["access-control-allow-origin"]).toBe("*");
    // Not the API with cookies.
    const api = await t.app.inject({ url: "/api/v1/session", headers: { origin: "https://dapp.example" } });
    expect(api.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("gives the RSS feed an ETag (304 on If-None-Match) and its enclosures their real byte length", async () => {
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const cover = Buffer.alloc(12_345, 7);
    await t.ctx.storage.put("blog/rss-cover.jpg", cover, "image/jpeg");
    const make = (slug: string, coverImageUrl: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/admin/posts",
        headers: { origin: ORIGIN, cookie: admin.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ slug, title: slug, markdown: "Body", author: "Staff", coverImageUrl }),
      });
    expect((await make("rss-local-cover", "/media/blog/rss-cover.jpg")).statusCode).toBe(201);
    expect((await make("rss-remote-cover", "https://cdn.example.com/elsewhere.jpg")).statusCode).toBe(201);
    const res = await t.app.inject("/blog/rss.xml");
    expect(res.statusCode).toBe(200);
    const items = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_" }).parse(res.body).rss
      .channel.item as { link: string; enclosure?: Record<string, string> }[];
    const local = items.find((i) => i.link.endsWith("/blog/rss-local-cover"));
    expect(local?.enclosure).toEqual({
      "@_url": "http://localhost:3000/media/blog/rss-cover.jpg",
      "@_type": "image/jpeg",
      "@_length": "12345",
    });
    // A cover elsewhere has no length we know: no enclosure rather than a false one.
    expect(items.find((i) => i.link.endsWith("/blog/rss-remote-cover"))?.enclosure).toBeUndefined();
    expect(res.body).not.toContain('length="0"');

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const again = await t.app.inject({ url: "/blog/rss.xml", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    // A new post is a new feed, with another ETag.
    expect((await make("rss-newer", "/media/blog/rss-cover.jpg")).statusCode).toBe(201);
    const changed = await t.app.inject({ url: "/blog/rss.xml", headers: { "if-none-match": etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe("point 14: a file that is not there is a plain 404, not the web app's page", () => {
  let web: TestApp;
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-web-"));
    fs.mkdirSync(path.join(dir, "assets"));
    fs.writeFileSync(
      path.join(dir, "index.html"),
      "<!doctype html><html><head><title>Diginoor</title></head><body></body></html>",
    );
    web = await createTestApp({ WEB_DIST_DIR: dir });
  });
  afterAll(() => web.close());

  it("answers unknown media and asset paths with the JSON error, and pages with the page", async () => {
    for (const url of [
      "/media",
      "/media/",
      "/media/_r/abc/x.png",
      "/media/no/such.png",
      "/assets/index-old.js",
    ]) {
      for (const method of ["GET", "HEAD"] as const) {
        const res = await web.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers["content-type"], `${method} ${url}`).toMatch(/^application\/json/);
        if (method === "GET") expect(res.json().error.code).toBe("not_found");
      }
    }
    // A page that does not exist is still the web app's 404 page.
    const page = await web.app.inject("/no-such-page");
    expect(page.statusCode).toBe(404);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
  });
});
