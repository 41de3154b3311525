/**
 * Raster renditions of the pictures under /media (GET /media/_r/:width/<path>, WebP): the widths the
 * server makes, and the srcset the web app writes for a picture. A picture that is not ours (another
 * host, a data URL) has no renditions.
 */
export const RENDITION_WIDTHS = [240, 360, 480, 720, 960] as const;
export type RenditionWidth = (typeof RENDITION_WIDTHS)[number];

const OURS = /^\/media\/([a-z0-9][a-z0-9/_.-]*\.(?:svg|webp|png|jpe?g))$/i;

/** The URL of a picture's rendition `width` pixels wide, or undefined when it has none. */
export function renditionUrl(url: string, width: RenditionWidth): string | undefined {
  const m = OURS.exec(url);
  if (!m || url.includes("..") || url.includes("//")) return undefined;
  return `/media/_r/${width}/${m[1]}`;
}

/**
 * `srcset` of a picture from its renditions up to `maxWidth` (the largest it is ever drawn, in device
 * pixels), and the `src` for browsers without srcset; undefined when the picture has no renditions.
 */
export function renditionSrcSet(url: string, maxWidth = 960): { src: string; srcSet: string } | undefined {
  const widths = RENDITION_WIDTHS.filter((w) => w <= maxWidth);
  const entries = widths.map((w) => [w, renditionUrl(url, w)] as const);
  if (!entries.length || entries.some(([, u]) => !u)) return undefined;
  const middle = entries[Math.min(2, entries.length - 1)] as readonly [number, string];
  return { src: middle[1], srcSet: entries.map(([w, u]) => `${u} ${w}w`).join(", ") };
}
