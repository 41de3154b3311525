// Deterministic SVG artwork for the seed catalogue: NFT cards, film posters, banners, partner
// logos and team avatars. Everything is composed from a seeded PRNG, so the same input always
// yields the same picture and nothing is downloaded.

import type { Tier } from "@diginoor/api/catalogue";

/** Frame colours of the tiers (same as the web app's tier tokens). */
export const tierColours: Record<Tier, { main: string; light: string; dark: string; label: string }> = {
  common: { main: "#b8bec8", light: "#eef1f5", dark: "#5d6470", label: "COMMON" },
  rare: { main: "#3d8bff", light: "#a9cbff", dark: "#123a7a", label: "RARE" },
  ultimate: { main: "#a160ff", light: "#d8bcff", dark: "#3f1a7a", label: "ULTIMATE" },
  legendary: { main: "#e8b64c", light: "#fff0c2", dark: "#7a5514", label: "LEGENDARY" },
};

/** A film's mood: two hues and an accent used by every piece of its artwork. */
export interface Palette {
  deep: string;
  mid: string;
  glow: string;
  accent: string;
}

export const palettes: Record<string, Palette> = {
  kabali: { deep: "#0b0507", mid: "#5a0d14", glow: "#e0432f", accent: "#f2c14e" },
  sivaji: { deep: "#04090b", mid: "#0d4a4f", glow: "#2fc4b2", accent: "#f4d27a" },
  chandramukhi: { deep: "#0a0510", mid: "#4a1052", glow: "#d94fa0", accent: "#f5c6e0" },
  pasumainayaganvivek: { deep: "#030a05", mid: "#144d23", glow: "#5fd068", accent: "#e9f5a0" },
  nonfungiblespb: { deep: "#04050f", mid: "#1b2466", glow: "#5a7bff", accent: "#ffc65c" },
};

const fallbackPalettes: Palette[] = Object.values(palettes);

export function paletteFor(key: string): Palette {
  return palettes[key] ?? (fallbackPalettes[hashString(key) % fallbackPalettes.length] as Palette);
}

/** 32-bit FNV-1a hash of a string. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, good-enough seeded PRNG returning floats in [0, 1). */
export function prng(seed: string): () => number {
  let a = hashString(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

export function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string,
  );
}

/** Splits a title into at most `maxLines` lines of about `width` characters. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line && `${line} ${w}`.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${(kept[maxLines - 1] as string).replace(/[\s,.:;-]+$/, "")}…`;
    return kept;
  }
  return lines;
}

const SERIF = "'Playfair Display', Georgia, 'DejaVu Serif', 'Times New Roman', serif";
const SANS = "Inter, 'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif";

/** Background and vignette shared by the compositions. */
function atmosphere(
  id: string,
  w: number,
  h: number,
  p: Palette,
  rnd: () => number,
): { defs: string; body: string } {
  const cx = f(30 + rnd() * 40);
  const cy = f(25 + rnd() * 35);
  return {
    defs: `
    <radialGradient id="${id}-bg" cx="${cx}%" cy="${cy}%" r="85%">
      <stop offset="0" stop-color="${p.mid}"/>
      <stop offset="0.55" stop-color="${p.deep}"/>
      <stop offset="1" stop-color="#000"/>
    </radialGradient>
    <radialGradient id="${id}-vig" cx="50%" cy="50%" r="75%">
      <stop offset="0.6" stop-color="#000" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.75"/>
    </radialGradient>
    <radialGradient id="${id}-glow" cx="50%" cy="50%" r="50%">
      <stop offset="0" stop-color="${p.glow}" stop-opacity="0.9"/>
      <stop offset="0.4" stop-color="${p.glow}" stop-opacity="0.35"/>
      <stop offset="1" stop-color="${p.glow}" stop-opacity="0"/>
    </radialGradient>`,
    body: `<rect width="${w}" height="${h}" fill="url(#${id}-bg)"/>`,
  };
}

function finish(id: string, w: number, h: number): string {
  // No grain filter: browsers rasterise an SVG <img> on the main thread, and a full-size
  // feTurbulence cost a phone about a second on the NFT page (docs/benchmarks.md, Lighthouse).
  return `<rect width="${w}" height="${h}" fill="url(#${id}-vig)"/>`;
}

/** One of several poster motifs, chosen and varied by the PRNG. */
function motif(id: string, w: number, h: number, p: Palette, rnd: () => number, kind: number): string {
  const cx = w * (0.3 + rnd() * 0.4);
  const cy = h * (0.28 + rnd() * 0.2);
  const parts: string[] = [];
  switch (kind % 6) {
    case 0: {
      // Sunburst behind a rising sun.
      const rays = 18 + Math.floor(rnd() * 18);
      const rot = rnd() * 360;
      for (let i = 0; i < rays; i++) {
        const a0 = ((i / rays) * 360 + rot) * (Math.PI / 180);
        const a1 = a0 + (Math.PI / rays) * (0.35 + rnd() * 0.3);
        const r = Math.max(w, h) * 1.2;
        parts.push(
          `<path d="M${f(cx)} ${f(cy)} L${f(cx + Math.cos(a0) * r)} ${f(cy + Math.sin(a0) * r)} L${f(cx + Math.cos(a1) * r)} ${f(cy + Math.sin(a1) * r)}Z" fill="${i % 2 ? p.glow : p.accent}" opacity="${f(0.05 + rnd() * 0.08)}"/>`,
        );
      }
      parts.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.45)}" fill="url(#${id}-glow)"/>`);
      parts.push(
        `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * (0.12 + rnd() * 0.08))}" fill="${p.accent}" opacity="0.9"/>`,
      );
      break;
    }
    case 1: {
      // Spotlight rings, like a stage seen from above.
      parts.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.55)}" fill="url(#${id}-glow)"/>`);
      const rings = 6 + Math.floor(rnd() * 6);
      for (let i = 1; i <= rings; i++) {
        parts.push(
          `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.05 * i + rnd() * 6)}" fill="none" stroke="${i % 3 ? p.glow : p.accent}" stroke-width="${f(0.6 + rnd() * 2.2)}" opacity="${f(0.25 + rnd() * 0.5)}" ${rnd() > 0.5 ? `stroke-dasharray="${f(2 + rnd() * 14)} ${f(3 + rnd() * 10)}"` : ""}/>`,
        );
      }
      break;
    }
    case 2: {
      // Art-deco fan of arches.
      const n = 7 + Math.floor(rnd() * 5);
      const baseY = h * (0.55 + rnd() * 0.1);
      parts.push(
        `<ellipse cx="${f(w / 2)}" cy="${f(baseY)}" rx="${f(w * 0.6)}" ry="${f(h * 0.35)}" fill="url(#${id}-glow)"/>`,
      );
      for (let i = n; i >= 1; i--) {
        const r = (w * 0.48 * i) / n;
        parts.push(
          `<path d="M${f(w / 2 - r)} ${f(baseY)} A${f(r)} ${f(r)} 0 0 1 ${f(w / 2 + r)} ${f(baseY)}" fill="none" stroke="${i % 2 ? p.accent : p.glow}" stroke-width="${f(1.2 + rnd() * 2)}" opacity="${f(0.35 + rnd() * 0.45)}"/>`,
        );
      }
      break;
    }
    case 3: {
      // Kolam-like dot lattice with woven loops.
      parts.push(
        `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.5)}" fill="url(#${id}-glow)" opacity="0.8"/>`,
      );
      const step = 34 + Math.floor(rnd() * 16);
      const r0 = step * 0.42;
      for (let y = step; y < h * 0.72; y += step) {
        for (let x = step / 2 + ((y / step) % 2 ? step / 2 : 0); x < w; x += step) {
          const d = Math.hypot(x - cx, y - cy);
          if (d > w * 0.55) continue;
          const o = 0.15 + (1 - d / (w * 0.55)) * 0.6;
          parts.push(`<circle cx="${f(x)}" cy="${f(y)}" r="2.2" fill="${p.accent}" opacity="${f(o)}"/>`);
          if (rnd() > 0.45)
            parts.push(
              `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r0)}" fill="none" stroke="${p.glow}" stroke-width="1.1" opacity="${f(o * 0.8)}"/>`,
            );
        }
      }
      break;
    }
    case 4: {
      // Film strip sweeping across the frame.
      const angle = -20 + rnd() * 40;
      const y = h * (0.3 + rnd() * 0.2);
      parts.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.5)}" fill="url(#${id}-glow)"/>`);
      const frames: string[] = [];
      for (let x = -w; x < w * 2; x += 64) {
        frames.push(
          `<rect x="${x + 6}" y="${f(y + 16)}" width="52" height="58" rx="3" fill="${p.mid}" stroke="${p.accent}" stroke-opacity="0.35"/>`,
        );
        frames.push(`<rect x="${x + 8}" y="${f(y + 4)}" width="10" height="7" rx="1.5" fill="${p.deep}"/>`);
        frames.push(`<rect x="${x + 40}" y="${f(y + 4)}" width="10" height="7" rx="1.5" fill="${p.deep}"/>`);
        frames.push(`<rect x="${x + 8}" y="${f(y + 79)}" width="10" height="7" rx="1.5" fill="${p.deep}"/>`);
        frames.push(`<rect x="${x + 40}" y="${f(y + 79)}" width="10" height="7" rx="1.5" fill="${p.deep}"/>`);
      }
      parts.push(
        `<g transform="rotate(${f(angle)} ${f(w / 2)} ${f(y + 45)})" opacity="0.85"><rect x="${-w}" y="${f(y)}" width="${w * 3}" height="90" fill="#0a0a0a"/>${frames.join("")}</g>`,
      );
      break;
    }
    default: {
      // Layered mountains under a moon: a landscape still.
      parts.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.4)}" fill="url(#${id}-glow)"/>`);
      parts.push(
        `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(w * 0.09)}" fill="${p.accent}" opacity="0.95"/>`,
      );
      for (let layer = 0; layer < 4; layer++) {
        const base = h * (0.45 + layer * 0.08);
        let d = `M0 ${f(h)} L0 ${f(base)}`;
        const peaks = 4 + Math.floor(rnd() * 4);
        for (let i = 1; i <= peaks; i++) {
          const x = (w * i) / peaks;
          d += ` L${f(x - w / peaks / 2)} ${f(base - 40 - rnd() * 90)} L${f(x)} ${f(base - rnd() * 20)}`;
        }
        d += ` L${f(w)} ${f(h)}Z`;
        parts.push(
          `<path d="${d}" fill="${layer % 2 ? p.mid : p.deep}" opacity="${f(0.55 + layer * 0.12)}"/>`,
        );
      }
    }
  }
  return parts.join("");
}

/** Scattered sparkles (stars, dust in a projector beam). */
function sparkles(w: number, h: number, p: Palette, rnd: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      `<circle cx="${f(rnd() * w)}" cy="${f(rnd() * h * 0.75)}" r="${f(0.4 + rnd() * 1.6)}" fill="${rnd() > 0.5 ? p.accent : "#fff"}" opacity="${f(0.2 + rnd() * 0.6)}"/>`,
    );
  }
  return out.join("");
}

/** A double frame in the tier colour with corner ornaments and a tier plate. */
function tierFrame(id: string, w: number, h: number, tier: Tier): { defs: string; body: string } {
  const c = tierColours[tier];
  const m = 18;
  const corner = (x: number, y: number, sx: number, sy: number) =>
    `<path d="M${x} ${y + sy * 46} L${x} ${y} L${x + sx * 46} ${y}" fill="none" stroke="url(#${id}-tier)" stroke-width="4"/>` +
    `<path d="M${x + sx * 10} ${y + sy * 22} L${x + sx * 10} ${y + sy * 10} L${x + sx * 22} ${y + sy * 10}" fill="none" stroke="${c.light}" stroke-width="1.5" opacity="0.8"/>` +
    `<rect x="${x + sx * 4 - 4}" y="${y + sy * 4 - 4}" width="8" height="8" transform="rotate(45 ${x + sx * 4} ${y + sy * 4})" fill="${c.light}"/>`;
  return {
    defs: `<linearGradient id="${id}-tier" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${c.light}"/><stop offset="0.45" stop-color="${c.main}"/><stop offset="1" stop-color="${c.dark}"/>
    </linearGradient>`,
    body:
      `<rect x="${m / 2}" y="${m / 2}" width="${w - m}" height="${h - m}" rx="14" fill="none" stroke="url(#${id}-tier)" stroke-width="3"/>` +
      `<rect x="${m + 4}" y="${m + 4}" width="${w - 2 * m - 8}" height="${h - 2 * m - 8}" rx="8" fill="none" stroke="${c.main}" stroke-opacity="0.45" stroke-width="1"/>` +
      corner(m, m, 1, 1) +
      corner(w - m, m, -1, 1) +
      corner(m, h - m, 1, -1) +
      corner(w - m, h - m, -1, -1),
  };
}

export interface NftArtInput {
  /** Seed of the PRNG (the NFT's slug or id). */
  seed: string;
  title: string;
  filmName: string;
  filmSlug: string;
  celebrityName: string;
  tier: Tier;
  category: string;
  editionSize: number;
}

/** Portrait card art of one NFT, 600 × 800. */
export function nftArtSvg(input: NftArtInput): string {
  const w = 600;
  const h = 800;
  const rnd = prng(`nft:${input.seed}`);
  const id = `n${hashString(input.seed).toString(36)}`;
  const p = paletteFor(input.filmSlug);
  const atm = atmosphere(id, w, h, p, rnd);
  const frame = tierFrame(id, w, h, input.tier);
  const c = tierColours[input.tier];
  const kind = Math.floor(rnd() * 6);
  const lines = wrapText(input.title, 20, 3);
  const titleSize = lines.length > 2 ? 40 : 46;
  const titleTop = h - 150 - (lines.length - 1) * titleSize * 1.1;
  const title = lines
    .map(
      (l, i) =>
        `<text x="${w / 2}" y="${f(titleTop + i * titleSize * 1.1)}" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="${titleSize}" fill="#fff">${escapeXml(l)}</text>`,
    )
    .join("");
  const edition = input.editionSize === 1 ? "ONE OF ONE" : `EDITION OF ${input.editionSize}`;
  const plate = `${c.label} · ${edition}`;
  const plateW = Math.round(plate.length * 11 + 36);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">
  <defs>${atm.defs}${frame.defs}
    <linearGradient id="${id}-fade" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0.45" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.92"/>
    </linearGradient>
  </defs>
  ${atm.body}
  ${motif(id, w, h, p, rnd, kind)}
  ${sparkles(w, h, p, rnd, 40 + Math.floor(rnd() * 40))}
  <rect width="${w}" height="${h}" fill="url(#${id}-fade)"/>
  ${finish(id, w, h)}
  <text x="${w / 2}" y="78" text-anchor="middle" font-family="${SANS}" font-size="15" letter-spacing="6" fill="${p.accent}" opacity="0.9">${escapeXml(input.filmName.toUpperCase())}</text>
  ${title}
  <text x="${w / 2}" y="${h - 92}" text-anchor="middle" font-family="${SANS}" font-size="17" letter-spacing="2" fill="#e9e9ee" opacity="0.85">${escapeXml(input.celebrityName)} · ${escapeXml(input.category)}</text>
  <g transform="translate(${w / 2} ${h - 56})">
    <rect x="${-plateW / 2}" y="-17" width="${plateW}" height="30" rx="15" fill="#000" fill-opacity="0.55" stroke="${c.main}" stroke-width="1.5"/>
    <text x="0" y="4" text-anchor="middle" font-family="${SANS}" font-weight="700" font-size="13" letter-spacing="3" fill="${c.light}">${plate}</text>
  </g>
  ${frame.body}
</svg>`;
}

export interface FilmArtInput {
  slug: string;
  name: string;
  tagline: string;
  year: number | null;
  credit: string;
}

/** Theatrical poster of a film, 600 × 900. */
export function posterSvg(input: FilmArtInput): string {
  const w = 600;
  const h = 900;
  const rnd = prng(`poster:${input.slug}`);
  const id = `p${hashString(input.slug).toString(36)}`;
  const p = paletteFor(input.slug);
  const atm = atmosphere(id, w, h, p, rnd);
  const lines = wrapText(input.name.toUpperCase(), 13, 3);
  const longest = Math.max(...lines.map((l) => l.length));
  // Serif capitals with letter-spacing are about 0.78 em wide; keep them inside the poster.
  const size = Math.min(lines.length > 1 ? 58 : 76, Math.floor((w - 80) / (longest * 0.86)));
  const top = h - 230 - (lines.length - 1) * size;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">
  <defs>${atm.defs}
    <linearGradient id="${id}-fade" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0.4" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.95"/>
    </linearGradient>
    <linearGradient id="${id}-gold" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="${p.accent}"/>
    </linearGradient>
  </defs>
  ${atm.body}
  ${motif(id, w, h, p, rnd, Math.floor(rnd() * 6))}
  ${sparkles(w, h, p, rnd, 70)}
  <rect width="${w}" height="${h}" fill="url(#${id}-fade)"/>
  ${finish(id, w, h)}
  ${input.tagline ? `<text x="${w / 2}" y="70" text-anchor="middle" font-family="${SANS}" font-size="16" letter-spacing="4" fill="${p.accent}">${escapeXml(input.tagline.toUpperCase().slice(0, 48))}</text>` : ""}
  ${lines.map((l, i) => `<text x="${w / 2}" y="${top + i * size}" text-anchor="middle" font-family="${SERIF}" font-weight="900" font-size="${size}" letter-spacing="3" fill="url(#${id}-gold)">${escapeXml(l)}</text>`).join("")}
  <line x1="${w / 2 - 120}" y1="${h - 175}" x2="${w / 2 + 120}" y2="${h - 175}" stroke="${p.accent}" stroke-opacity="0.6"/>
  <text x="${w / 2}" y="${h - 140}" text-anchor="middle" font-family="${SANS}" font-size="15" letter-spacing="3" fill="#ddd">${escapeXml(input.credit.toUpperCase())}</text>
  ${input.year ? `<text x="${w / 2}" y="${h - 100}" text-anchor="middle" font-family="${SANS}" font-size="14" letter-spacing="6" fill="${p.accent}">${input.year}</text>` : ""}
  <text x="${w / 2}" y="${h - 52}" text-anchor="middle" font-family="${SANS}" font-size="11" letter-spacing="4" fill="#888">DIGINOOR · LICENSED DIGITAL COLLECTIBLES</text>
</svg>`;
}

/**
 * The backdrop of a wide picture (banner, blog cover): atmosphere, a motif on the right, sparkles
 * and a dark fade from the left where the text goes. Returns the opening of the SVG; the caller adds
 * its text and `</svg>`.
 */
function wideScene(o: {
  id: string;
  w: number;
  h: number;
  p: Palette;
  rnd: () => number;
  /** Fade opacity at the left edge, where it reaches `[1]` of the width, and its opacity there. */
  fade: [number, number, number];
  /** Where the motif starts, as a fraction of the width, and its height as a multiple of the picture's. */
  motifAt: number;
  motifHeight: number;
  sparkleCount: number;
}): string {
  const { id, w, h, p, rnd } = o;
  const atm = atmosphere(id, w, h, p, rnd);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">
  <defs>${atm.defs}
    <linearGradient id="${id}-side" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#000" stop-opacity="${o.fade[0]}"/><stop offset="${o.fade[1]}" stop-color="#000" stop-opacity="${o.fade[2]}"/><stop offset="1" stop-color="#000" stop-opacity="0"/>
    </linearGradient>
  </defs>
  ${atm.body}
  <g transform="translate(${f(w * o.motifAt)} 0)">${motif(id, w * (1 - o.motifAt), h * o.motifHeight, p, rnd, Math.floor(rnd() * 6))}</g>
  ${sparkles(w, h, p, rnd, o.sparkleCount)}
  <rect width="${w}" height="${h}" fill="url(#${id}-side)"/>
  ${finish(id, w, h)}`;
}

/** Wide banner of a film or collection, 1600 × 600. */
export function bannerSvg(input: {
  slug: string;
  name: string;
  tagline: string;
  paletteKey?: string;
}): string {
  const w = 1600;
  const h = 600;
  const rnd = prng(`banner:${input.slug}`);
  const id = `b${hashString(input.slug).toString(36)}`;
  const p = paletteFor(input.paletteKey ?? input.slug);
  return `${wideScene({ id, w, h, p, rnd, fade: [0.9, 0.55, 0.15], motifAt: 0.45, motifHeight: 1.4, sparkleCount: 90 })}
  <text x="96" y="${h / 2 - 8}" font-family="${SERIF}" font-weight="900" font-size="${input.name.length > 16 ? 72 : 96}" fill="#fff">${escapeXml(input.name)}</text>
  <rect x="98" y="${h / 2 + 22}" width="90" height="4" fill="${p.accent}"/>
  <text x="98" y="${h / 2 + 74}" font-family="${SANS}" font-size="26" letter-spacing="2" fill="#e6e6ea" opacity="0.9">${escapeXml(input.tagline.slice(0, 70))}</text>
</svg>`;
}

/** Wordmark logo of a studio, 480 × 240, on a dark plate. */
export function logoSvg(input: { slug: string; name: string }): string {
  const w = 480;
  const h = 240;
  const rnd = prng(`logo:${input.slug}`);
  const hue = Math.floor(rnd() * 360);
  const gold = `hsl(${(hue + 40) % 360} 70% 68%)`;
  const words = input.name.split(/\s+/);
  const initials = words
    .filter((w) => /^[A-Za-z]/.test(w))
    .slice(0, 2)
    .map((w) => w[0])
    .join("")
    .toUpperCase();
  const shape = Math.floor(rnd() * 3);
  const emblem =
    shape === 0
      ? `<circle cx="0" cy="0" r="46" fill="none" stroke="${gold}" stroke-width="3"/><circle cx="0" cy="0" r="38" fill="none" stroke="${gold}" stroke-opacity="0.5"/>`
      : shape === 1
        ? `<path d="M0 -50 L43 -25 L43 25 L0 50 L-43 25 L-43 -25Z" fill="none" stroke="${gold}" stroke-width="3"/>`
        : `<rect x="-42" y="-42" width="84" height="84" transform="rotate(45)" fill="none" stroke="${gold}" stroke-width="3"/>`;
  const lines = wrapText(input.name, 18, 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 35% 14%)"/><stop offset="1" stop-color="#07070a"/></linearGradient></defs>
  <rect width="${w}" height="${h}" rx="18" fill="url(#g)"/>
  <g transform="translate(90 ${h / 2})">${emblem}<text x="0" y="11" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="30" fill="${gold}">${escapeXml(initials)}</text></g>
  ${lines.map((l, i) => `<text x="165" y="${h / 2 - (lines.length - 1) * 16 + i * 34 + 10}" font-family="${SERIF}" font-weight="700" font-size="28" fill="#f4f1ea">${escapeXml(l)}</text>`).join("")}
</svg>`;
}

/** Monogram avatar of a team member, 256 × 256. */
export function avatarSvg(input: { slug: string; name: string }): string {
  const rnd = prng(`avatar:${input.slug}`);
  const hue = Math.floor(rnd() * 360);
  const initials = input.name
    .split(/\s+/)
    .map((p) => p[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  const rings: string[] = [];
  for (let i = 0; i < 5; i++) {
    rings.push(
      `<circle cx="${f(60 + rnd() * 136)}" cy="${f(60 + rnd() * 136)}" r="${f(30 + rnd() * 80)}" fill="hsl(${(hue + i * 25) % 360} 60% ${40 + i * 5}%)" opacity="${f(0.18 + rnd() * 0.2)}"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256">
  <defs><radialGradient id="a" cx="35%" cy="30%" r="80%"><stop offset="0" stop-color="hsl(${hue} 45% 30%)"/><stop offset="1" stop-color="#08080c"/></radialGradient></defs>
  <rect width="256" height="256" fill="url(#a)"/>${rings.join("")}
  <circle cx="128" cy="128" r="112" fill="none" stroke="hsl(${(hue + 30) % 360} 70% 70%)" stroke-opacity="0.55" stroke-width="2"/>
  <text x="128" y="150" text-anchor="middle" font-family="${SERIF}" font-weight="700" font-size="72" fill="#fff">${escapeXml(initials)}</text>
</svg>`;
}

/** Cover of a blog post, 1200 × 630 (the link-preview size): a film's mood, a label and the title. */
export function blogCoverSvg(input: {
  slug: string;
  title: string;
  label: string;
  paletteKey: string;
}): string {
  const w = 1200;
  const h = 630;
  const rnd = prng(`cover:${input.slug}`);
  const id = `c${hashString(input.slug).toString(36)}`;
  const p = paletteFor(input.paletteKey);
  const lines = wrapText(input.title, 26, 3);
  const size = lines.length > 2 ? 58 : 66;
  const top = h / 2 - ((lines.length - 1) * size * 1.12) / 2 + 10;
  return `${wideScene({ id, w, h, p, rnd, fade: [0.88, 0.6, 0.25], motifAt: 0.42, motifHeight: 1.3, sparkleCount: 70 })}
  <text x="80" y="${f(top - size - 18)}" font-family="${SANS}" font-weight="700" font-size="20" letter-spacing="6" fill="${p.accent}">${escapeXml(input.label.toUpperCase())}</text>
  ${lines.map((l, i) => `<text x="78" y="${f(top + i * size * 1.12)}" font-family="${SERIF}" font-weight="700" font-size="${size}" fill="#fff">${escapeXml(l)}</text>`).join("")}
  <rect x="80" y="${f(top + (lines.length - 1) * size * 1.12 + 36)}" width="90" height="4" fill="${p.accent}"/>
  <text x="80" y="${h - 56}" font-family="${SANS}" font-size="18" letter-spacing="5" fill="#cfcfd6" opacity="0.85">DIGINOOR BLOG</text>
</svg>`;
}
