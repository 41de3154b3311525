import { usdCentsToWei, weiToUsdCents } from "@diginoor/api/wallets";
import type { Config } from "../../config.ts";

/** Exchange rates as integers: micro-units (1e-6) so no float ever touches money. */
export interface Rates {
  /** USD micro-dollars per one whole native token, by symbol (ETH, POL). */
  usdMicrosPerToken: Record<string, bigint>;
  /** INR micro-rupees per one USD. */
  inrMicrosPerUsd: bigint;
}

/** Where rates come from. A provider may fetch; the rates service asks it for every quote. */
export interface RatesProvider {
  readonly name: string;
  current(): Promise<Rates>;
}

/** The local table from RATES_TABLE (the default provider). */
export function tableRatesProvider(table: Record<string, bigint>): RatesProvider {
  const { INR, ...tokens } = table;
  if (INR === undefined) throw new Error("rates table: INR is missing");
  const rates: Rates = { usdMicrosPerToken: tokens, inrMicrosPerUsd: INR };
  return { name: "table", current: async () => rates };
}

export function ratesProviderFromConfig(
  config: Pick<Config, "RATES_PROVIDER" | "RATES_TABLE">,
): RatesProvider {
  switch (config.RATES_PROVIDER) {
    case "table":
      return tableRatesProvider(config.RATES_TABLE);
  }
}

export { usdCentsToWei, weiToUsdCents };

/** Paise worth `usdCents` at `inrMicrosPerUsd`, rounded half up. */
export function usdCentsToInrPaise(usdCents: bigint, inrMicrosPerUsd: bigint): bigint {
  return (usdCents * inrMicrosPerUsd + 500_000n) / 1_000_000n;
}
