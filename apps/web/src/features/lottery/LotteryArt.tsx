import type { Lottery } from "@diginoor/api/lottery";

/** A hue from the lottery's id, so each lottery keeps its own colours from page to page. */
function hueOf(id: string): number {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** The name in lines of at most `width` characters (at most three lines, the last one cut with …). */
function linesOf(name: string, width = 16): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of name.split(/\s+/).filter(Boolean)) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > 3) return [...lines.slice(0, 2), `${lines[2]?.slice(0, width - 1)}…`];
  return lines;
}

/**
 * Generated artwork for a lottery without an uploaded image or an NFT prize: a golden ticket in the
 * lottery's own hue with its name, so the page never shows an empty half (nothing is downloaded).
 */
export function LotteryArt({
  lottery,
  className,
}: {
  lottery: Pick<Lottery, "id" | "name">;
  className: string;
}) {
  const hue = hueOf(lottery.id);
  const id = `lottery-art-${lottery.id}`;
  const lines = linesOf(lottery.name);
  const stars = Array.from({ length: 14 }, (_, i) => ({
    x: 40 + ((i * 97 + hue) % 320),
    y: 40 + ((i * 61 + hue * 3) % 320),
    r: 1 + (i % 3),
  }));
  return (
    <svg
      viewBox="0 0 400 400"
      className={className}
      role="img"
      aria-label={`${lottery.name}: a lottery ticket`}
    >
      <defs>
        <radialGradient id={`${id}-bg`} cx="0.5" cy="0.35" r="0.8">
          <stop offset="0" stopColor={`hsl(${hue} 60% 32%)`} />
          <stop offset="1" stopColor={`hsl(${hue} 55% 8%)`} />
        </radialGradient>
        <linearGradient id={`${id}-gold`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#fff3c4" />
          <stop offset="0.45" stopColor="#e9b949" />
          <stop offset="1" stopColor="#a8760f" />
        </linearGradient>
      </defs>
      <rect width="400" height="400" fill={`url(#${id}-bg)`} />
      {stars.map((s) => (
        <circle key={`${s.x}-${s.y}`} cx={s.x} cy={s.y} r={s.r} fill="#fff" opacity="0.5" />
      ))}
      <g transform="rotate(-8 200 200)">
        <rect x="50" y="120" width="300" height="160" rx="14" fill={`url(#${id}-gold)`} />
        <line x1="270" y1="128" x2="270" y2="272" stroke="#7a5508" strokeWidth="3" strokeDasharray="6 8" />
        <circle cx="50" cy="200" r="16" fill={`hsl(${hue} 55% 14%)`} />
        <circle cx="350" cy="200" r="16" fill={`hsl(${hue} 55% 14%)`} />
        <text
          x="160"
          y={200 - (lines.length - 1) * 13}
          textAnchor="middle"
          fill="#3b2603"
          fontFamily="Georgia, serif"
          fontWeight="700"
          fontSize="22"
        >
          {lines.map((l, i) => (
            <tspan key={l} x="160" dy={i === 0 ? 8 : 26}>
              {l}
            </tspan>
          ))}
        </text>
        <text
          x="310"
          y="206"
          textAnchor="middle"
          fill="#3b2603"
          fontFamily="Georgia, serif"
          fontSize="16"
          transform="rotate(-90 310 200)"
        >
          ADMIT ONE
        </text>
      </g>
    </svg>
  );
}

/** The lottery's uploaded image, else its prize NFT's, else generated artwork. */
export function LotteryImage({
  lottery,
  className,
  size,
  lazy = false,
}: {
  lottery: Pick<Lottery, "id" | "name" | "imageUrl" | "prizeNft">;
  className: string;
  size: number;
  lazy?: boolean;
}) {
  const src = lottery.imageUrl ?? lottery.prizeNft?.imageUrl;
  if (!src) return <LotteryArt lottery={lottery} className={className} />;
  return (
    <img
      src={src}
      alt=""
      className={className}
      width={size}
      height={size}
      loading={lazy ? "lazy" : undefined}
    />
  );
}
