// Issue 8, item 11: the built web app goes out precompressed (brotli or gzip, as the browser
// accepts), hashed /assets/* files are cached for a year as immutable, index.html is revalidated.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./harness.ts";

const script = `export const hello = "${"Vanakkam, Kabali! ".repeat(200)}";\n`;
const html = `<!doctype html><title>Diginoor</title><div id=root></div>${"<!-- pad -->".repeat(100)}`;

/** A build as `npm run build -w apps/web` leaves it: each text file with .br and .gz beside it. */
function writeWithCopies(file: string, body: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
  fs.writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(body)));
  fs.writeFileSync(`${file}.gz`, gzipSync(Buffer.from(body)));
}

let t: TestApp;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-web-delivery-"));
beforeAll(async () => {
  writeWithCopies(path.join(dist, "index.html"), html);
  writeWithCopies(path.join(dist, "assets", "index-Ab12Cd34.js"), script);
  fs.writeFileSync(path.join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: "GET", url, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });

describe("hashed assets", () => {
  it("are cached for a year as immutable, whatever the encoding", async () => {
    for (const enc of [undefined, "gzip", "br"]) {
      const res = await get("/assets/index-Ab12Cd34.js", enc);
      expect(res.statusCode, String(enc)).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["content-type"]).toContain("javascript");
    }
  });

  it("go out as brotli to browsers that accept it, else gzip, else raw", async () => {
    const br = await get("/assets/index-Ab12Cd34.js", "gzip, deflate, br, zstd");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 5);

    const gz = await get("/assets/index-Ab12Cd34.js", "gzip, deflate");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const raw = await get("/assets/index-Ab12Cd34.js");
    expect(raw.headers["content-encoding"]).toBeUndefined();
    expect(raw.body).toBe(script);
  });

  it("an unknown asset is a 404, not the app's page", async () => {
    const res = await get("/assets/index-Zz99.js", "br");
    expect(res.statusCode).toBe(404);
  });
});

describe("index.html", () => {
  it("is revalidated on every visit and negotiated the same way", async () => {
    const br = await get("/marketplace", "br;q=1, gzip;q=0.5");
    expect(br.statusCode).toBe(200);
    // Private: the page is rendered on the server for this visitor (signed-in or not).
    expect(br.headers["cache-control"]).toBe("private, no-cache");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // The server writes the page's own title and tags into index.html (SEO): compare with the
    // uncompressed answer for the same page.
    const plain = await get("/marketplace", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("<title>Marketplace");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const gz = await get("/", "gzip, br;q=0");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe((await get("/", "identity")).body);

    const unknown = await get("/no-such-page");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers["content-encoding"]).toBeUndefined();
    expect(unknown.body).toBe(html);
  });

  it("other top-level files are served by name with a short cache", async () => {
    const res = await get("/favicon.svg");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });
});
