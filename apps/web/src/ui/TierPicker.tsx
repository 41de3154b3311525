import type { Tier } from "@diginoor/api/catalogue";
import { tierLabel, tierOrder } from "../lib/format.ts";

/**
 * The four tiers as pressable chips in their colours (one pressed at a time), with an "All" chip
 * first when `allLabel` is given (then `undefined` means every tier).
 */
export function TierPicker({
  value,
  onChange,
  legend,
  allLabel,
  className,
}: {
  value: Tier | undefined;
  onChange: (tier: Tier | undefined) => void;
  /** What the choice is for, read by screen readers. */
  legend: string;
  allLabel?: string;
  className?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="visually-hidden">{legend}</legend>
      {allLabel ? (
        <button
          type="button"
          className="chip-button"
          aria-pressed={!value}
          onClick={() => onChange(undefined)}
        >
          {allLabel}
        </button>
      ) : null}
      {tierOrder.map((t) => (
        <button
          key={t}
          type="button"
          className={`chip-button tier-${t}`}
          aria-pressed={value === t}
          onClick={() => onChange(t)}
        >
          {tierLabel[t]}
        </button>
      ))}
    </fieldset>
  );
}
