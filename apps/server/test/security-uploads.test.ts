import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "./harness.ts";
import { createVerifiedUser, me, samplePng, upload } from "./fixtures/accounts.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A valid greyscale PNG of width × height zero pixels: tiny on the wire, huge once decoded. */
function pngBomb(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
  const idat = zlib.deflateSync(Buffer.alloc((width + 1) * height), { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

describe("upload hardening", () => {
  it("refuses a decompression bomb (36 megapixels in ~35 kB) with 415 before decoding it", async () => {
    const { cookie } = await createVerifiedUser(t.app, "bomber@example.com", "bomber-password-1");
    const bomb = pngBomb(6000, 6000);
    expect(bomb.length).toBeLessThan(100_000);
    const res = await upload(t.app, "avatar", cookie, bomb);
    expect(res.statusCode).toBe(415);
    expect((await me(t.app, cookie)).json().user.avatarUrl).toBeNull();
  });

  it("serves stored media as WebP with nosniff", async () => {
    const { cookie } = await createVerifiedUser(t.app, "served@example.com", "served-password-1");
    const res = await upload(t.app, "avatar", cookie, await samplePng());
    expect(res.statusCode).toBe(200);
    const file = await t.app.inject({ method: "GET", url: res.json().user.avatarUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/webp");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
  });
});
