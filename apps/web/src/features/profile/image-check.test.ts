import { describe, expect, it } from "vitest";
import {
  checkImageFile,
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  MAX_IMAGE_BYTES,
  sniffImage,
} from "./image-check.ts";

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0, 0, 16];

describe("image pre-checks", () => {
  it("recognises PNG and JPEG by content", () => {
    expect(sniffImage(new Uint8Array(PNG_HEAD))).toBe("png");
    expect(sniffImage(new Uint8Array(JPEG_HEAD))).toBe("jpeg");
    expect(sniffImage(new TextEncoder().encode("<svg xmlns="))).toBeNull();
    expect(sniffImage(new Uint8Array([0x89, 0x50]))).toBeNull();
  });

  it("refuses a renamed text file, an empty file and anything over 5 MB", async () => {
    expect(await checkImageFile(new Blob(["just text"], { type: "image/png" }))).toBe(IMAGE_TYPE_MESSAGE);
    expect(await checkImageFile(new Blob([]))).toBe(IMAGE_TYPE_MESSAGE);
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG_HEAD);
    expect(await checkImageFile(new Blob([big]))).toBe(IMAGE_SIZE_MESSAGE);
  });

  it("accepts a PNG of exactly 5 MB and a small JPEG", async () => {
    const exact = new Uint8Array(MAX_IMAGE_BYTES);
    exact.set(PNG_HEAD);
    expect(await checkImageFile(new Blob([exact]))).toBeNull();
    expect(await checkImageFile(new Blob([new Uint8Array(JPEG_HEAD)]))).toBeNull();
  });
});
