import { describe, expect, it } from "vitest";
import { GAS_GOALS, measureGas } from "./gas.js";

describe("gas goals (transaction gas incl. 21,000 base)", () => {
  it("every measured operation meets its goal", async () => {
    const gas = await measureGas();
    for (const [op, goal] of Object.entries(GAS_GOALS)) {
      expect(gas[op], op).toBeLessThanOrEqual(goal);
    }
    for (const k of [
      "primaryPurchase",
      "minterMint",
      "list",
      "buyListing",
      "createAuction",
      "firstBid",
      "outbid",
      "settle",
    ]) {
      expect(gas[k], k).toBeGreaterThan(21_000);
    }
  });
});
