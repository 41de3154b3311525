import type { Tier } from "@diginoor/api/catalogue";
import { tierLabel } from "../../../lib/format.ts";

const palette: Record<Tier, { edge: string; glow: string; bg1: string; bg2: string; stars: number }> = {
  common: { edge: "#b9bec9", glow: "#6c7280", bg1: "#2a2d35", bg2: "#121419", stars: 1 },
  rare: { edge: "#4f8dff", glow: "#2356c4", bg1: "#132a57", bg2: "#070f22", stars: 2 },
  ultimate: { edge: "#a970ff", glow: "#6a2fd1", bg1: "#2c1352", bg2: "#0f0620", stars: 3 },
  legendary: { edge: "#e9b949", glow: "#b07a12", bg1: "#4a3408", bg2: "#140d02", stars: 4 },
};

/** A generated collectible card in the tier's colours (no stock art needed). */
export function TierCardArt({ tier }: { tier: Tier }) {
  const p = palette[tier];
  const id = `tier-${tier}`;
  return (
    <svg
      viewBox="0 0 300 420"
      role="img"
      aria-label={`${tierLabel[tier]} tier card`}
      className="tier-card-art"
    >
      <defs>
        <linearGradient id={`${id}-bg`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={p.bg1} />
          <stop offset="1" stopColor={p.bg2} />
        </linearGradient>
        <radialGradient id={`${id}-spot`} cx="0.5" cy="0.35" r="0.6">
          <stop offset="0" stopColor={p.glow} stopOpacity="0.85" />
          <stop offset="1" stopColor={p.glow} stopOpacity="0" />
        </radialGradient>
        <linearGradient id={`${id}-edge`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#fff" stopOpacity="0.9" />
          <stop offset="0.35" stopColor={p.edge} />
          <stop offset="1" stopColor={p.edge} stopOpacity="0.6" />
        </linearGradient>
      </defs>
      <rect
        x="6"
        y="6"
        width="288"
        height="408"
        rx="22"
        fill={`url(#${id}-bg)`}
        stroke={`url(#${id}-edge)`}
        strokeWidth="6"
      />
      <rect x="26" y="26" width="248" height="250" rx="12" fill={`url(#${id}-spot)`} />
      {/* film reel */}
      <g transform="translate(150 150)" fill="none" stroke={p.edge} strokeWidth="5" opacity="0.9">
        <circle r="62" />
        <circle r="12" fill={p.edge} />
        {[0, 72, 144, 216, 288].map((a) => (
          <circle
            key={a}
            r="15"
            cx={Math.cos((a * Math.PI) / 180) * 36}
            cy={Math.sin((a * Math.PI) / 180) * 36}
          />
        ))}
      </g>
      <text
        x="150"
        y="322"
        textAnchor="middle"
        fill="#f3f0f7"
        fontFamily="Playfair Display, Georgia, serif"
        fontSize="34"
        fontWeight="700"
      >
        {tierLabel[tier]}
      </text>
      <g fill={p.edge}>
        {Array.from({ length: p.stars }, (_, i) => {
          const x = 150 + (i - (p.stars - 1) / 2) * 30;
          return (
            <path
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed decoration
              key={i}
              transform={`translate(${x} 362) scale(0.9)`}
              d="M0-11l3.2 7 7.6.8-5.7 5.1 1.6 7.5L0 5.6-6.7 9.4l1.6-7.5-5.7-5.1 7.6-.8z"
            />
          );
        })}
      </g>
      <text
        x="150"
        y="398"
        textAnchor="middle"
        fill="#b4adc2"
        fontFamily="Inter, sans-serif"
        fontSize="12"
        letterSpacing="3"
      >
        DIGINOOR
      </text>
    </svg>
  );
}
