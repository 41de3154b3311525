import { randomUUID } from "node:crypto";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock } from "../src/platform/clock.ts";
import { fanWithWallet } from "./card-orders.ts";
import { httpApi, seedStudioFilmAndStar } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { ticketTraffic } from "./lottery-helpers.ts";

/**
 * The rupee KYC limit under one per-user lock shared by every order kind (issue 34 point 7): simultaneous
 * rupee orders of one fan, NFT orders and ticket orders of several lotteries, that together exceed the
 * yearly limit never all pass. Each kind had its own lock (an NFT order the fan's holds lock, a ticket
 * order its lottery's), so orders of different kinds, or tickets of two lotteries, summed the year's total
 * at the same time and each saw it under the limit.
 */

const HOUR = 3600_000;
const LIMIT_PAISE = 100_000n; // ₹1,000
let t: TestApp;
const clock = createTestClock(Date.now());
const api = httpApi(() => t.app);
const NFTS = ["kycnfta", "kycnftb", "kycnftc"];
const lotteries: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ KYC_INR_YEARLY_LIMIT_PAISE: LIMIT_PAISE.toString() }, { clock, chain: true });
  await seedStudioFilmAndStar(t.ctx.database, ANVIL_ADDRESSES[9]);
  for (const id of NFTS) {
    // $7 at 84.5 rupees per dollar: ₹591.50.
    await t.ctx.database.query(
      `INSERT INTO nfts (id, title, tier, category, film_id, celebrity_id, production_house_id, image_url,
         thumbnail_url, edition_size, editions_available, sale_type, price_usd_cents, auction_duration_days)
       VALUES ($1, $1, 'rare', 'Scene', 1, 1, 1, '/i.svg', '/t.svg', 20, 20, 'fixed', 700, NULL)`,
      [id],
    );
  }
  const admin = await newSignedInUser(t.ctx, { role: "admin" });
  for (let i = 0; i < 3; i++) {
    const created = await api<{ id: string }>("POST", "/api/v1/admin/lotteries", admin.cookie, {
      name: `KYC lock ${randomUUID().slice(0, 6)}`,
      ticketPriceCents: 300,
      minTickets: 5,
      opensAt: new Date(clock.now() + HOUR).toISOString(),
      closesAt: new Date(clock.now() + 3 * HOUR).toISOString(),
      prize: { kind: "pool", amountCents: 10_000 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    lotteries.push(created.body.id);
  }
  clock.advance(HOUR + 1000);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("the rupee KYC limit", () => {
  it("is checked under one lock per fan for every order kind: simultaneous NFT and ticket orders over the limit never all pass", async () => {
    const traffic = ticketTraffic(() => t, clock);
    for (let round = 0; round < 3; round++) {
      const fan = await fanWithWallet(t);
      // Three NFT orders (₹591.50 each) and three ticket orders of two tickets (₹507 each) at once: any two
      // of them exceed ₹1,000, so exactly one may be made without KYC.
      const answers = await Promise.all([
        ...NFTS.map((nftId) => api("POST", "/api/v1/orders", fan.cookie, { nftId, provider: "sandbox" })),
        ...lotteries.map((id) => traffic.buy(fan.cookie, id, { count: 2 })),
      ]);
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(statuses.filter((s) => s === 403)).toHaveLength(5);
      const [row] = await t.ctx.database.query<{ total: string }>(
        "SELECT COALESCE(sum(pay_amount_minor), 0)::text AS total FROM orders WHERE user_id = $1 AND pay_currency = 'inr'",
        [fan.userId],
      );
      expect(BigInt(row!.total)).toBeLessThanOrEqual(LIMIT_PAISE);
    }
  }, 120_000);
});
