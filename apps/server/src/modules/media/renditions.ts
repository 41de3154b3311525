// Raster renditions of the pictures under /media (the catalogue's SVG art, console uploads): WebP at a
// few fixed widths, made once with sharp and kept under DATA_DIR/cache/renditions, named by the
// source's content hash and the width. The web app asks for them in srcset (GET /media/_r/:width/…),
// so a phone downloads a small raster instead of rasterising a large SVG itself (issue 23).
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { RENDITION_WIDTHS, type RenditionWidth } from "@diginoor/api/media";
import { createLimiter } from "../../lib/limiter.ts";

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

export function createRenditions(opts: { mediaDir: string; cacheDir: string }): Renditions {
  const mediaRoot = path.resolve(opts.mediaDir);
  const cacheDir = path.resolve(opts.cacheDir);
  const inFlight = new Map<string, Promise<RenditionFile | null>>();
  /** Content hash by path, size and modification time (re-read only when the file changes). */
  const hashes = new Map<string, { size: number; mtimeMs: number; hash: string }>();

  function sourcePath(relPath: string): string | null {
    if (!SOURCE.test(relPath) || relPath.includes("..") || relPath.includes("//")) return null;
    const file = path.resolve(mediaRoot, relPath);
    return file.startsWith(`${mediaRoot}${path.sep}`) ? file : null;
  }

  async function readSource(file: string): Promise<{ data: Buffer | null; hash: string } | null> {
    let stat: import("node:fs").Stats;
    try {
      stat = await fs.stat(file);
    } catch {
      return null;
    }
    if (!stat.isFile() || stat.size > MAX_SOURCE_BYTES) return null;
    const known = hashes.get(file);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) {
      return { data: null, hash: known.hash };
    }
    const data = await fs.readFile(file);
    const hash = createHash("sha256").update(data).digest("hex").slice(0, 32);
    if (hashes.size >= 10_000) hashes.clear();
    hashes.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, hash });
    return { data, hash };
  }

  async function make(relPath: string, width: RenditionWidth): Promise<RenditionFile | null> {
    const file = sourcePath(relPath);
    if (!file) return null;
    const source = await readSource(file);
    if (!source) return null;
    const out = path.join(cacheDir, `${source.hash}-${width}.webp`);
    const result = { file: out, etag: `"${source.hash}-${width}"` };
    try {
      await fs.access(out);
      return result;
    } catch {
      // not made yet
    }
    const data = source.data ?? (await fs.readFile(file));
    let webp: Buffer;
    try {
      webp = await renderSlot(() => renderRendition(data, /\.svg$/i.test(file), width));
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
      const file = sourcePath(relPath);
      const source = file ? await readSource(file) : null;
      if (!file || !source) return null;
      const data = source.data;
      return {
        hash: source.hash,
        isSvg: /\.svg$/i.test(file),
        data: async () => data ?? (await fs.readFile(file)),
      };
    },
  };
}
