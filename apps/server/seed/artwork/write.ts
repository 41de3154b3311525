import sharp from "sharp";
import type { Storage } from "../../src/lib/storage/storage.ts";

/** One picture to write into the media storage: the SVG, and optionally a WebP rendering of it. */
export interface ArtworkFile {
  /** Storage key of the SVG (its path under /media/), e.g. "catalogue/nfts/x.svg". */
  svgPath: string;
  /** Builds the SVG text (only called when a file is missing). */
  render: () => string;
  /** Also rasterise to WebP (or JPEG: link previews) at this path and width (for thumbnails in grids). */
  webp?: { path: string; width: number; format?: "webp" | "jpeg" };
}

/**
 * Writes every missing artwork file into `storage` (the same storage uploads go to, so every
 * server sees the seed's pictures); existing objects are kept, so a second start reuses what the
 * first one made. Returns how many objects were written.
 */
export async function writeArtwork(storage: Storage, files: ArtworkFile[], concurrency = 4): Promise<number> {
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const item = files[next++] as ArtworkFile;
      const needSvg = !(await storage.has(item.svgPath));
      const needWebp = item.webp !== undefined && !(await storage.has(item.webp.path));
      if (!needSvg && !needWebp) continue;
      const svg = item.render();
      if (needSvg) {
        await storage.put(item.svgPath, Buffer.from(svg), "image/svg+xml");
        written++;
      }
      if (needWebp && item.webp) {
        const jpeg = item.webp.format === "jpeg";
        const resized = sharp(Buffer.from(svg), { density: 72 }).resize({ width: item.webp.width });
        const buf = await (jpeg
          ? resized.jpeg({ quality: 84, mozjpeg: true })
          : resized.webp({ quality: 82 })
        ).toBuffer();
        await storage.put(item.webp.path, buf, jpeg ? "image/jpeg" : "image/webp");
        written++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return written;
}
