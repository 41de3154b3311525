import type { Tier } from "@diginoor/api/catalogue";
import { tierLabel } from "../lib/format.ts";

/** Tier in its colour and in words (never colour alone). */
export function TierBadge({ tier, className }: { tier: Tier; className?: string }) {
  return (
    <span className={`tier-badge tier-${tier}${className ? ` ${className}` : ""}`}>
      {tier === "legendary" ? "★ " : ""}
      {tierLabel[tier]}
    </span>
  );
}
