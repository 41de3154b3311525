/**
 * The one place prices are turned into text (web and server alike). Money stays integer until this
 * point: paise, US cents, wei. A price reads rupees first, then dollars, then the crypto amount where
 * crypto is paid: "₹1,250 · $15 · 0.0052 ETH". Whole amounts drop their ".00" in both currencies.
 */

const usdWhole = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const usdFraction = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const inrWhole = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const inrFraction = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

type Minor = number | bigint;

function minor(amount: Minor, whole: Intl.NumberFormat, fraction: Intl.NumberFormat): string {
  if (typeof amount === "number" && !Number.isFinite(amount)) return "—";
  const n = typeof amount === "bigint" ? amount : BigInt(Math.trunc(amount));
  // Number() of a whole amount of currency units is exact far beyond any price we sell.
  if (n % 100n === 0n) return whole.format(Number(n / 100n));
  return fraction.format(Number(n) / 100);
}

/** Integer US cents: 1500000000 → "$15,000,000", 1250 → "$12.50", 1200 → "$12". */
export function formatUsd(cents: Minor): string {
  return minor(cents, usdWhole, usdFraction);
}

/** Integer paise, Indian digit grouping: 12500000 → "₹1,25,000", 211250 → "₹2,112.50". */
export function formatInr(paise: Minor): string {
  return minor(paise, inrWhole, inrFraction);
}

const WEI_PER_TOKEN = 10n ** 18n;

/**
 * A wei amount as the chain's native token with at most `digits` decimals, cut (never rounded up),
 * e.g. "0.1052 ETH". A non-zero amount is never shown as zero: below the shown precision it keeps
 * its first significant digits.
 */
export function formatNative(wei: bigint | string, symbol: string, digits = 4): string {
  const w = BigInt(wei);
  const negative = w < 0n;
  const abs = negative ? -w : w;
  const whole = abs / WEI_PER_TOKEN;
  const fraction = (abs % WEI_PER_TOKEN).toString().padStart(18, "0");
  let shown = fraction.slice(0, digits).replace(/0+$/, "");
  if (!shown && whole === 0n && abs > 0n) shown = fraction.replace(/0+$/, "");
  const grouped = whole.toLocaleString("en-US");
  return `${negative ? "-" : ""}${grouped}${shown ? `.${shown}` : ""} ${symbol}`;
}

/** Paise worth `usdCents` at `inrMicrosPerUsd` (micro-rupees per dollar), rounded half up. */
export function usdCentsToPaise(usdCents: Minor, inrMicrosPerUsd: bigint | string): bigint {
  return (BigInt(usdCents) * BigInt(inrMicrosPerUsd) + 500_000n) / 1_000_000n;
}

/** US cents worth `wei` at `usdMicrosPerToken` (micro-dollars per whole token), rounded down. */
export function weiToCents(wei: bigint | string, usdMicrosPerToken: bigint | string): bigint {
  return (BigInt(wei) * BigInt(usdMicrosPerToken)) / (10_000n * WEI_PER_TOKEN);
}

/** The rates a price is shown at (GET /api/v1/rates, decimal strings). */
export interface DisplayRates {
  usdMicrosPerToken: Record<string, string>;
  inrMicrosPerUsd: string;
}

/**
 * A price to show: a dollar price (catalogue prices, orders), or a crypto amount (what the chain
 * holds). A dollar price may carry what was really charged: `paise` (a rupee payment; otherwise
 * rupees are converted at the current rate) and `wei` with `symbol` (a crypto payment).
 */
export type PriceInput =
  | { usdCents: Minor; paise?: Minor | null; wei?: bigint | string | null; symbol?: string | null }
  | { wei: bigint | string; symbol: string; digits?: number };

export interface PriceParts {
  /** "₹1,250" (absent only when no rate is known yet). */
  inr?: string;
  /** "$15" (absent for a crypto amount whose token has no rate). */
  usd?: string;
  /** "0.0052 ETH" for a crypto amount. */
  native?: string;
}

/** The parts of a price, ₹ then $ then crypto, at `rates` (parts without a rate are left out). */
export function priceParts(price: PriceInput, rates: DisplayRates | undefined): PriceParts {
  if ("usdCents" in price) {
    const paise = price.paise ?? (rates ? usdCentsToPaise(price.usdCents, rates.inrMicrosPerUsd) : undefined);
    return {
      ...(paise !== undefined ? { inr: formatInr(paise) } : {}),
      usd: formatUsd(price.usdCents),
      ...(price.wei && price.symbol ? { native: formatNative(price.wei, price.symbol) } : {}),
    };
  }
  const native = formatNative(price.wei, price.symbol, price.digits);
  const rate = rates?.usdMicrosPerToken[price.symbol];
  if (!rates || !rate) return { native };
  const cents = weiToCents(price.wei, rate);
  return {
    inr: formatInr(usdCentsToPaise(cents, rates.inrMicrosPerUsd)),
    usd: formatUsd(cents),
    native,
  };
}

/** A price as one line: "₹1,250 · $15" or "₹1,250 · $15 · 0.0052 ETH". */
export function formatPrice(price: PriceInput, rates: DisplayRates | undefined): string {
  const p = priceParts(price, rates);
  return [p.inr, p.usd, p.native].filter(Boolean).join(" · ");
}
