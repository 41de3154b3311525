/** Reading Prometheus text (GET /metrics) in tests: one sample's value by name and labels. */
export type Samples = Map<string, number>;

/** Parses the exposition format into `name{labels}` → value (labels as printed, sorted by prom-client). */
export function parseMetrics(text: string): Samples {
  const out: Samples = new Map();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const i = line.lastIndexOf(" ");
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** The value of `name` with exactly `labels` (0 when absent: a counter not yet incremented). */
export function sample(s: Samples, name: string, labels: Record<string, string> = {}): number {
  const l = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(",");
  return s.get(l ? `${name}{${l}}` : name) ?? 0;
}

/** Sum of every sample of `name` whose labels include `labels`. */
export function sum(s: Samples, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, v] of s) {
    const brace = key.indexOf("{");
    const n = brace < 0 ? key : key.slice(0, brace);
    if (n !== name) continue;
    if (Object.entries(labels).every(([k, val]) => key.includes(`${k}="${val}"`))) total += v;
  }
  return total;
}
