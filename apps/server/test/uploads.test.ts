import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jpegEnd, pngEnd, sniffImage } from "../src/modules/media/service.ts";
import { type TestApp, createTestApp } from "./harness.ts";
import { ORIGIN, createVerifiedUser, me, sampleJpeg, samplePng, upload } from "./fixtures/accounts.ts";

let t: TestApp;
let cookie: string;
let userId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ cookie, id: userId } = await createVerifiedUser(t.app, "uploader@example.com", "upload-password-1"));
});
afterAll(async () => {
  await t.close();
});

function mediaFiles(): string[] {
  const dir = path.join(t.config.DATA_DIR, "media");
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(dir, f)).isFile(),
  );
}

describe("avatar and cover uploads refuse anything but real JPEG or PNG", () => {
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
  );
  const bad: [string, () => Promise<Buffer>, string, string][] = [
    ["an SVG", async () => svg, "avatar.svg", "image/svg+xml"],
    ["an SVG named .png", async () => svg, "avatar.png", "image/png"],
    [
      "a renamed text file",
      async () => Buffer.from("just some text pretending to be an image\n"),
      "photo.jpg",
      "image/jpeg",
    ],
    [
      "a PNG with a script appended",
      async () => Buffer.concat([await samplePng(), Buffer.from("<script>alert(1)</script>")]),
      "a.png",
      "image/png",
    ],
    [
      "a JPEG with a zip appended",
      async () => Buffer.concat([await sampleJpeg(), Buffer.from("PK\u0003\u0004 hidden archive")]),
      "a.jpg",
      "image/jpeg",
    ],
    ["a truncated PNG", async () => (await samplePng()).subarray(0, 200), "a.png", "image/png"],
    [
      "a GIF",
      async () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: "red" } })
          .gif()
          .toBuffer(),
      "a.gif",
      "image/gif",
    ],
    [
      "a WebP",
      async () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: "red" } })
          .webp()
          .toBuffer(),
      "a.png",
      "image/png",
    ],
    [
      "PNG magic bytes then garbage",
      async () =>
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(500)]),
      "a.png",
      "image/png",
    ],
    ["an empty file", async () => Buffer.alloc(0), "a.png", "image/png"],
  ];
  for (const [what, make, filename, type] of bad) {
    it(`refuses ${what} with 415 and stores nothing`, async () => {
      const before = mediaFiles();
      const res = await upload(t.app, "avatar", cookie, await make(), filename, type);
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toEqual({
        code: "unsupported_media_type",
        message: "Only JPEG or PNG images are allowed",
      });
      expect((await me(t.app, cookie)).json().user.avatarUrl).toBeNull();
      expect(mediaFiles()).toEqual(before);
    });
  }

  it("refuses a 6 MB image with 413", async () => {
    // Random pixels do not compress: a real PNG over 5 MiB.
    const big = await sharp(randomBytes(1500 * 1400 * 3), { raw: { width: 1500, height: 1400, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(6_000_000);
    const res = await upload(t.app, "cover", cookie, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe("payload_too_large");
    expect((await me(t.app, cookie)).json().user.coverUrl).toBeNull();
  });

  it("refuses requests that are not one multipart file field, and signed-out visitors", async () => {
    const json = await t.app.inject({
      method: "POST",
      url: "/api/v1/me/avatar",
      payload: { file: "data:image/png;base64,AAAA" },
      headers: { origin: ORIGIN, cookie: `diginoor_session=${cookie}` },
    });
    expect(json.statusCode).toBe(415);
    const png = await samplePng();
    const anonymous = await upload(t.app, "avatar", undefined, png);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.message).toBe("Please Login to Continue");
    const crossSite = await t.app.inject({
      method: "POST",
      url: "/api/v1/me/avatar",
      payload: png,
      headers: {
        origin: "https://evil.example",
        cookie: `diginoor_session=${cookie}`,
        "content-type": "multipart/form-data; boundary=x",
      },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('exactly one file in the field "file"', () => {
  function body(parts: { name: string; filename: string; data: Buffer }[]) {
    const b = "----diginoor-multi";
    const chunks = parts.map((p) =>
      Buffer.concat([
        Buffer.from(
          `--${b}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        p.data,
        Buffer.from("\r\n"),
      ]),
    );
    return {
      payload: Buffer.concat([...chunks, Buffer.from(`--${b}--\r\n`)]),
      headers: {
        "content-type": `multipart/form-data; boundary=${b}`,
        origin: ORIGIN,
        cookie: `diginoor_session=${cookie}`,
      },
    };
  }

  it("refuses two files, a file in another field, and no file, storing nothing", async () => {
    const png = await samplePng();
    const before = (await me(t.app, cookie)).json().user.avatarUrl;
    const files = mediaFiles();
    for (const parts of [
      [
        { name: "file", filename: "a.png", data: png },
        { name: "file", filename: "b.png", data: png },
      ],
      [{ name: "avatar", filename: "a.png", data: png }],
      [],
    ]) {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/me/avatar", ...body(parts) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].field).toBe("file");
    }
    expect((await me(t.app, cookie)).json().user.avatarUrl).toBe(before);
    expect(mediaFiles()).toEqual(files);
  });
});

describe("accepted uploads", () => {
  it("re-encodes a cover to 1600×400 WebP and replaces the old files", async () => {
    const first = await upload(t.app, "cover", cookie, await samplePng(2000, 900));
    expect(first.statusCode).toBe(200);
    const firstUrl = first.json().user.coverUrl as string;
    expect(firstUrl).toMatch(new RegExp(`^/media/covers/${userId}/[0-9a-f]{32}\\.webp$`));
    const served = await t.app.inject({ method: "GET", url: firstUrl });
    expect(served.headers["content-type"]).toMatch(/image\/webp/);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 1600,
      height: 400,
    });

    const second = await upload(t.app, "cover", cookie, await sampleJpeg(1200, 800), "c.jpg", "image/jpeg");
    const secondUrl = second.json().user.coverUrl as string;
    expect(secondUrl).not.toBe(firstUrl);
    expect((await t.app.inject({ method: "GET", url: firstUrl })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: secondUrl })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: secondUrl.replace(".webp", "-800.webp") })).statusCode,
    ).toBe(200);
  });

  it("accepts a JPEG named .png (content decides, not the name) and strips metadata", async () => {
    const res = await upload(t.app, "avatar", cookie, await sampleJpeg(), "looks-like.png", "image/png");
    expect(res.statusCode).toBe(200);
    const file = await t.app.inject({ method: "GET", url: res.json().user.avatarUrl });
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });
});

describe("container parsers", () => {
  it("find the real end of PNG and JPEG files", async () => {
    const png = await samplePng();
    const jpg = await sampleJpeg();
    expect(sniffImage(png)).toBe("png");
    expect(sniffImage(jpg)).toBe("jpeg");
    expect(pngEnd(png)).toBe(png.length);
    expect(jpegEnd(jpg)).toBe(jpg.length);
    const progressive = await sharp(jpg).jpeg({ progressive: true }).toBuffer();
    expect(jpegEnd(progressive)).toBe(progressive.length);
    expect(pngEnd(Buffer.concat([png, Buffer.from("tail")]))).toBe(png.length);
    expect(pngEnd(png.subarray(0, 50))).toBe(-1);
  });
});
