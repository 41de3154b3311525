import { describe, expect, it } from "vitest";
import { auctionTiming, EXTENSION_WINDOW_SECONDS as W, MAX_PAUSE_SECONDS as MAX } from "./pause.ts";

/** The same cases as DiginoorMarketplace.auctionEndsAt (packages/contracts/test/audit3.test.ts, finding 5). */
describe("auctionTiming", () => {
  const end = 1_000_000;

  it("no pause, or no bid yet: the stored end", () => {
    expect(auctionTiming(end, undefined, end - 10)).toEqual({ endsAt: end, paused: false });
    expect(auctionTiming(null, { name: "Paused", args: { endsBy: end + MAX } }, end)).toEqual({
      endsAt: null,
      paused: false,
    });
  });

  it("during a pause that began while it ran: paused, and the latest end it can have", () => {
    const pausedAt = end - 300;
    const p = { name: "Paused" as const, args: { endsBy: String(pausedAt + MAX) } };
    expect(auctionTiming(end, p, pausedAt + 10)).toEqual({ endsAt: pausedAt + MAX + W, paused: true });
    // An auction that had ended before the pause began is not affected (it can be settled).
    expect(auctionTiming(pausedAt - 1, p, pausedAt + 10)).toEqual({ endsAt: pausedAt - 1, paused: false });
  });

  it("right after an unpause: 15 minutes after it, when that is later than the stored end", () => {
    const u = {
      name: "Unpaused" as const,
      args: { pausedAt: end - 300, biddingUntil: String(end - 200 + W) },
    };
    expect(auctionTiming(end, u, end - 199)).toEqual({ endsAt: end - 200 + W, paused: false });
    // An auction ending well after the window keeps its end; one that began after the pause too.
    expect(auctionTiming(end + 2 * W, u, end)).toEqual({ endsAt: end + 2 * W, paused: false });
    expect(auctionTiming(end - 300, u, end)).toEqual({ endsAt: end - 300, paused: false });
  });

  it("a pause that ended by itself counts from its end", () => {
    const pausedAt = end - 60;
    const p = { name: "Paused" as const, args: { endsBy: pausedAt + MAX } };
    expect(auctionTiming(end, p, pausedAt + MAX + 1)).toEqual({ endsAt: pausedAt + MAX + W, paused: false });
  });
});
