// Raster renditions of the pictures under /media (the catalogue's SVG art, console uploads): WebP at a
// few fixed widths, made once with sharp and kept under DATA_DIR/cache/renditions, named by the
// source's content hash and the width. Sources are read through the media storage (STORAGE), so a
// server renders the pictures any server stored. The web app asks for them in srcset (GET /media/_r/:width/…),
// so a phone downloads a small raster instead of rasterising a large SVG itself (issue 23).
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { RENDITION_WIDTHS, type RenditionWidth } from "@diginoor/api/media";
import { createLimiter } from "../../lib/limiter.ts";
import { isSafeKey, type Storage } from "../../lib/storage/storage.ts";

// The widths offered (CSS pixels × density) are packages/api's, which the web app's srcset uses;
// anything else is refused, so the cache stays bounded.
export { RENDITION_WIDTHS, type RenditionWidth };

export function isRenditionWidth(n: number): n is RenditionWidth {
  return (RENDITION_WIDTHS as readonly number[]).includes(n);
}

/** Source files this makes renditions of, by extension. */
const SOURCE = /^[a-z0-9][a-z0-9/_-]*(\.[a-z0-9_-]+)*\.(svg|webp|png|jpe?g)$/i;
/** Larger sources are not rendered (the art is a few hundred kilobytes at most). */
const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
const MAX_PIXELS = 30_000_000;

export interface RenditionFile {
  /** Absolute path of the WebP file. */
  file: string;
  /** Strong validator: the source's content hash and the width. */
  etag: string;
}

export interface Renditions {
  /**
   * The rendition of the media file at `relPath` (as under /media/) `width` pixels wide, made now if
   * missing; null when there is no such source picture (missing, not an image, outside the media
   * directory). Sources narrower than `width` are not enlarged (SVG scales without loss, so it is).
   */
  get(relPath: string, width: RenditionWidth): Promise<RenditionFile | null>;
  /** Makes every width of a source ahead of its first request (after a seed or an upload). */
  warm(relPath: string): Promise<void>;
  /** A source picture under /media: its content hash, whether it is SVG, and its bytes on demand. */
  picture(relPath: string): Promise<{ hash: string; isSvg: boolean; data: () => Promise<Buffer> } | null>;
}

/** Renders one source at one width, WebP. SVG is drawn at the density that gives `width` pixels. */
export async function renderRendition(source: Buffer, isSvg: boolean, width: number): Promise<Buffer> {
  let input = sharp(source, { failOn: "error", limitInputPixels: MAX_PIXELS });
  if (isSvg) {
    const meta = await input.metadata();
    const density = Math.min(72 * 8, Math.max(1, (72 * width) / (meta.width || width)));
    input = sharp(source, { failOn: "error", limitInputPixels: MAX_PIXELS, density });
  }
  return input
    .rotate()
    .resize({ width, withoutEnlargement: !isSvg })
    .webp({ quality: 78, effort: 4 })
    .toBuffer();
}

/**
 * A decode holds the whole source in memory and takes a core: at most two renders at once in this
 * process; more requests wait their turn, and the same rendition asked twice is made once.
 */
const renderSlot = createLimiter(2);

export function createRenditions(opts: { storage: Storage; cacheDir: string }): Renditions {
  const { storage } = opts;
  const cacheDir = path.resolve(opts.cacheDir);
  const inFlight = new Map<string, Promise<RenditionFile | null>>();

  /**
   * The source picture under /media/`relPath`, read through the configured storage (the local disk,
   * PostgreSQL or S3: every server sees the same pictures), or null when there is none.
   */
  async function readSource(relPath: string): Promise<{ data: Buffer; hash: string; isSvg: boolean } | null> {
    if (!SOURCE.test(relPath) || !isSafeKey(relPath)) return null;
    const obj = await storage.get(relPath);
    if (!obj || obj.data.length > MAX_SOURCE_BYTES) return null;
    return { data: obj.data, hash: obj.sha256.slice(0, 32), isSvg: /\.svg$/i.test(relPath) };
  }

  async function make(relPath: string, width: RenditionWidth): Promise<RenditionFile | null> {
    const source = await readSource(relPath);
    if (!source) return null;
    const out = path.join(cacheDir, `${source.hash}-${width}.webp`);
    const result = { file: out, etag: `"${source.hash}-${width}"` };
    try {
      await fs.access(out);
      return result;
    } catch {
      // not made yet
    }
    let webp: Buffer;
    try {
      webp = await renderSlot(() => renderRendition(source.data, source.isSvg, width));
    } catch {
      return null; // not a picture sharp can read: nothing to offer
    }
    await fs.mkdir(cacheDir, { recursive: true });
    const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, webp);
    await fs.rename(tmp, out);
    return result;
  }

  const get = (relPath: string, width: RenditionWidth) => {
    const key = `${width}:${relPath}`;
    let p = inFlight.get(key);
    if (!p) {
      p = make(relPath, width).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    return p;
  };

  return {
    get,
    async warm(relPath) {
      for (const w of RENDITION_WIDTHS) await get(relPath, w);
    },
    async picture(relPath) {
      const source = await readSource(relPath);
      if (!source) return null;
      return { hash: source.hash, isSvg: source.isSvg, data: async () => source.data };
    },
  };
}
