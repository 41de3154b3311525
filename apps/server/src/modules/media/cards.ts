// Link-preview cards (Open Graph images): 1200 × 630 JPEG, drawn with sharp from an SVG layout (text
// set by librsvg in the system's DejaVu fonts, Debian's fonts-dejavu-core) and a picture from the
// media directory. Each card is made once and kept under DATA_DIR/cache/cards, named by the hash of
// everything drawn on it (its words, the picture's content hash and the layout's version), so a card
// whose content changes gets a new name and an unchanged one is never drawn twice.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type OverlayOptions, type Sharp } from "sharp";
import { createLimiter } from "../../lib/limiter.ts";
import { renderRendition } from "./renditions.ts";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
export const CARD_TYPE = "image/jpeg";
/** Bump when the layout changes: every card gets a new name. */
const LAYOUT_VERSION = 1;

export interface CardSpec {
  /** Small capitals above the title ("Legendary NFT · Kabali"). */
  eyebrow: string;
  title: string;
  /** A line or two under the title. */
  subtitle?: string;
  /** Colour of the eyebrow and the glow (#rrggbb). */
  accent?: string;
  /**
   * Pictures under /media (paths relative to it): portrait art on the right (up to three, fanned
   * out), a round avatar, or a wide cover behind the text. Missing pictures are left out.
   */
  art?: { kind: "portrait" | "avatar" | "cover"; paths: string[] };
  /** Initials shown in the avatar circle when there is no picture. */
  initials?: string;
}

export interface CardFile {
  file: string;
  etag: string;
  /** The content hash (first 16 hex digits): put in the card's URL so previewers see a new one. */
  version: string;
}

export interface Cards {
  /** The card's name (content hash), without drawing it. */
  version(spec: CardSpec): Promise<string>;
  /** The card's file, drawn now if missing. */
  get(spec: CardSpec): Promise<CardFile>;
}

const GOLD = "#e9b949";
const SANS = "DejaVu Sans, sans-serif";
const SERIF = "DejaVu Serif, serif";

export function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string,
  );
}

/** Rough advance width of a string in DejaVu at 1 px (em fractions by character class). */
function textWidth(s: string, bold: boolean): number {
  let w = 0;
  for (const ch of s) {
    if (ch === " ") w += 0.32;
    else if (/[iljtf.,:;'!|]/.test(ch)) w += 0.34;
    else if (/[mwMW]/.test(ch)) w += 0.95;
    else if (/[A-Z0-9]/.test(ch)) w += 0.72;
    else w += 0.6;
  }
  return w * (bold ? 1.08 : 1);
}

/** Splits text into at most `maxLines` lines of at most `width` px at `size`; the last ends in "…" if cut. */
export function wrapLines(
  text: string,
  size: number,
  width: number,
  maxLines: number,
  bold = false,
): string[] {
  const words = text.replace(/\s+/g, " ").trim().split(" ").filter(Boolean);
  const lines: string[] = [];
  let line = "";
  const fits = (s: string) => textWidth(s, bold) * size <= width;
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    // A single word wider than the line is cut.
    while (!fits(line) && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && !fits(`${line.slice(0, cut)}-`)) cut--;
      lines.push(`${line.slice(0, cut)}-`);
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1] as string;
  while (last.length > 1 && !fits(`${last}…`)) last = last.slice(0, -1).trimEnd();
  kept[maxLines - 1] = `${last.replace(/[\s,.;:-]+$/, "")}…`;
  return kept;
}

/** Keeps the control characters and lone surrogates out of the SVG (librsvg refuses them). */
function clean(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u001f\u007f]/g, " ")
      .replace(/[\uD800-\uDFFF]/g, (c, i, all: string) => {
        const code = c.charCodeAt(0);
        const pair =
          code < 0xdc00
            ? (all.charCodeAt(i + 1) & 0xfc00) === 0xdc00
            : (all.charCodeAt(i - 1) & 0xfc00) === 0xd800;
        return pair ? c : "";
      })
  );
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const PORTRAIT: Box = { x: 760, y: 70, w: 368, h: 490 };
const AVATAR: Box = { x: 800, y: 155, w: 320, h: 320 };

/** The layout: background, glow, text; the pictures are composited on top of (or under) it. */
function layoutSvg(spec: CardSpec, textRight: number, cover: boolean): string {
  const accent = /^#[0-9a-f]{6}$/i.test(spec.accent ?? "") ? (spec.accent as string) : GOLD;
  const left = 72;
  const width = textRight - left;
  const title = clean(spec.title);
  let size = 68;
  let lines = wrapLines(title, size, width, 3, true);
  while (size > 44 && (lines.length > 2 || lines.some((l) => l.endsWith("…")))) {
    size -= 6;
    lines = wrapLines(title, size, width, 3, true);
  }
  const eyebrow = wrapLines(clean(spec.eyebrow).toUpperCase(), 22, width, 1, true)[0] ?? "";
  const subtitle = spec.subtitle ? wrapLines(clean(spec.subtitle), 28, width, 2) : [];
  const block = 40 + lines.length * size * 1.15 + (subtitle.length ? 24 + subtitle.length * 38 : 0);
  let y = Math.max(110, (CARD_HEIGHT - 90 - block) / 2 + 10);
  const parts: string[] = [];
  parts.push(
    `<text x="${left}" y="${y}" font-family="${SANS}" font-weight="700" font-size="22" letter-spacing="3" fill="${accent}">${escapeXml(eyebrow)}</text>`,
  );
  y += 28;
  for (const l of lines) {
    y += size * 1.1;
    parts.push(
      `<text x="${left}" y="${y.toFixed(0)}" font-family="${SERIF}" font-weight="700" font-size="${size}" fill="#f3f0f7">${escapeXml(l)}</text>`,
    );
  }
  if (subtitle.length) y += 20;
  for (const l of subtitle) {
    y += 38;
    parts.push(
      `<text x="${left}" y="${y.toFixed(0)}" font-family="${SANS}" font-size="28" fill="#cfc8dc">${escapeXml(l)}</text>`,
    );
  }
  const shade = cover
    ? `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#shade)"/>`
    : `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/><circle cx="940" cy="315" r="420" fill="url(#glow)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b0a10"/><stop offset="1" stop-color="#201d2a"/></linearGradient>
<radialGradient id="glow"><stop offset="0" stop-color="${accent}" stop-opacity="0.28"/><stop offset="1" stop-color="${accent}" stop-opacity="0"/></radialGradient>
<linearGradient id="shade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#0b0a10" stop-opacity="0.94"/><stop offset="0.62" stop-color="#0b0a10" stop-opacity="0.78"/><stop offset="1" stop-color="#0b0a10" stop-opacity="0.25"/></linearGradient>
</defs>
${shade}
<rect x="0" y="0" width="${CARD_WIDTH}" height="8" fill="${accent}"/>
${parts.join("\n")}
<text x="${left}" y="${CARD_HEIGHT - 56}" font-family="${SERIF}" font-weight="700" font-size="34" fill="${GOLD}">Diginoor</text>
<text x="${left + 176}" y="${CARD_HEIGHT - 58}" font-family="${SANS}" font-size="20" fill="#b4adc2">Licensed collectibles of Indian cinema</text>
</svg>`;
}

function roundedMask(w: number, h: number, r: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" rx="${r}" ry="${r}"/></svg>`,
  );
}

/** A picture cut to `box` (cover), with rounded corners (or round), as PNG to composite. */
async function fitted(source: Buffer, isSvg: boolean, box: Box, radius: number): Promise<Buffer> {
  // Wide enough that the crop to the box's shape still fills it (portrait art is 3:4 or 2:3).
  const raster = await renderRendition(source, isSvg, Math.ceil(box.w * 1.15));
  return sharp(raster)
    .resize(box.w, box.h, { fit: "cover", position: "attention" })
    .composite([{ input: roundedMask(box.w, box.h, radius), blend: "dest-in" }])
    .png()
    .toBuffer();
}

async function initialsAvatar(initials: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR.w}" height="${AVATAR.h}"><circle cx="${AVATAR.w / 2}" cy="${AVATAR.h / 2}" r="${AVATAR.w / 2}" fill="#2d2939"/><text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="128" fill="${GOLD}">${escapeXml(clean(initials).slice(0, 2).toUpperCase())}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Draws a card. `pictures` are the sources of spec.art.paths that exist (content, and whether SVG). */
export async function drawCard(spec: CardSpec, sources: { data: Buffer; isSvg: boolean }[]): Promise<Buffer> {
  const kind = spec.art?.kind;
  // A picture sharp cannot read is left out rather than failing the card.
  const pictures: { data: Buffer; isSvg: boolean }[] = [];
  for (const p of sources) {
    try {
      await sharp(p.data, { failOn: "error", limitInputPixels: 30_000_000 }).metadata();
      pictures.push(p);
    } catch {
      // not a picture
    }
  }
  const layers: OverlayOptions[] = [];
  let base: Sharp;
  let textRight = CARD_WIDTH - 72;
  const first = pictures[0];
  if (kind === "cover" && first) {
    const cover = await renderRendition(first.data, first.isSvg, CARD_WIDTH);
    base = sharp(cover).resize(CARD_WIDTH, CARD_HEIGHT, { fit: "cover", position: "attention" });
    layers.push({ input: Buffer.from(layoutSvg(spec, 860, true)), top: 0, left: 0 });
  } else {
    if (kind === "portrait" && pictures.length) {
      textRight = PORTRAIT.x - 48 - (pictures.length > 1 ? 70 : 0);
      // Fanned out: the first picture in front, the others behind it to the left and smaller.
      const shown = pictures.slice(0, 3);
      for (let i = shown.length - 1; i >= 0; i--) {
        const p = shown[i] as { data: Buffer; isSvg: boolean };
        const scale = 1 - i * 0.1;
        const box = {
          x: Math.round(PORTRAIT.x - i * 70),
          y: Math.round(PORTRAIT.y + (PORTRAIT.h * (1 - scale)) / 2),
          w: Math.round(PORTRAIT.w * scale),
          h: Math.round(PORTRAIT.h * scale),
        };
        layers.push({ input: await fitted(p.data, p.isSvg, box, 20), top: box.y, left: box.x });
      }
    } else if (kind === "avatar") {
      textRight = AVATAR.x - 56;
      const input = first
        ? await fitted(first.data, first.isSvg, AVATAR, AVATAR.w / 2)
        : await initialsAvatar(spec.initials ?? "?");
      layers.push({ input, top: AVATAR.y, left: AVATAR.x });
    }
    base = sharp(Buffer.from(layoutSvg(spec, textRight, false)));
  }
  return base
    .composite(layers)
    .flatten({ background: "#0b0a10" })
    .jpeg({ quality: 84, mozjpeg: true })
    .toBuffer();
}

const drawSlot = createLimiter(2);

export function createCards(opts: {
  cacheDir: string;
  /** Reads a picture under /media: its content and content hash, or null when there is none. */
  readPicture(relPath: string): Promise<{ data: () => Promise<Buffer>; hash: string; isSvg: boolean } | null>;
}): Cards {
  const cacheDir = path.resolve(opts.cacheDir);
  const inFlight = new Map<string, Promise<CardFile>>();

  async function resolve(spec: CardSpec) {
    const pictures = [];
    for (const p of spec.art?.paths ?? []) {
      const found = await opts.readPicture(p);
      if (found) pictures.push(found);
    }
    const hash = createHash("sha256")
      .update(JSON.stringify({ v: LAYOUT_VERSION, spec, pictures: pictures.map((p) => p.hash) }))
      .digest("hex")
      .slice(0, 32);
    return { hash, pictures };
  }

  async function make(spec: CardSpec): Promise<CardFile> {
    const { hash, pictures } = await resolve(spec);
    const file = path.join(cacheDir, `${hash}.jpg`);
    const result = { file, etag: `"${hash}"`, version: hash.slice(0, 16) };
    try {
      await fs.access(file);
      return result;
    } catch {
      // not drawn yet
    }
    const sources = await Promise.all(pictures.map(async (p) => ({ data: await p.data(), isSvg: p.isSvg })));
    const jpeg = await drawSlot(() => drawCard(spec, sources));
    await fs.mkdir(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, jpeg);
    await fs.rename(tmp, file);
    return result;
  }

  return {
    async version(spec) {
      return (await resolve(spec)).hash.slice(0, 16);
    },
    get(spec) {
      const key = JSON.stringify(spec);
      let p = inFlight.get(key);
      if (!p) {
        p = make(spec).finally(() => inFlight.delete(key));
        inFlight.set(key, p);
      }
      return p;
    },
  };
}
