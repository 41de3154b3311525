/**
 * An auction's true end and state around a marketplace pause, as the contract computes them
 * (DiginoorMarketplace.auctionEndsAt, docs/decisions/108): an auction that was running when a pause began
 * takes bids until EXTENSION_WINDOW after the pause ended. The indexer records the marketplace's `Paused`
 * (`endsBy`: when it ends by itself) and `Unpaused` (`pausedAt`, `biddingUntil`) events; the latest one
 * says everything: PAUSE_COOLDOWN (1 hour) > EXTENSION_WINDOW, so an earlier pause can no longer matter.
 */

/** DiginoorMarketplace.EXTENSION_WINDOW, seconds. */
export const EXTENSION_WINDOW_SECONDS = 15 * 60;
/** DiginoorMarketplace.MAX_PAUSE_DURATION, seconds. */
export const MAX_PAUSE_SECONDS = 7 * 24 * 60 * 60;

/** The latest Paused or Unpaused event of the marketplace (args as the indexer stored them). */
export type PauseEvent =
  | { name: "Paused"; args: { endsBy: string | number } }
  | { name: "Unpaused"; args: { pausedAt: string | number; biddingUntil: string | number } };

export interface AuctionTiming {
  /** Unix seconds when bidding closes (null before the first bid); the latest it can be while paused. */
  endsAt: number | null;
  /** Trading is paused now and this auction was running when the pause began: no bids until it ends. */
  paused: boolean;
}

/** The true end of an auction whose stored end is `storedEnd` (unix seconds), at chain time `nowSec`. */
export function auctionTiming(
  storedEnd: number | null,
  last: PauseEvent | undefined,
  nowSec: number,
): AuctionTiming {
  if (storedEnd === null || !last) return { endsAt: storedEnd, paused: false };
  let pausedAt: number;
  let unpausedAt: number;
  if (last.name === "Paused") {
    const endsBy = Number(last.args.endsBy);
    pausedAt = endsBy - MAX_PAUSE_SECONDS;
    if (nowSec < endsBy) {
      if (pausedAt >= storedEnd) return { endsAt: storedEnd, paused: false };
      return { endsAt: Math.max(storedEnd, endsBy + EXTENSION_WINDOW_SECONDS), paused: true };
    }
    unpausedAt = endsBy; // it ended by itself
  } else {
    pausedAt = Number(last.args.pausedAt);
    unpausedAt = Number(last.args.biddingUntil) - EXTENSION_WINDOW_SECONDS;
  }
  const window = unpausedAt + EXTENSION_WINDOW_SECONDS;
  if (pausedAt < storedEnd && window > storedEnd) return { endsAt: window, paused: false };
  return { endsAt: storedEnd, paused: false };
}
