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

/** The source picture itself, when its rendition was not made within the wait asked for. */
export interface LateRendition {
  late: true;
  contentType: string;
  data: Buffer;
}

export interface Renditions {
  /**
   * The rendition of the media file at `relPath` (as under /media/) `width` pixels wide, made now if
   * missing; null when there is no such source picture (missing, not an image, outside the media
   * directory). Sources narrower than `width` are not enlarged (SVG scales without loss, so it is).
   * With `waitMs`, a rendition still being made after that long gives the source instead (a
   * LateRendition); it is made all the same, for the next request.
   */
  get(
    relPath: string,
    width: RenditionWidth,
    opts?: { waitMs?: number },
  ): Promise<RenditionFile | LateRendition | null>;
  /**
   * Makes every width of these sources ahead of their first request (after a seed), as background
   * work: a request never waits behind it. Resolves with the number of renditions made or found.
   */
  warm(relPaths: readonly string[]): Promise<number>;
  /** A source picture under /media: its content hash, type and bytes (null when there is none). */
  picture(
    relPath: string,
  ): Promise<{ hash: string; isSvg: boolean; contentType: string; data: () => Promise<Buffer> } | null>;
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
 * process; more requests wait their turn, warming waits for them, and the same rendition asked twice
 * is made once.
 */
const renderSlot = createLimiter(2);

export function createRenditions(opts: { storage: Storage; cacheDir: string }): Renditions {
  const { storage } = opts;
  const cacheDir = path.resolve(opts.cacheDir);

  /**
   * The source picture under /media/`relPath`, read through the configured storage (the local disk,
   * PostgreSQL or S3: every server sees the same pictures), or null when there is none.
   */
  async function readSource(
    relPath: string,
  ): Promise<{ data: Buffer; hash: string; isSvg: boolean; contentType: string } | null> {
    if (!SOURCE.test(relPath) || !isSafeKey(relPath)) return null;
    const obj = await storage.get(relPath);
    if (!obj || obj.data.length > MAX_SOURCE_BYTES) return null;
    const isSvg = /\.svg$/i.test(relPath);
    return { data: obj.data, hash: obj.sha256.slice(0, 32), isSvg, contentType: obj.contentType };
  }

  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );

  type Source = NonNullable<Awaited<ReturnType<typeof readSource>>>;

  /** Renders and stores one rendition (a warm-up first looks whether a request made it meanwhile). */
  async function make(
    source: Source,
    width: RenditionWidth,
    out: string,
    background: boolean,
  ): Promise<boolean> {
    let webp: Buffer | null;
    try {
      webp = await renderSlot(
        async () =>
          background && (await exists(out)) ? null : renderRendition(source.data, source.isSvg, width),
        { background },
      );
    } catch {
      return false; // not a picture sharp can read: nothing to offer
    }
    if (webp) {
      await fs.mkdir(cacheDir, { recursive: true });
      const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, webp);
      await fs.rename(tmp, out);
    }
    return true;
  }

  const inFlight = new Map<string, { promise: Promise<boolean>; background: boolean }>();
  /** One make per rendition at a time; a request does not join a warm-up still queued behind requests. */
  function start(source: Source, width: RenditionWidth, out: string, background: boolean): Promise<boolean> {
    const running = inFlight.get(out);
    if (running && (background || !running.background)) return running.promise;
    const entry = { promise: make(source, width, out, background), background };
    entry.promise = entry.promise.finally(() => {
      if (inFlight.get(out) === entry) inFlight.delete(out);
    });
    inFlight.set(out, entry);
    return entry.promise;
  }

  async function rendition(
    relPath: string,
    width: RenditionWidth,
    background: boolean,
    waitMs = 0,
  ): Promise<RenditionFile | LateRendition | null> {
    const source = await readSource(relPath);
    if (!source) return null;
    const out = path.join(cacheDir, `${source.hash}-${width}.webp`);
    const result = { file: out, etag: `"${source.hash}-${width}"` };
    if (await exists(out)) return result;
    const made = start(source, width, out, background);
    const ok = waitMs > 0 ? await within(made, waitMs) : await made;
    if (ok === LATE) return { late: true, contentType: source.contentType, data: source.data };
    return ok ? result : null;
  }

  return {
    get: (relPath, width, opts = {}) => rendition(relPath, width, false, opts.waitMs),
    async warm(relPaths) {
      const made = await Promise.all(
        relPaths.flatMap((p) => RENDITION_WIDTHS.map((w) => rendition(p, w, true).catch(() => null))),
      );
      return made.filter(Boolean).length;
    },
    async picture(relPath) {
      const source = await readSource(relPath);
      if (!source) return null;
      const { data, ...rest } = source;
      return { ...rest, data: async () => data };
    },
  };
}

const LATE = Symbol("late");

/** The promise's value, or LATE when it takes longer than `ms` (it still runs to its end). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
