import type { Tier } from "@diginoor/api/catalogue";

// Money is formatted in one place, shared with the server (packages/api/src/money.ts).
export { formatInr, formatNative, formatPrice, formatUsd, usdCentsToPaise } from "@diginoor/api/money";
// Addresses too (pages, mails and share cards show them alike).
export { shortAddress } from "@diginoor/api/wallets";

/** Parses a dollar amount typed by a user ("12", "12.5", "$1,200.00") to integer cents, or null. */
export function parseUsdToCents(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, "");
  if (!/^\d{1,12}(\.\d{0,2})?$/.test(cleaned)) return null;
  const [dollars, fraction = ""] = cleaned.split(".");
  return Number(dollars) * 100 + Number(fraction.padEnd(2, "0"));
}

export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True once the deadline has passed (all parts are then 0). */
  ended: boolean;
  totalMs: number;
}

/** Splits the time left until `endsAt` into days/hours/minutes/seconds, floored, never negative. */
export function countdownParts(endsAt: string | Date, now: number = Date.now()): CountdownParts {
  const end = typeof endsAt === "string" ? Date.parse(endsAt) : endsAt.getTime();
  const totalMs = Number.isFinite(end) ? Math.max(0, end - now) : 0;
  const totalSeconds = Math.floor(totalMs / 1000);
  return {
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
    ended: totalMs <= 0,
    totalMs,
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "3d 04h 05m 09s", or "Auction ended". */
export function formatCountdown(parts: CountdownParts): string {
  if (parts.ended) return "Auction ended";
  const hms = `${pad(parts.hours)}h ${pad(parts.minutes)}m ${pad(parts.seconds)}s`;
  return parts.days > 0 ? `${parts.days}d ${hms}` : hms;
}

export const tierLabel: Record<Tier, string> = {
  common: "Common",
  rare: "Rare",
  ultimate: "Ultimate",
  legendary: "Legendary",
};

export const tierOrder: readonly Tier[] = ["common", "rare", "ultimate", "legendary"];

/** "3 of 10 remaining" for an edition. */
export function editionsText(available: number, size: number): string {
  return `${available} of ${size} remaining`;
}

/** Royalty basis points to a percentage label: 1000 → "10%". */
export function royaltyText(bps: number): string {
  const pct = bps / 100;
  return `${Number.isInteger(pct) ? pct : pct.toFixed(1)}%`;
}
