import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "../seed/seed.ts";
import { parseIndexTemplate } from "../src/modules/seo/html.ts";
import { guessViewport, headTags, scriptSafeJson } from "../src/modules/seo/ssr.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { newSignedInUser } from "./factories.ts";

/**
 * Server-rendered pages (decision 033): the server loads the web build's server entry, lets it read
 * the API in-process as the visitor, writes its markup, data and the page's CSS and chunks into
 * index.html, and falls back to the plain app shell when the render fails. The real entry
 * (apps/web/src/entry-server.tsx) is exercised by the browser tests on the built app; here a
 * stand-in module with the same interface records what the server gives it.
 */

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <title>Diginoor</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const MANIFEST = {
  "index.html": {
    file: "assets/index-abc.js",
    isEntry: true,
    imports: ["_react-3.js"],
    dynamicImports: ["src/boot.tsx"],
    css: ["assets/index-abc.css"],
  },
  "_react-3.js": { file: "assets/react-3.js" },
  "src/boot.tsx": { file: "assets/boot-4.js", imports: ["_react-3.js"], css: ["assets/boot-4.css"] },
  "src/features/home/routes/HomePage.tsx": {
    file: "assets/HomePage-1.js",
    imports: ["index.html", "_NftCard-2.js", "_react-3.js"],
    css: ["assets/HomePage-1.css"],
  },
  "_NftCard-2.js": { file: "assets/NftCard-2.js", imports: ["index.html"], css: ["assets/NftCard-2.css"] },
};

// The stand-in entry: renders the signed-in user's name and the first NFT's title, read through
// the fetch the server passes; "/broken" throws, "/spa" is not server-rendered.
const ENTRY = `
export async function render({ url, fetch, viewport }) {
  const path = new URL(url).pathname;
  if (path === "/broken") throw new Error("render failed");
  if (path === "/spa") return null;
  const session = await (await fetch("/api/v1/session")).json();
  const nfts = await (await fetch("/api/v1/nfts?limit=1")).json();
  let refused = "";
  try { await fetch("/api/v1/auth/logout", { method: "POST" }); } catch (e) { refused = e.message; }
  const html = "<main><h1>" + nfts.items[0].title + "</h1><p>" + (session.user ? session.user.name : "visitor") + "</p><p>" + viewport + "</p><p>" + refused + "</p></main>";
  return { html, state: { queries: [{ note: "</script><script>alert(1)</script>" }] }, modules: ["src/features/home/routes/HomePage.tsx"] };
}
`;

let t: TestApp;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-ssr-"));
const dist = path.join(root, "dist");

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, ".vite"), { recursive: true });
  fs.mkdirSync(path.join(root, "dist-ssr"), { recursive: true });
  fs.writeFileSync(path.join(dist, "index.html"), INDEX_HTML);
  fs.writeFileSync(path.join(dist, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
  fs.writeFileSync(path.join(root, "dist-ssr", "entry-server.js"), ENTRY);
  t = await createTestApp({ WEB_DIST_DIR: dist });
  await seedCatalogue(t.ctx.db);
}, 180_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const MOBILE_UA =
  "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36";

describe("server-rendered pages", () => {
  it("writes the page's markup, its data and its stylesheets and chunks into index.html", async () => {
    const res = await t.app.inject({ method: "GET", url: "/", headers: { "user-agent": MOBILE_UA } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    const firstNft = (await t.app.inject({ method: "GET", url: "/api/v1/nfts?limit=1" })).json().items[0];
    expect(res.body).toContain(`<div id="root"><main><h1>${firstNft.title}</h1><p>visitor</p><p>mobile</p>`);
    expect(res.body).toContain('<html lang="en" data-viewport="mobile">');
    // The page's own CSS and chunks (and their imports), never the entry's again.
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/HomePage-1.css">');
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/NftCard-2.css">');
    // Scripts at low priority: the page paints from its HTML and CSS before any script runs.
    expect(res.body).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/NftCard-2.js">',
    );
    expect(res.body).not.toMatch(/rel="modulepreload"[^>]*href="\/assets\/index-abc\.js"/);
    // A chunk the entry imports is preloaded by index.html already.
    expect(res.body).not.toMatch(/rel="modulepreload"[^>]*href="\/assets\/react-3\.js"/);
    expect(res.body.indexOf("HomePage-1.css")).toBeLessThan(res.body.indexOf("</head>"));
    // The data cannot close its script element.
    const state = res.body.match(/<script type="application\/json" id="__diginoor_state">(.*?)<\/script>/s);
    expect(state?.[1]).toContain("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>");
    expect(JSON.parse(state?.[1] ?? "")).toEqual({
      queries: [{ note: "</script><script>alert(1)</script>" }],
    });
  });

  it("reads the API as the visitor (their session), and only reads it", async () => {
    const user = await newSignedInUser(t.ctx, { name: "Meena Rao" });
    const res = await t.app.inject({ method: "GET", url: "/", headers: { cookie: user.cookie } });
    expect(res.body).toContain("<p>Meena Rao</p><p>desktop</p>");
    expect(res.body).toContain("server render may only read the API (POST /api/v1/auth/logout)");
    // Still signed in: the render could not sign the visitor out.
    const me = await t.app.inject({ method: "GET", url: "/api/v1/me", headers: { cookie: user.cookie } });
    expect(me.statusCode).toBe(200);
  });

  it("falls back to the app shell when the render fails, and leaves other pages to the browser", async () => {
    for (const url of ["/broken", "/spa"]) {
      const res = await t.app.inject({ method: "GET", url: url === "/broken" ? "/about" : url });
      expect(res.statusCode).toBeLessThan(500);
    }
    // /about renders (the stand-in renders any page but /broken and /spa); /spa is an unknown page: 404 shell.
    const spa = await t.app.inject({ method: "GET", url: "/spa" });
    expect(spa.body).toContain('<div id="root"></div>');
    expect(spa.body).not.toContain("__diginoor_state");
  });
});

describe("server render pieces", () => {
  it("guesses the layout from the User-Agent or Sec-CH-UA-Mobile", () => {
    expect(guessViewport({ headers: { "user-agent": MOBILE_UA } })).toBe("mobile");
    expect(guessViewport({ headers: { "sec-ch-ua-mobile": "?1" } })).toBe("mobile");
    expect(guessViewport({ headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0" } })).toBe(
      "desktop",
    );
  });

  it("escapes what could end a script element", () => {
    expect(scriptSafeJson({ a: "</script>\u2028" })).toBe('{"a":"\\u003c/script>\\u2028"}');
  });

  it("links each stylesheet and chunk once, skipping the entry", () => {
    const tags = headTags(MANIFEST, ["src/features/home/routes/HomePage.tsx", "_NftCard-2.js"]);
    expect(tags.match(/NftCard-2\.css/g)).toHaveLength(1);
    expect(tags).not.toContain("index-abc");
  });

  it("preloads the app the entry imports after the first paint, with its stylesheets", () => {
    const tags = headTags(MANIFEST, ["src/features/home/routes/HomePage.tsx"]);
    expect(tags).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/boot-4.js">',
    );
    expect(tags).toContain('<link rel="stylesheet" crossorigin href="/assets/boot-4.css">');
    // What index.html already loads is not named twice.
    expect(tags).not.toContain("react-3.js");
  });

  it("leaves index.html as it is without a rendered page", () => {
    const template = parseIndexTemplate(INDEX_HTML);
    expect(template.render(undefined)).toBe(INDEX_HTML);
  });
});
