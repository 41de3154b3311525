import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import type { Clock } from "../../platform/clock.ts";
import type { ChainRuntime } from "./runtime.ts";

/** Market terms read from the chain are reused this long. */
const TERMS_TTL_MS = 60_000;
/** The chain's latest block time is read at most this often. */
const CHAIN_TIME_TTL_MS = 2000;

export interface MarketTerms {
  primaryFeeBps: number;
  minIncrementBps: number;
}

/** What the marketplace contract and the chain's clock say, cached briefly. */
export interface MarketView {
  /** The marketplace's primary fee and minimum bid increment (read at most once a minute). */
  terms(): Promise<MarketTerms>;
  /**
   * The chain's clock in ms: the latest block's time, or ours if the chain is behind. They agree on
   * a real chain; a development chain's time can be advanced (auction tests), and deadlines the
   * contract checks (voucher expiry, auction end) are in its time. Ours when there is no chain.
   */
  now(): Promise<number>;
}

export function createMarketView(chain: ChainRuntime | undefined, clock: Clock): MarketView {
  let terms: (MarketTerms & { at: number }) | undefined;
  let chainTime: { at: number; ms: number } | undefined;
  return {
    async terms() {
      if (!chain) throw new Error("no chain");
      if (terms && clock.now() - terms.at < TERMS_TTL_MS) return terms;
      const address = chain.deployment.marketplace;
      const [primaryFeeBps, minIncrementBps] = await Promise.all([
        chain.publicClient.readContract({
          address,
          abi: diginoorMarketplaceAbi,
          functionName: "primaryFeeBps",
        }),
        chain.publicClient.readContract({
          address,
          abi: diginoorMarketplaceAbi,
          functionName: "minIncrementBps",
        }),
      ]);
      terms = {
        at: clock.now(),
        primaryFeeBps: Number(primaryFeeBps),
        minIncrementBps: Number(minIncrementBps),
      };
      return terms;
    },
    async now() {
      const now = clock.now();
      if (!chain) return now;
      if (!chainTime || now - chainTime.at > CHAIN_TIME_TTL_MS) {
        const block = await chain.publicClient.getBlock({ blockTag: "latest" });
        chainTime = { at: now, ms: Number(block.timestamp) * 1000 };
      }
      return Math.max(now, chainTime.ms + (now - chainTime.at));
    },
  };
}
