import { randomUUID } from "node:crypto";
import type { KycStatus } from "@diginoor/api/kyc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signTimestamped } from "../src/lib/webhook-signature.ts";
import { sandboxSecret } from "../src/modules/orders/service.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { httpApi, until } from "./commerce-helpers.ts";
import { newSignedInUser } from "./factories.ts";
import { type TestApp, createTestApp } from "./harness.ts";
import { sandboxKyc } from "./kyc-helpers.ts";
import { ticketTraffic } from "./lottery-helpers.ts";

/**
 * KYC (issue 25 point 3, decision 175) through the sandbox provider over HTTP: not started → pending →
 * rejected → pending → verified, each webhook applied once (the sandbox sends every event twice), a
 * forged or stale one refused with nothing written, no document stored; and rupee purchases above the
 * yearly limit refused with `kyc_required` until the buyer is verified.
 */

const HOUR = 3600_000;
const LIMIT_PAISE = 100_000n; // ₹1,000
let t: TestApp;
const clock = createTestClock(Date.now());
const api = httpApi(() => t.app);
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);

beforeAll(async () => {
  t = await createTestApp({ KYC_INR_YEARLY_LIMIT_PAISE: LIMIT_PAISE.toString() }, { clock });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("KYC with the sandbox provider", () => {
  it("moves not started → pending → rejected → verified, applies each result once and stores no document", async () => {
    const fan = await newSignedInUser(t.ctx);
    expect((await api<KycStatus>("GET", "/api/v1/me/kyc", fan.cookie)).body).toMatchObject({
      state: "not_started",
      provider: null,
      inrYearlyLimitPaise: LIMIT_PAISE.toString(),
    });
    expect((await api("GET", "/api/v1/me/kyc")).status).toBe(401);

    const started = await api<{ url: string }>("POST", "/api/v1/me/kyc", fan.cookie);
    expect(started.status).toBe(201);
    expect(started.body.url).toMatch(/^http:\/\/localhost:3000\/sandbox\/kyc\/kyc_sandbox_[0-9a-f]{24}$/);
    expect((await api<KycStatus>("GET", "/api/v1/me/kyc", fan.cookie)).body.state).toBe("pending");
    const path = new URL(started.body.url).pathname;
    const page = await t.app.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Approve identity");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(
      (await t.app.inject({ method: "GET", url: "/sandbox/kyc/kyc_sandbox_000000000000000000000000" }))
        .statusCode,
    ).toBe(404);

    // Reject: the applicant is sent back to Edit Profile; the signed result follows, twice.
    const rejected = await t.app.inject({ method: "POST", url: `${path}/reject` });
    expect(rejected.statusCode).toBe(302);
    expect(rejected.headers.location).toBe("/profile/edit_profile?kyc=submitted#verify-identity");
    const afterReject = await until(
      "rejected",
      async () => (await api<KycStatus>("GET", "/api/v1/me/kyc", fan.cookie)).body,
      (s) => s.state === "rejected",
    );
    expect(afterReject.reason).toMatch(/could not be read/);
    // The duplicate copy arrives 1.5 s later and changes nothing.
    await new Promise((r) => setTimeout(r, 2500));
    const events = await q<{ n: string }>("SELECT count(*)::text AS n FROM kyc_events");
    expect(Number(events[0]!.n)).toBe(1);
    // A second press on a decided attempt sends nothing.
    expect((await t.app.inject({ method: "POST", url: `${path}/approve` })).statusCode).toBe(302);
    await new Promise((r) => setTimeout(r, 300));
    expect((await api<KycStatus>("GET", "/api/v1/me/kyc", fan.cookie)).body.state).toBe("rejected");

    // A forged, a stale and an unsigned webhook are refused with 400 and write nothing.
    const checks = await q<{ session: string }>("SELECT session FROM kyc_checks WHERE user_id = $1", [
      fan.user.id,
    ]);
    const body = JSON.stringify({
      id: `evt_forged_${randomUUID()}`,
      type: "verification.approved",
      created: Math.floor(clock.now() / 1000),
      data: { session: checks[0]!.session, applicantId: "appl_x", reason: null },
    });
    const now = Math.floor(clock.now() / 1000);
    for (const signature of [
      signTimestamped("not-the-secret-not-the-secret", body, now),
      signTimestamped(sandboxSecret(t.ctx.config), body, now - 3600),
      undefined,
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/webhooks/kyc/sandbox",
        payload: body,
        headers: {
          "content-type": "application/json",
          ...(signature ? { "x-sandbox-signature": signature } : {}),
        },
      });
      expect(res.statusCode).toBe(400);
    }
    expect((await q("SELECT 1 FROM kyc_events")).length).toBe(1);

    // Try again, approve: verified; starting once more is refused.
    const verified = await sandboxKyc(t, fan.user.id, "approve");
    expect(verified).toMatchObject({ state: "verified", provider: "sandbox", reason: null });
    expect(verified.decidedAt).toEqual(expect.any(String));
    const again = await api<{ error: { code: string } }>("POST", "/api/v1/me/kyc", fan.cookie);
    expect(again.status).toBe(409);

    // No identity document, number or picture in our database: only the provider's references and the result.
    const columns = await q<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'kyc_checks' ORDER BY column_name",
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      "created_at",
      "decided_at",
      "id",
      "provider",
      "provider_ref",
      "reason",
      "session",
      "state",
      "user_id",
    ]);
    const rows = await q<{ state: string; provider_ref: string }>(
      "SELECT state, provider_ref FROM kyc_checks WHERE user_id = $1 ORDER BY created_at",
      [fan.user.id],
    );
    expect(rows.map((r) => r.state)).toEqual(["rejected", "verified"]);
    expect(rows.every((r) => /^appl_sandbox_[0-9a-f]{24}$/.test(r.provider_ref))).toBe(true);
  }, 30_000);

  it("refuses rupee purchases above the yearly limit with kyc_required until the buyer is verified", async () => {
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const created = await api<{ id: string }>("POST", "/api/v1/admin/lotteries", admin.cookie, {
      name: `KYC draw ${randomUUID().slice(0, 6)}`,
      ticketPriceCents: 300,
      minTickets: 5,
      opensAt: new Date(clock.now() + HOUR).toISOString(),
      closesAt: new Date(clock.now() + 3 * HOUR).toISOString(),
      prize: { kind: "pool", amountCents: 10_000 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    clock.advance(HOUR + 1000);
    const traffic = ticketTraffic(() => t, clock);
    const fan = await newSignedInUser(t.ctx);
    // 3 tickets of $3 at 84.5 rupees per dollar = ₹760.50: under ₹1,000.
    const first = await traffic.paidTickets(created.body.id, 3, fan);
    expect(first.state).toBe("fulfilled");
    expect(first.payAmountMinor).toBe(76050);
    // One more ticket (₹253.50) would make ₹1,014: refused, nothing recorded.
    const before = await q("SELECT id FROM orders WHERE user_id = $1", [fan.user.id]);
    const refused = await traffic.buy(fan.cookie, created.body.id, { count: 1 });
    expect(refused.status).toBe(403);
    const err = refused.body as unknown as { error: { code: string; message: string } };
    expect(err.error.code).toBe("kyc_required");
    expect(err.error.message).toMatch(/above ₹1,000(\.00)? in a financial year need a verified identity/);
    expect(await q("SELECT id FROM orders WHERE user_id = $1", [fan.user.id])).toHaveLength(before.length);
    // Rejected is not enough; verified is.
    await sandboxKyc(t, fan.user.id, "reject");
    expect((await traffic.buy(fan.cookie, created.body.id, { count: 1 })).status).toBe(403);
    await sandboxKyc(t, fan.user.id, "approve");
    const allowed = await traffic.buy(fan.cookie, created.body.id, { count: 1 });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    // Another fan under the limit buys without KYC.
    const other = await newSignedInUser(t.ctx);
    expect((await traffic.buy(other.cookie, created.body.id, { count: 1 })).status).toBe(201);
  }, 30_000);
});
