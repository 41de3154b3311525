import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { catalogueArtwork, mediaPaths } from "../seed/seed.ts";
import {
  avatarSvg,
  bannerSvg,
  escapeXml,
  logoSvg,
  nftArtSvg,
  posterSvg,
  wrapText,
} from "../seed/artwork/svg.ts";
import { writeArtwork } from "../seed/artwork/write.ts";
import { localStorage } from "../src/lib/storage/local.ts";
import { seedCollections, seedFilms, seedNfts, seedStudios, seedTeam } from "../seed/catalogue-data.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-art-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const art = {
  seed: "kabali-da",
  title: "Kabali Da!",
  filmName: "Kabali",
  filmSlug: "kabali",
  celebrityName: "Rajinikanth",
  tier: "legendary" as const,
  category: "Dialogue",
  editionSize: 1,
};

describe("generated artwork", () => {
  it("is deterministic per seed and varies between seeds", () => {
    expect(nftArtSvg(art)).toBe(nftArtSvg(art));
    expect(nftArtSvg({ ...art, seed: "kabali-prison-gate" })).not.toBe(nftArtSvg(art));
  });

  it("frames each tier in its own colour and names the tier in words", () => {
    const colours = {
      common: "#b8bec8",
      rare: "#3d8bff",
      ultimate: "#a160ff",
      legendary: "#e8b64c",
    } as const;
    for (const [tier, colour] of Object.entries(colours)) {
      const svg = nftArtSvg({ ...art, tier: tier as keyof typeof colours });
      expect(svg).toContain(colour);
      expect(svg).toContain(tier.toUpperCase());
    }
  });

  it("escapes text, so titles cannot break out of the SVG", () => {
    const svg = nftArtSvg({ ...art, title: `<script>alert("x")</script> & Co` });
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;script&gt;");
    expect(escapeXml(`a<b>&"'`)).toBe("a&lt;b&gt;&amp;&quot;&apos;");
  });

  it("wraps long titles and marks what it cuts", () => {
    expect(wrapText("Paadum Nila: The Last Song", 20, 3)).toEqual(["Paadum Nila: The", "Last Song"]);
    const cut = wrapText("one two three four five six seven eight nine ten", 8, 2);
    expect(cut).toHaveLength(2);
    expect(cut[1]).toMatch(/…$/);
  });

  it("covers every NFT, film, partner and team member, and the coming-soon tile", () => {
    const files = catalogueArtwork().map((f) => f.svgPath);
    for (const n of seedNfts) expect(files).toContain(mediaPaths.nftImage(n.slug));
    for (const f of seedFilms) {
      expect(files).toContain(mediaPaths.poster(f.slug));
      expect(files).toContain(mediaPaths.banner(f.slug));
    }
    for (const s of seedStudios) expect(files).toContain(mediaPaths.logo(s.slug));
    for (const m of seedTeam) expect(files).toContain(mediaPaths.avatar(m.slug));
    for (const c of seedCollections.filter((c) => c.comingSoon))
      expect(files).toContain(mediaPaths.collectionBanner(c.slug));
  });

  it("renders to valid images and writes only missing files", async () => {
    const sample = [
      ...catalogueArtwork()
        .filter((f) => f.webp)
        .slice(0, 2),
      {
        svgPath: "catalogue/x/poster.svg",
        render: () =>
          posterSvg({
            slug: "sivaji",
            name: "Sivaji",
            tagline: "The Boss",
            year: 2007,
            credit: "Rajinikanth",
          }),
      },
      {
        svgPath: "catalogue/x/banner.svg",
        render: () => bannerSvg({ slug: "kabali", name: "Kabali", tagline: "Kabali da!" }),
      },
      {
        svgPath: "catalogue/x/logo.svg",
        render: () => logoSvg({ slug: "kaveri-frames", name: "Kaveri Frames" }),
      },
      {
        svgPath: "catalogue/x/avatar.svg",
        render: () => avatarSvg({ slug: "arjun-raman", name: "Arjun Raman" }),
      },
    ];
    const written = await writeArtwork(localStorage(tmp), sample);
    expect(written).toBe(sample.length + 2); // two of them also get a WebP thumbnail
    for (const f of sample) {
      const meta = await sharp(path.join(tmp, f.svgPath)).metadata();
      expect(meta.format).toBe("svg");
      expect(meta.width).toBeGreaterThan(0);
    }
    const thumb = sample[0]?.webp;
    if (!thumb) throw new Error("expected a thumbnail");
    const webp = await sharp(path.join(tmp, thumb.path)).metadata();
    expect(webp.format).toBe("webp");
    expect(webp.width).toBe(thumb.width);
    // A second start reuses the files.
    expect(await writeArtwork(localStorage(tmp), sample)).toBe(0);
  });
});
