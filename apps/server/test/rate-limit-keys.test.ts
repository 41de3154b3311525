// Rate-limit keys hold no personal value in clear (issue 37 point 10, decision 188): sign-in attempts,
// reset and verification requests and password checks count under the HMAC of their subject (the
// server's key), the counts still work, and an erased account leaves no counter behind. Both engines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSession, newUser, uniqueEmail } from "./factories.ts";
import { ORIGIN } from "./fixtures/accounts.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const keys = async () =>
  (
    await t.ctx.database.query<{ key: string; count: number }>("SELECT key, count FROM rate_limit_buckets")
  ).map((r) => r);
const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload: payload as Record<string, unknown>,
  });

/** Every bucket whose key holds one of `values`, in any case. */
async function holding(values: string[]) {
  const all = await keys();
  return all.filter((r) => values.some((v) => r.key.toLowerCase().includes(v.toLowerCase())));
}

describe("rate-limit keys", () => {
  it("never hold the email, the user id or the address in clear, and still count", async () => {
    const email = uniqueEmail("Rate.Keys");
    const user = await newUser(t.ctx, { email: email.toLowerCase() });
    const typed = email.toUpperCase().replace("@EXAMPLE.COM", "@Example.com");
    for (let i = 0; i < 3; i++) {
      const res = await post("/api/v1/auth/login", { email: typed, password: "wrong-password-1" });
      expect(res.statusCode).toBe(401);
    }
    expect((await post("/api/v1/auth/password-reset", { email: typed })).statusCode).toBeLessThan(300);
    expect((await post("/api/v1/auth/resend-verification", { email: typed })).statusCode).toBeLessThan(300);
    // A signed-in password check (counted per user id).
    const { cookie } = await newSession(t.ctx, user.id);
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/v1/me/password",
      headers: { origin: ORIGIN, cookie },
      payload: { currentPassword: "not-the-password-1", newPassword: "a-new-password-1234" },
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);

    expect(await holding([email, user.id, "127.0.0.1"])).toEqual([]);
    // The attempts are counted, under the subject's HMAC.
    const login = (await keys()).filter((r) => r.key.startsWith("login:account:"));
    const mine = login.filter((r) =>
      r.key.includes(`:${t.ctx.rateLimiter.subjectKey(email.toLowerCase())}:`),
    );
    expect(mine.map((r) => r.count).reduce((a, b) => a + b, 0)).toBe(3);
    for (const r of await keys()) expect(r.key).toMatch(/^[a-z0-9:-]+:[A-Za-z0-9_-]{43}(:\d+)?$/);

    // The limit still bites: 10 per account and minute.
    let refused = 0;
    for (let i = 0; i < 10; i++) {
      const res = await post("/api/v1/auth/login", { email: typed, password: "wrong-password-1" });
      if (res.statusCode === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
  });

  it("an erased account leaves no counter of its email or id behind", async () => {
    const email = uniqueEmail("erased");
    const user = await newUser(t.ctx, { email });
    for (let i = 0; i < 2; i++)
      expect((await post("/api/v1/auth/login", { email, password: "wrong-password-1" })).statusCode).toBe(
        401,
      );
    const hashed = [email, user.id].map((s) => t.ctx.rateLimiter.subjectKey(s));
    expect((await holding(hashed)).length).toBeGreaterThan(0);

    expect(await t.ctx.services.privacy.erase(user.id)).toBe(true);
    expect(await holding([email, user.id, ...hashed])).toEqual([]);
    // Attempts with the address after the erasure write no clear value either.
    expect((await post("/api/v1/auth/login", { email, password: "wrong-password-1" })).statusCode).toBe(401);
    expect(await holding([email, user.id])).toEqual([]);
  });

  it("the migration drops the counters written in clear before, and keeps hashed ones", async () => {
    const at = new Date().toISOString();
    const hashed = `login:account:${t.ctx.rateLimiter.subjectKey("someone@example.com")}:123`;
    const clear = [
      "login:account:someone@example.com:123",
      "reset:email:Someone@Example.com:7",
      "password-check:user:00000000-0000-4000-8000-000000000000:9",
      "login:ip:203.0.113.9:9",
      "signup:ip:2001:db8:1:2::/64:9",
    ];
    for (const key of [hashed, ...clear])
      await t.ctx.database.query(
        "INSERT INTO rate_limit_buckets (key, window_start, count) VALUES ($1, $2, 1)",
        [key, at],
      );
    const sql = readFileSync(
      path.join(import.meta.dirname, "../src/db/migrations/0195_rate_limit_keys_hashed.sql"),
      "utf8",
    );
    await t.ctx.database.query(sql);
    const left = (await keys()).map((r) => r.key);
    expect(left).toContain(hashed);
    for (const key of clear) expect(left).not.toContain(key);
  });
});
