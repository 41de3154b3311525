import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

/** One picture to write under the media directory: the SVG, and optionally a WebP rendering of it. */
export interface ArtworkFile {
  /** Path of the SVG relative to the media directory, e.g. "catalogue/nfts/x.svg". */
  svgPath: string;
  /** Builds the SVG text (only called when a file is missing). */
  render: () => string;
  /** Also rasterise to WebP (or JPEG: link previews) at this path and width (for thumbnails in grids). */
  webp?: { path: string; width: number; format?: "webp" | "jpeg" };
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file atomically (temp file + rename) so a crash never leaves half a picture behind. */
async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

/**
 * Writes every missing artwork file under `mediaDir`; existing files are kept, so a second start
 * reuses what the first one made. Returns how many files were written.
 */
export async function writeArtwork(mediaDir: string, files: ArtworkFile[], concurrency = 4): Promise<number> {
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const item = files[next++] as ArtworkFile;
      const svgFile = path.join(mediaDir, item.svgPath);
      const webpFile = item.webp ? path.join(mediaDir, item.webp.path) : undefined;
      const needSvg = !(await exists(svgFile));
      const needWebp = webpFile !== undefined && !(await exists(webpFile));
      if (!needSvg && !needWebp) continue;
      const svg = item.render();
      if (needSvg) {
        await writeAtomic(svgFile, svg);
        written++;
      }
      if (needWebp && item.webp && webpFile) {
        const resized = sharp(Buffer.from(svg), { density: 72 }).resize({ width: item.webp.width });
        const buf = await (item.webp.format === "jpeg"
          ? resized.jpeg({ quality: 84, mozjpeg: true })
          : resized.webp({ quality: 82 })
        ).toBuffer();
        await writeAtomic(webpFile, buf);
        written++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return written;
}
