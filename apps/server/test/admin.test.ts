import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminWork } from "../src/modules/admin/jobs.ts";
import { CATALOGUE_CHANGED } from "../src/modules/admin/service.ts";
import { createCatalogueService } from "../src/modules/catalogue/service.ts";
import { adminEndpoints } from "@diginoor/api/admin";
import { type TestApp, createTestApp } from "./harness.ts";
import { ORIGIN, multipart, samplePng } from "./fixtures/accounts.ts";
import { newSignedInUser } from "./factories.ts";

/**
 * The studio console (issue 13 point 3, decision 132): who reaches what (401 signed out, 403 for
 * users and for studio accounts outside their own production house), every write audited with
 * before and after, and the public pages showing a change at once.
 */

let t: TestApp;
let admin: { cookie: string; user: { id: string; email: string } };
let studioA: { cookie: string; user: { id: string } };
let fan: { cookie: string; user: { id: string } };
let houseA: number;
let houseB: number;
let celebrityId: number;

type Json = Record<string, unknown>;

async function call(method: string, url: string, cookie?: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as "GET",
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  return { status: res.statusCode, body: res.body ? (safeJson(res.body) as Json) : {}, raw: res };
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const film = (slug: string, extra: Json = {}) => ({
  slug,
  name: `Film ${slug}`,
  tagline: "A tagline",
  posterUrl: "/media/p.webp",
  bannerUrl: "/media/b.webp",
  thumbnailUrl: "/media/t.webp",
  ...extra,
});
const nft = (filmId: number, extra: Json = {}) => ({
  title: "Interval block",
  tier: "rare",
  category: "Scene",
  filmId,
  celebrityId,
  imageUrl: "/media/i.webp",
  thumbnailUrl: "/media/t.webp",
  editionSize: 10,
  saleType: "fixed",
  priceUsdCents: 2500,
  ...extra,
});

async function lastAudit() {
  const r = await call("GET", "/api/v1/admin/audit-log?limit=1", admin.cookie);
  return (r.body.items as Json[])[0] as Json;
}

beforeAll(async () => {
  t = await createTestApp();
  const q = t.ctx.database.query.bind(t.ctx.database);
  [{ id: houseA }] = (await q<{ id: number }>(
    "INSERT INTO production_houses (slug, name, logo_url) VALUES ('house-a', 'House A', '/a.svg') RETURNING id",
  )) as [{ id: number }];
  [{ id: houseB }] = (await q<{ id: number }>(
    "INSERT INTO production_houses (slug, name, logo_url) VALUES ('house-b', 'House B', '/b.svg') RETURNING id",
  )) as [{ id: number }];
  [{ id: celebrityId }] = (await q<{ id: number }>(
    "INSERT INTO celebrities (slug, name) VALUES ('a-star', 'A Star') RETURNING id",
  )) as [{ id: number }];
  admin = await newSignedInUser(t.ctx, { role: "admin", name: "Console Admin" });
  studioA = await newSignedInUser(t.ctx, { role: "studio", productionHouseId: houseA });
  fan = await newSignedInUser(t.ctx);
});
afterAll(async () => {
  await t.close();
});

describe("console PATCHes naming only what the role may not change (issue 37 point 8)", () => {
  it("a studio account's film patch naming another house is 403, its own house alone a no-op, never 500", async () => {
    const made = await call("POST", "/api/v1/admin/films", studioA.cookie, film("patch-house-film"));
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    const url = `/api/v1/admin/films/${id}`;
    const auditsOf = async () =>
      (
        await t.ctx.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM admin_audit_log WHERE action = 'film.update' AND subject_id = $1",
          [String(id)],
        )
      )[0]!.n;

    for (const body of [{ productionHouseId: houseB }, { productionHouseId: houseB, name: "Moved" }]) {
      const moved = await call("PATCH", url, studioA.cookie, body);
      expect(moved.status, JSON.stringify(body)).toBe(403);
      expect(moved.body).toMatchObject({ error: { code: "forbidden" } });
      expect((moved.body.error as Json).message).toMatch(/cannot move a film to another production house/);
    }
    const same = await call("PATCH", url, studioA.cookie, { productionHouseId: houseA });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ id, productionHouseId: houseA, name: "Film patch-house-film" });
    expect(await auditsOf()).toBe(0);
    // Another house's film stays out of reach through the no-op too.
    const theirs = await call(
      "POST",
      "/api/v1/admin/films",
      admin.cookie,
      film("patch-house-b", { productionHouseId: houseB }),
    );
    expect(
      (
        await call("PATCH", `/api/v1/admin/films/${theirs.body.id}`, studioA.cookie, {
          productionHouseId: houseA,
        })
      ).status,
    ).toBe(403);
    // What the studio may change still changes, audited.
    const renamed = await call("PATCH", url, studioA.cookie, { productionHouseId: houseA, name: "Renamed" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Renamed", productionHouseId: houseA });
    expect(await auditsOf()).toBe(1);
    // An administrator moves it.
    const byAdmin = await call("PATCH", url, admin.cookie, { productionHouseId: houseB });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.productionHouseId).toBe(houseB);
  });

  it("every console PATCH a studio account may not make is 403 (no 500), whatever single field it names", async () => {
    const made = await call("POST", "/api/v1/admin/studios", admin.cookie, {
      slug: "patch-s",
      name: "S",
      logoUrl: "/s.png",
    });
    const celeb = await call("POST", "/api/v1/admin/celebrities", admin.cookie, {
      slug: "patch-c",
      name: "C",
    });
    const post = await call("POST", "/api/v1/admin/posts", admin.cookie, {
      title: "P",
      slug: "patch-p",
      markdown: "x",
    });
    for (const [url, body] of [
      [`/api/v1/admin/studios/${made.body.id}`, { name: "Mine" }],
      [`/api/v1/admin/studios/${houseA}`, { name: "Mine" }],
      [`/api/v1/admin/celebrities/${celeb.body.id}`, { name: "Mine" }],
      [`/api/v1/admin/posts/${post.body.slug}`, { title: "Mine" }],
    ] as const) {
      const res = await call("PATCH", url, studioA.cookie, body);
      expect(res.status, url).toBe(403);
    }
  });

  it("a catalogue change that sets nothing reads the row back instead of failing (both engines)", async () => {
    const { filmsAdmin, studios, celebritiesAdmin } = await import("../src/modules/catalogue/service.ts");
    const made = await call(
      "POST",
      "/api/v1/admin/films",
      admin.cookie,
      film("patch-nothing", { productionHouseId: houseB }),
    );
    const id = made.body.id as number;
    const noField = { name: undefined } as Record<string, undefined>;
    const f = await filmsAdmin.update(t.ctx.db, id, noField);
    expect(f.after).toEqual(f.before);
    const s = await studios.update(t.ctx.db, houseA, noField);
    expect(s.after).toEqual(s.before);
    const c = await celebritiesAdmin.update(t.ctx.db, celebrityId, noField);
    expect(c.after).toEqual(c.before);
  });
});

describe("who reaches the console", () => {
  const every = Object.values(adminEndpoints).flatMap((e) => ("method" in e ? [e] : Object.values(e)));
  const concrete = (path: string) =>
    path
      .replace("{id}", path.includes("/users/") ? "00000000-0000-4000-8000-000000000000" : "1")
      .replace("{slug}", "some-post")
      .replace("{tokenId}", "1");

  it("answers 401 to visitors and 403 to users on every console endpoint", async () => {
    expect(every.length).toBeGreaterThan(20);
    for (const e of every) {
      const url = concrete(e.path) + (e.operationId === "adminUploadImage" ? "?purpose=nft" : "");
      expect((await call(e.method, url)).status, `${e.method} ${e.path} signed out`).toBe(401);
      expect(
        (await call(e.method, url, fan.cookie, e.body ? {} : undefined)).status,
        `${e.method} ${e.path}`,
      ).toBe(403);
    }
  });

  it("keeps studio accounts to their own house's films and NFTs, and out of everything else", async () => {
    const me = await call("GET", "/api/v1/admin/me", studioA.cookie);
    expect(me.body).toEqual({ role: "studio", productionHouse: { id: houseA, name: "House A" } });

    const adminFilm = await call(
      "POST",
      "/api/v1/admin/films",
      admin.cookie,
      film("b-film", { productionHouseId: houseB }),
    );
    expect(adminFilm.status).toBe(201);
    const bFilmId = adminFilm.body.id as number;

    // A studio's new film is its own house's, whatever it asks for.
    const own = await call(
      "POST",
      "/api/v1/admin/films",
      studioA.cookie,
      film("a-film", { productionHouseId: houseB }),
    );
    expect(own.status).toBe(201);
    expect(own.body.productionHouseId).toBe(houseA);
    expect(own.body.href).toBe("/films/a-film");

    expect(
      (await call("PATCH", `/api/v1/admin/films/${bFilmId}`, studioA.cookie, { name: "Mine now" })).status,
    ).toBe(403);
    expect((await call("POST", "/api/v1/admin/nfts", studioA.cookie, nft(bFilmId))).status).toBe(403);
    const list = await call("GET", "/api/v1/admin/films", studioA.cookie);
    expect((list.body.items as Json[]).map((f) => f.slug)).toEqual(["a-film"]);

    const bNft = await call("POST", "/api/v1/admin/nfts", admin.cookie, nft(bFilmId));
    expect(bNft.status).toBe(201);
    expect(
      (await call("PATCH", `/api/v1/admin/nfts/${bNft.body.id}`, studioA.cookie, { priceUsdCents: 1 }))
        .status,
    ).toBe(403);
    const aNft = await call("POST", "/api/v1/admin/nfts", studioA.cookie, nft(own.body.id as number));
    expect(aNft.status).toBe(201);
    // …nor move its NFT to another house's film.
    expect(
      (await call("PATCH", `/api/v1/admin/nfts/${aNft.body.id}`, studioA.cookie, { filmId: bFilmId })).status,
    ).toBe(403);

    for (const [method, url, body] of [
      ["GET", "/api/v1/admin/users", undefined],
      ["GET", "/api/v1/admin/audit-log", undefined],
      ["GET", "/api/v1/admin/posts", undefined],
      ["POST", "/api/v1/admin/posts", { title: "x", slug: "x", markdown: "x" }],
      ["POST", "/api/v1/admin/studios", { slug: "s", name: "S", logoUrl: "/s.png" }],
      ["POST", "/api/v1/admin/celebrities", { slug: "c", name: "C" }],
      ["GET", "/api/v1/admin/newsletter.csv", undefined],
      ["GET", "/api/v1/admin/contact-messages", undefined],
      ["PUT", "/api/v1/admin/hidden-tokens/5", { reason: "voided" }],
    ] as const) {
      expect((await call(method, url, studioA.cookie, body)).status, `${method} ${url}`).toBe(403);
    }
  });
});

describe("console writes", () => {
  it("creates a film, an NFT with an uploaded image and a post, each public at once and audited", async () => {
    const up = multipart(await samplePng(1200, 900), "poster.png", "image/png");
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/api/v1/admin/images?purpose=nft",
      payload: up.payload,
      headers: { ...up.headers, origin: ORIGIN, cookie: admin.cookie },
    });
    expect(uploaded.statusCode).toBe(201);
    const images = uploaded.json().images as { image: string; thumbnail: string };
    expect(images.image).toMatch(/^\/media\/console\/nft\/[a-f0-9]{32}\.webp$/);
    expect((await t.app.inject(images.thumbnail)).headers["content-type"]).toBe("image/webp");
    expect((await lastAudit()).action).toBe("image.upload");

    const svg = multipart(Buffer.from("<svg><script>alert(1)</script></svg>"), "x.png", "image/png");
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/v1/admin/images?purpose=nft",
      payload: svg.payload,
      headers: { ...svg.headers, origin: ORIGIN, cookie: admin.cookie },
    });
    expect(refused.statusCode).toBe(415);

    // The public lists are read first, so a stale cache would show.
    await call("GET", "/api/v1/films");
    await call("GET", "/api/v1/nfts");
    const f = await call(
      "POST",
      "/api/v1/admin/films",
      admin.cookie,
      film("new-premiere", { productionHouseId: houseA }),
    );
    expect(f.status).toBe(201);
    expect((await lastAudit()).action).toBe("film.create");
    expect((await call("GET", "/api/v1/films/new-premiere")).status).toBe(200);

    const n = await call(
      "POST",
      "/api/v1/admin/nfts",
      admin.cookie,
      nft(f.body.id as number, {
        title: "Premiere poster",
        imageUrl: images.image,
        thumbnailUrl: images.thumbnail,
      }),
    );
    expect(n.status).toBe(201);
    const pub = await call("GET", `/api/v1/nfts/${n.body.id}`);
    expect(pub.body.title).toBe("Premiere poster");
    expect(pub.body.imageUrl).toBe(images.image);
    expect((pub.body.productionHouse as Json).name).toBe("House A");

    const post = await call("POST", "/api/v1/admin/posts", admin.cookie, {
      title: "Premiere night",
      slug: "premiere-night",
      markdown: "# Hello\n\n<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1))",
      excerpt: "Our new premiere",
      featured: true,
    });
    expect(post.status).toBe(201);
    expect(post.body.author).toBe("Console Admin");
    const shown = await call("GET", "/api/v1/posts/premiere-night");
    expect(shown.body.html).not.toMatch(/<script|onerror=|href="javascript:/i);

    const sitemap = (await t.app.inject("/sitemap.xml")).body;
    const locs = (
      new XMLParser({ isArray: (name) => name === "url" }).parse(sitemap).urlset.url as { loc: string }[]
    ).map((u) => u.loc);
    expect(locs).toContain("http://localhost:3000/films/new-premiere");
    expect(locs).toContain(`http://localhost:3000/nftdetail/${n.body.id}`);
    expect(locs).toContain("http://localhost:3000/blog/premiere-night");
    expect((await t.app.inject("/blog/rss.xml")).body).toContain("/blog/premiere-night");

    const entry = await lastAudit();
    expect(entry).toMatchObject({
      action: "post.create",
      actorId: admin.user.id,
      actorEmail: admin.user.email,
      actorRole: "admin",
      subjectType: "post",
      subjectId: "premiere-night",
      before: null,
    });
    expect((entry.after as Json).title).toBe("Premiere night");
  });

  it("edits an auction's reserve and length, keeps sold editions, and records before and after", async () => {
    const f = await call(
      "POST",
      "/api/v1/admin/films",
      admin.cookie,
      film("auction-film", { productionHouseId: houseB }),
    );
    const bad = await call(
      "POST",
      "/api/v1/admin/nfts",
      admin.cookie,
      nft(f.body.id as number, { saleType: "auction" }),
    );
    expect(bad.status).toBe(400);
    const a = await call(
      "POST",
      "/api/v1/admin/nfts",
      admin.cookie,
      nft(f.body.id as number, { saleType: "auction", auctionDurationDays: 3, editionSize: 1 }),
    );
    expect(a.status).toBe(201);
    const edited = await call("PATCH", `/api/v1/admin/nfts/${a.body.id}`, admin.cookie, {
      priceUsdCents: 99_00,
      auctionDurationDays: 7,
      tier: "legendary",
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      priceUsdCents: 9900,
      auctionDurationDays: 7,
      tier: "legendary",
      title: "Interval block",
    });
    const entry = await lastAudit();
    expect(entry.action).toBe("nft.update");
    expect((entry.before as Json).priceUsdCents).toBe(2500);
    expect((entry.after as Json).priceUsdCents).toBe(9900);

    await t.ctx.database.query("UPDATE nfts SET edition_size = 10, editions_available = 4 WHERE id = $1", [
      a.body.id,
    ]);
    expect(
      (await call("PATCH", `/api/v1/admin/nfts/${a.body.id}`, admin.cookie, { editionSize: 5 })).status,
    ).toBe(409);
    const grown = await call("PATCH", `/api/v1/admin/nfts/${a.body.id}`, admin.cookie, { editionSize: 20 });
    expect(grown.body).toMatchObject({ editionSize: 20, editionsAvailable: 14 });

    await t.ctx.database.query("UPDATE nfts SET auction_ends_at = now() + interval '1 day' WHERE id = $1", [
      a.body.id,
    ]);
    expect(
      (await call("PATCH", `/api/v1/admin/nfts/${a.body.id}`, admin.cookie, { priceUsdCents: 1 })).status,
    ).toBe(409);
  });

  it("drops the catalogue's caches once a write commits, here and in every process (pub/sub)", async () => {
    // Another process's catalogue service, caching for a minute, with that process's own subscription
    // (the admin module's real one, as bootstrap.ts builds it for every process).
    const other = createCatalogueService(t.ctx.database, { cacheTtlMs: 60_000, listCacheTtlMs: 60_000 });
    const [subscription] = adminWork(other, "another-process").subscriptions ?? [];
    expect(subscription).toMatchObject({ channel: CATALOGUE_CHANGED, in: "every" });
    const stop = await t.ctx.pubsub.subscribe(subscription!.channel, (m) => subscription!.handle(m));
    const here = vi.spyOn(t.ctx.services.catalogue, "invalidate");
    try {
      const before = (await other.listFilms()).items.length;
      await t.ctx.database.query(
        "INSERT INTO films (slug, name, poster_url, banner_url, thumbnail_url) VALUES ('sneaked-in', 'S', '/p', '/b', '/t')",
      );
      expect((await other.listFilms()).items.length).toBe(before); // cached
      const f = await call("POST", "/api/v1/admin/films", admin.cookie, film("cache-buster"));
      expect(f.status).toBe(201);
      expect(here).toHaveBeenCalledTimes(1);
      await expect.poll(async () => (await other.listFilms()).items.length).toBe(before + 2);
      // A refused write drops nothing.
      expect((await call("POST", "/api/v1/admin/films", admin.cookie, film("cache-buster"))).status).toBe(
        409,
      );
      expect(here).toHaveBeenCalledTimes(1);
    } finally {
      here.mockRestore();
      await stop();
    }
  });

  it("refuses a taken slug with 409 and writes nothing, not even an audit row", async () => {
    const before = (await lastAudit()).id;
    const dup = await call("POST", "/api/v1/admin/films", admin.cookie, film("new-premiere"));
    expect(dup.status).toBe(409);
    expect((await lastAudit()).id).toBe(before);
  });

  it("suspends and reinstates users, assigns the studio role, and audits each", async () => {
    const victim = await newSignedInUser(t.ctx, { name: "Suspect" });
    const s = await call("POST", `/api/v1/admin/users/${victim.user.id}/suspend`, admin.cookie);
    expect(s.status).toBe(200);
    expect(s.body.suspended).toBe(true);
    expect((await call("GET", "/api/v1/me", victim.cookie)).status).toBe(401);
    expect((await lastAudit()).action).toBe("user.suspend");
    expect(
      (await call("POST", `/api/v1/admin/users/${victim.user.id}/unsuspend`, admin.cookie)).body.suspended,
    ).toBe(false);
    expect((await lastAudit()).action).toBe("user.unsuspend");
    expect((await call("POST", `/api/v1/admin/users/${admin.user.id}/suspend`, admin.cookie)).status).toBe(
      409,
    );

    const role = await call("PUT", `/api/v1/admin/users/${victim.user.id}/role`, admin.cookie, {
      role: "studio",
      productionHouseId: houseB,
    });
    expect(role.body).toMatchObject({ role: "studio", productionHouseId: houseB });
    expect((await lastAudit()).action).toBe("user.set_role");
    expect(
      (await call("PUT", `/api/v1/admin/users/${victim.user.id}/role`, admin.cookie, { role: "studio" }))
        .status,
    ).toBe(400);

    const found = await call("GET", "/api/v1/admin/users?q=suspect", admin.cookie);
    expect((found.body.items as Json[]).map((u) => u.id)).toEqual([victim.user.id]);
  });

  it("hides and shows tokens, exports the newsletter as CSV and shows the contact inbox", async () => {
    const hide = await call("PUT", "/api/v1/admin/hidden-tokens/42", admin.cookie, {
      reason: "voided",
      note: "fraud",
    });
    expect(hide.body).toMatchObject({ tokenId: "42", reason: "voided" });
    expect((await lastAudit()).action).toBe("token.hide");
    expect(
      ((await call("GET", "/api/v1/admin/hidden-tokens", admin.cookie)).body.items as Json[]).length,
    ).toBe(1);
    expect((await call("DELETE", "/api/v1/admin/hidden-tokens/42", admin.cookie)).status).toBe(204);
    expect((await lastAudit()).action).toBe("token.unhide");
    expect((await call("DELETE", "/api/v1/admin/hidden-tokens/42", admin.cookie)).status).toBe(404);

    await call("POST", "/api/v1/newsletter", undefined, { email: "fan@example.com" });
    await call("POST", "/api/v1/newsletter", undefined, { email: "-cmd@example.com" });
    const csv = await call("GET", "/api/v1/admin/newsletter.csv", admin.cookie);
    expect(csv.status).toBe(200);
    expect(csv.raw.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.raw.body.trim().split("\r\n");
    expect(lines[0]).toBe("email,subscribed_at");
    expect(lines[1]).toMatch(/^fan@example\.com,\d{4}-/);
    expect(lines[2]).toMatch(/^'-cmd@example\.com,/);
    expect((await lastAudit()).action).toBe("newsletter.export");

    await call("POST", "/api/v1/contact", undefined, {
      name: "Ravi",
      email: "ravi@example.com",
      message: "Hello team",
    });
    const inbox = await call("GET", "/api/v1/admin/contact-messages", admin.cookie);
    expect((inbox.body.items as Json[])[0]).toMatchObject({ name: "Ravi", message: "Hello team" });
  });

  it("records every write in the audit log, newest first, paged", async () => {
    const all = await call("GET", "/api/v1/admin/audit-log?limit=200", admin.cookie);
    const actions = (all.body.items as Json[]).map((e) => e.action);
    for (const a of [
      "film.create",
      "nft.create",
      "nft.update",
      "post.create",
      "image.upload",
      "user.suspend",
      "user.set_role",
      "token.hide",
      "newsletter.export",
    ]) {
      expect(actions).toContain(a);
    }
    const page = await call("GET", "/api/v1/admin/audit-log?limit=2", admin.cookie);
    const next = await call(
      "GET",
      `/api/v1/admin/audit-log?limit=2&before=${page.body.nextCursor}`,
      admin.cookie,
    );
    expect((next.body.items as Json[])[0]?.id).toBeLessThan((page.body.items as Json[])[1]?.id as number);
  });
});
