// The chain module's public surface for other modules: the runtime (clients, deployment, hot keys),
// the minter's nonce-ordered sends, and the marketplace's terms and clock.
export type { ChainRuntime } from "./runtime.ts";
export { createKeySender, createMinter, type Minter } from "./minter.ts";
export { createMarketView, type MarketTerms, type MarketView } from "./market.ts";
