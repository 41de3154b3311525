// The media module's public surface (other modules import only this file): image checks and renditions.
import sharp from "sharp";
import { createLimiter } from "../../lib/limiter.ts";
import { AppError } from "../../http/errors.ts";

export type ImageKind = "jpeg" | "png";

/** Decompression-bomb guard: larger images are refused. */
const MAX_PIXELS = 30_000_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function unsupported(): AppError {
  return new AppError("unsupported_media_type", "Only JPEG or PNG images are allowed");
}

/** JPEG or PNG by magic bytes; anything else (SVG, GIF, text renamed .png, …) is null. */
export function sniffImage(buf: Buffer): ImageKind | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return "jpeg";
  if (buf.length >= 8 && buf.subarray(0, 8).equals(PNG_SIGNATURE)) return "png";
  return null;
}

/** Byte offset just past the PNG IEND chunk, or -1 when the chunk structure is broken. */
export function pngEnd(buf: Buffer): number {
  let pos = 8;
  while (pos + 12 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const next = pos + 12 + len;
    if (len > 0x7fffffff || next > buf.length) return -1;
    if (type === "IEND") return next;
    pos = next;
  }
  return -1;
}

/**
 * Byte offset just past the JPEG EOI marker, or -1 when the marker structure is broken. Walks the
 * segments; inside entropy-coded data, FF 00 (stuffing) and FF D0–D7 (restart) are not markers.
 */
export function jpegEnd(buf: Buffer): number {
  let pos = 2;
  while (pos + 1 < buf.length) {
    if (buf[pos] !== 0xff) return -1;
    let marker = buf[pos + 1] as number;
    while (marker === 0xff && pos + 2 < buf.length) {
      pos++;
      marker = buf[pos + 1] as number;
    }
    pos += 2;
    if (marker === 0xd9) return pos;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (pos + 2 > buf.length) return -1;
    const len = buf.readUInt16BE(pos);
    if (len < 2) return -1;
    pos += len;
    if (pos > buf.length) return -1;
    if (marker === 0xda) {
      // Entropy-coded data runs to the next real marker.
      while (pos + 1 < buf.length) {
        if (buf[pos] === 0xff) {
          const b = buf[pos + 1] as number;
          if (b !== 0x00 && !(b >= 0xd0 && b <= 0xd7) && b !== 0xff) break;
        }
        pos++;
      }
    }
  }
  return -1;
}

/** Bytes after the end of the image that are only padding (zeros or 0xFF fill) are tolerated. */
function onlyPadding(rest: Buffer): boolean {
  return rest.every((b) => b === 0x00 || b === 0xff || b === 0x0a || b === 0x0d);
}

/**
 * Accepts a JPEG or PNG checked by content: magic bytes, a well-formed container with nothing but
 * padding after its end (so a PNG with a script appended is refused), and a full decode by sharp.
 */
export async function checkImage(buf: Buffer): Promise<ImageKind> {
  const kind = sniffImage(buf);
  if (!kind) throw unsupported();
  const end = kind === "png" ? pngEnd(buf) : jpegEnd(buf);
  if (end < 0) throw unsupported();
  if (end < buf.length && !onlyPadding(buf.subarray(end))) throw unsupported();
  try {
    const meta = await sharp(buf, { failOn: "error", limitInputPixels: MAX_PIXELS }).metadata();
    if (meta.format !== kind || !meta.width || !meta.height) throw unsupported();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unsupported();
  }
  return kind;
}

export interface Rendition {
  suffix: string;
  width: number;
  height: number;
}

export const AVATAR_RENDITIONS: Rendition[] = [
  { suffix: "", width: 256, height: 256 },
  { suffix: "-64", width: 64, height: 64 },
];
export const COVER_RENDITIONS: Rendition[] = [
  { suffix: "", width: 1600, height: 400 },
  { suffix: "-800", width: 800, height: 200 },
];

/**
 * Re-encodes to WebP at each size (cropped to fill, EXIF orientation applied, all metadata dropped).
 * This decodes every pixel with failOn "error", so truncated or corrupt data is refused (415).
 */
export async function renderImage(
  buf: Buffer,
  renditions: Rendition[],
): Promise<{ suffix: string; data: Buffer }[]> {
  try {
    return await renderAll(buf, renditions);
  } catch {
    throw unsupported();
  }
}

/**
 * A decode of the largest accepted image holds about 120 MB, so renders run one size at a time and
 * at most two at once in this process (one per core); further uploads wait their turn.
 */
const renderSlot = createLimiter(2);

function renderAll(buf: Buffer, renditions: Rendition[]) {
  return renderSlot(async () => {
    const out: { suffix: string; data: Buffer }[] = [];
    for (const r of renditions) {
      out.push({
        suffix: r.suffix,
        data: await sharp(buf, { failOn: "error", limitInputPixels: MAX_PIXELS })
          .rotate()
          .resize(r.width, r.height, { fit: "cover", position: "attention" })
          .webp({ quality: 82 })
          .toBuffer(),
      });
    }
    return out;
  });
}

export {
  CARD_HEIGHT,
  CARD_TYPE,
  CARD_WIDTH,
  type CardFile,
  type CardSpec,
  type Cards,
  createCards,
} from "./cards.ts";
export {
  createRenditions,
  isRenditionWidth,
  RENDITION_WIDTHS,
  type RenditionWidth,
  type Renditions,
} from "./renditions.ts";
