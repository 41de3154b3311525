import { useCountdown } from "../lib/hooks.ts";

/**
 * A live countdown to a real deadline; with no deadline, says the clock starts with the first bid.
 * A server-rendered page counted a moment earlier than its hydration: the figures (and the local
 * time in the title) may differ by a second, which is expected, hence `suppressHydrationWarning`.
 */
export function Countdown({ endsAt, compact = false }: { endsAt: string | null; compact?: boolean }) {
  const parts = useCountdown(endsAt);
  if (!endsAt || !parts)
    return <span className="countdown countdown-idle">Auction starts with the first bid</span>;
  if (parts.ended) return <span className="countdown countdown-ended">Auction ended</span>;
  const units: [number, string, string][] = [
    [parts.days, "d", "days"],
    [parts.hours, "h", "hours"],
    [parts.minutes, "m", "minutes"],
    [parts.seconds, "s", "seconds"],
  ];
  if (compact) {
    return (
      <time
        className="countdown tabular"
        dateTime={endsAt}
        suppressHydrationWarning
        title={`Ends ${new Date(endsAt).toLocaleString()}`}
      >
        {units
          .filter(([v], i) => i > 0 || v > 0)
          .map(([v, u]) => `${String(v).padStart(2, "0")}${u}`)
          .join(" ")}
      </time>
    );
  }
  return (
    <time className="countdown countdown-boxes tabular" dateTime={endsAt}>
      {units.map(([value, , label]) => (
        <span key={label} className="countdown-box">
          <span className="countdown-value" suppressHydrationWarning>
            {String(value).padStart(2, "0")}
          </span>
          <span className="countdown-label">{label}</span>
        </span>
      ))}
    </time>
  );
}
