// Issue 23 (hardening, second round), the inputs: (6) image URLs, control characters in human text and
// absurd years refused with a 400 naming the field.
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
