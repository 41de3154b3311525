/** Basis points in one whole (the contracts' BPS). */
const BPS = 10_000n;

/**
 * How the marketplace splits a resale or an auction's winning bid, exactly as DiginoorMarketplace's
 * buy and settle do (integer division, each share rounded down): the studio's royalty, the platform's
 * fee, and what the seller receives. The sell dialogs show `sellerProceeds` as "You receive".
 */
export function saleSplit(
  priceWei: bigint,
  feeBps: number | bigint,
  royaltyBps: number | bigint,
): { royaltyAmount: bigint; platformFee: bigint; sellerProceeds: bigint } {
  const royaltyAmount = (priceWei * BigInt(royaltyBps)) / BPS;
  const platformFee = (priceWei * BigInt(feeBps)) / BPS;
  return { royaltyAmount, platformFee, sellerProceeds: priceWei - royaltyAmount - platformFee };
}
