import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../src/modules/accounts/password.ts";
import { pruneAuthData } from "../src/modules/accounts/service.ts";
import { type TestApp, createTestApp } from "./harness.ts";
import {
  createVerifiedUser,
  freshIp,
  me,
  ORIGIN,
  post,
  samplePng,
  sessionCookie,
  tokenFromMail,
  upload,
} from "./fixtures/accounts.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("CSRF defence", () => {
  it("refuses a cross-origin POST and changes nothing", async () => {
    const { cookie } = await createVerifiedUser(t.app, "csrf@example.com", "csrf-password-1", "Before");
    const evil = await t.app.inject({
      method: "PATCH",
      url: "/api/v1/me",
      payload: { name: "Hacked" },
      headers: { origin: "https://evil.example", cookie: `diginoor_session=${cookie}` },
    });
    expect(evil.statusCode).toBe(403);
    const password = await t.app.inject({
      method: "POST",
      url: "/api/v1/me/password",
      payload: {
        currentPassword: "csrf-password-1",
        password: "evil-password-1",
        confirmPassword: "evil-password-1",
      },
      headers: { "sec-fetch-site": "cross-site", cookie: `diginoor_session=${cookie}` },
    });
    expect(password.statusCode).toBe(403);
    const logout = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: { origin: "null", cookie: `diginoor_session=${cookie}` },
    });
    expect(logout.statusCode).toBe(403);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { email: "csrf@example.com", password: "csrf-password-1" },
      headers: { origin: "https://evil.example" },
    });
    expect(login.statusCode).toBe(403);
    expect(sessionCookie(login)).toBeUndefined();
    const user = (await me(t.app, cookie)).json().user;
    expect(user.name).toBe("Before");
  });

  it("sets the session cookie HttpOnly, SameSite=Lax and Secure when PUBLIC_URL is https", async () => {
    const https = await createTestApp({ PUBLIC_URL: "https://diginoor.example" });
    try {
      await https.ctx.database.query(
        "INSERT INTO users (name, email, password_hash, email_verified_at) VALUES ('Secure', 'secure@example.com', $1, now())",
        [await hashPassword("secure-password-1")],
      );
      const res = await https.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { email: "secure@example.com", password: "secure-password-1" },
        headers: { origin: "https://diginoor.example" },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(200);
      const header = String(res.headers["set-cookie"]);
      expect(header).toMatch(/diginoor_session=[A-Za-z0-9_-]{43}/);
      expect(header).toMatch(/HttpOnly/);
      expect(header).toMatch(/SameSite=Lax/);
      expect(header).toMatch(/Secure/);
      expect(header).toMatch(/Path=\//);
    } finally {
      await https.close();
    }
  });
});

describe("session cookies", () => {
  it("treats forged, malformed, expired and idle sessions as signed out (401, never 500)", async () => {
    const { cookie } = await createVerifiedUser(t.app, "sessions@example.com", "session-password-1");
    for (const forged of [
      randomBytes(32).toString("base64url"),
      "x",
      "'; DROP TABLE sessions; --",
      "%00%ff",
      "a".repeat(5000),
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/v1/me",
        headers: { cookie: `diginoor_session=${encodeURIComponent(forged)}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual({ code: "unauthorized", message: "Please Login to Continue" });
    }
    expect((await me(t.app, cookie)).statusCode).toBe(200);
    await t.ctx.database.query("UPDATE sessions SET expires_at = now() - interval '1 second'");
    expect((await me(t.app, cookie)).statusCode).toBe(401);

    const fresh = await post(t.app, "/api/v1/auth/login", {
      email: "sessions@example.com",
      password: "session-password-1",
    });
    const c2 = sessionCookie(fresh) as string;
    expect((await me(t.app, c2)).statusCode).toBe(200);
    await t.ctx.database.query("UPDATE sessions SET last_seen_at = now() - interval '8 days'");
    expect((await me(t.app, c2)).statusCode).toBe(401);
  });

  it("prunes expired and idle sessions but keeps live ones", async () => {
    const live = await createVerifiedUser(t.app, "prune@example.com", "prune-password-1");
    await t.ctx.database.query(
      `INSERT INTO sessions (id_hash, user_id, expires_at, last_seen_at) VALUES
        ('expired', $1, now() - interval '1 minute', now()),
        ('idle', $1, now() + interval '1 day', now() - interval '8 days')`,
      [live.id],
    );
    await pruneAuthData(t.ctx.db, { now: new Date(), maxSessionsPerUser: 20, unverifiedAccountDays: 7 });
    const left = await t.ctx.database.query<{ id_hash: string }>(
      "SELECT id_hash FROM sessions WHERE user_id = $1",
      [live.id],
    );
    expect(left.map((r) => r.id_hash)).not.toContain("expired");
    expect(left.map((r) => r.id_hash)).not.toContain("idle");
    expect(left).toHaveLength(1);
    expect((await me(t.app, live.cookie)).statusCode).toBe(200);
  });

  it("stores only a hash of the session id", async () => {
    const { cookie } = await createVerifiedUser(t.app, "hash@example.com", "hash-password-1");
    const rows = await t.ctx.database.query<{ id_hash: string }>("SELECT id_hash FROM sessions");
    expect(rows.some((r) => r.id_hash === cookie)).toBe(false);
    for (const r of rows) expect(r.id_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("rotates the session id at sign-in", async () => {
    const { cookie } = await createVerifiedUser(t.app, "rotate@example.com", "rotate-password-1");
    const again = await post(
      t.app,
      "/api/v1/auth/login",
      { email: "rotate@example.com", password: "rotate-password-1" },
      { cookie },
    );
    const next = sessionCookie(again) as string;
    expect(next).not.toBe(cookie);
    expect((await me(t.app, cookie)).statusCode).toBe(401);
    expect((await me(t.app, next)).statusCode).toBe(200);
  });

  it("GET requests never change state", async () => {
    const { cookie, id } = await createVerifiedUser(t.app, "get@example.com", "get-password-1");
    const before = await t.ctx.database.query("SELECT * FROM users WHERE id = $1", [id]);
    for (const url of [
      "/api/v1/auth/logout",
      "/api/v1/auth/password-reset?email=get@example.com",
      "/api/v1/auth/verify-email?token=abc",
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url,
        headers: { cookie: `diginoor_session=${cookie}` },
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await me(t.app, cookie)).statusCode).toBe(200);
    expect(await t.ctx.database.query("SELECT * FROM users WHERE id = $1", [id])).toEqual(before);
    const tokens = await t.ctx.database.query(
      "SELECT * FROM auth_tokens WHERE user_id = $1 AND kind = 'password_reset'",
      [id],
    );
    expect(tokens).toEqual([]);
  });
});

describe("rate limits (shared in PostgreSQL)", () => {
  it("answers the 11th of 50 rapid wrong passwords within a minute with 429 and Retry-After", {
    timeout: 60_000,
  }, async () => {
    await createVerifiedUser(t.app, "brute@example.com", "the-real-password-1");
    const ip = freshIp();
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await post(
        t.app,
        "/api/v1/auth/login",
        { email: "brute@example.com", password: `guess-number-${i}` },
        { ip },
      );
      statuses.push(res.statusCode);
      if (res.statusCode === 429 && !retryAfter) {
        retryAfter = res.headers["retry-after"] as string;
        expect(res.json().error.code).toBe("rate_limited");
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // Sliding window: the burst must slide out of the last minute, so at most two windows.
    expect(Number(retryAfter)).toBeLessThanOrEqual(120);
    // Even the right password is refused until the window passes.
    const right = await post(
      t.app,
      "/api/v1/auth/login",
      { email: "brute@example.com", password: "the-real-password-1" },
      { ip },
    );
    expect(right.statusCode).toBe(429);
  });

  it("limits one account across many addresses, and one address across many accounts", {
    timeout: 60_000,
  }, async () => {
    const perAccount: number[] = [];
    for (let i = 0; i < 11; i++) {
      perAccount.push(
        (await post(t.app, "/api/v1/auth/login", { email: "spread@example.com", password: `guess-${i}-xx` }))
          .statusCode,
      );
    }
    expect(perAccount.at(-1)).toBe(429);
    const ip = freshIp();
    const perIp: number[] = [];
    for (let i = 0; i < 21; i++) {
      perIp.push(
        (
          await post(
            t.app,
            "/api/v1/auth/login",
            { email: `user${i}@example.com`, password: "guess-guess" },
            { ip },
          )
        ).statusCode,
      );
    }
    expect(perIp.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(perIp[20]).toBe(429);
  });

  it("limits sign-up per address and reset / resend per address and per email", {
    timeout: 60_000,
  }, async () => {
    const ip = freshIp();
    const signups: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post(
        t.app,
        "/api/v1/auth/signup",
        {
          name: "Bulk",
          email: `bulk${i}@example.com`,
          password: "bulk-password",
          confirmPassword: "bulk-password",
        },
        { ip },
      );
      signups.push(res.statusCode);
    }
    expect(signups.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(signups[10]).toBe(429);
    const resets: number[] = [];
    for (let i = 0; i < 4; i++)
      resets.push(
        (await post(t.app, "/api/v1/auth/password-reset", { email: "bulk1@example.com" })).statusCode,
      );
    expect(resets).toEqual([202, 202, 202, 429]);
    const resends: number[] = [];
    for (let i = 0; i < 4; i++)
      resends.push(
        (await post(t.app, "/api/v1/auth/resend-verification", { email: "bulk2@example.com" })).statusCode,
      );
    expect(resends).toEqual([202, 202, 202, 429]);
  });
});

describe("one user can never read or change another's account", () => {
  it("has no accounts route that takes a user id", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json() as {
      paths: Record<string, unknown>;
    };
    const accountPaths = Object.keys(doc.paths).filter((p) => /^\/api\/v1\/(me|auth)(\/|$)/.test(p));
    expect(accountPaths.length).toBeGreaterThanOrEqual(12);
    // The parameters allowed are a mailed secret (the data export's one-time link) and a tax statement's
    // financial year and format, never an id.
    for (const p of accountPaths) expect(p).not.toMatch(/\{(?!token\}|financialYear\}|format\})/);
    expect(accountPaths.filter((p) => p.includes("{")).sort()).toEqual([
      "/api/v1/me/export/{token}",
      "/api/v1/me/tax/statements/{financialYear}/{format}",
    ]);
  });

  it("B's session acts only on B: profile, password, uploads, sign-out", async () => {
    const a = await createVerifiedUser(t.app, "alice@example.com", "alice-password-1", "Alice");
    const b = await createVerifiedUser(t.app, "bob@example.com", "bob-password-11", "Bob");

    // Profile.
    const patched = await post(t.app, "/api/v1/me", { name: "Bob B" }, { cookie: b.cookie, method: "PATCH" });
    expect(patched.json().user.id).toBe(b.id);
    expect((await me(t.app, a.cookie)).json().user.name).toBe("Alice");
    const smuggled = await post(
      t.app,
      "/api/v1/me",
      { name: "X", id: a.id },
      { cookie: b.cookie, method: "PATCH" },
    );
    expect(smuggled.statusCode).toBe(400);
    expect((await me(t.app, a.cookie)).json().user.name).toBe("Alice");

    // Uploads: B's upload never replaces or deletes A's file.
    const aUp = await upload(t.app, "avatar", a.cookie, await samplePng());
    const aUrl = aUp.json().user.avatarUrl as string;
    expect(aUrl).toContain(`/avatars/${a.id}/`);
    const bUp = await upload(t.app, "avatar", b.cookie, await samplePng(500, 400));
    const bUrl = bUp.json().user.avatarUrl as string;
    expect(bUrl).toContain(`/avatars/${b.id}/`);
    expect(bUrl).not.toBe(aUrl);
    expect((await me(t.app, a.cookie)).json().user.avatarUrl).toBe(aUrl);
    expect((await t.app.inject({ method: "GET", url: aUrl })).statusCode).toBe(200);

    // Sessions: B signing out or changing password leaves A's session alone.
    const b2 = sessionCookie(
      await post(t.app, "/api/v1/auth/login", { email: "bob@example.com", password: "bob-password-11" }),
    ) as string;
    expect((await post(t.app, "/api/v1/auth/logout", {}, { cookie: b.cookie })).statusCode).toBe(204);
    expect((await me(t.app, a.cookie)).statusCode).toBe(200);
    const change = await post(
      t.app,
      "/api/v1/me/password",
      { currentPassword: "bob-password-11", password: "bob-password-22", confirmPassword: "bob-password-22" },
      { cookie: b2 },
    );
    expect(change.statusCode).toBe(200);
    expect((await me(t.app, b2)).statusCode).toBe(401);
    expect((await me(t.app, a.cookie)).statusCode).toBe(200);
    // B cannot use A's current password to change A's password through B's session (there is no such route).
    expect(
      (await post(t.app, "/api/v1/auth/login", { email: "alice@example.com", password: "alice-password-1" }))
        .statusCode,
    ).toBe(200);
  });

  it("a reset link only resets the account it was sent for", async () => {
    const c = await createVerifiedUser(t.app, "carol@example.com", "carol-password-1");
    const d = await createVerifiedUser(t.app, "dave@example.com", "dave-password-11");
    await post(t.app, "/api/v1/auth/password-reset", { email: "carol@example.com" });
    const { token } = await tokenFromMail(t.app, "carol@example.com", "/resetpass");
    // Dave, signed in, uses Carol's token: it changes Carol's password only and ends Carol's sessions.
    const res = await post(
      t.app,
      "/api/v1/auth/password-reset/confirm",
      { token, password: "carol-new-pass", confirmPassword: "carol-new-pass" },
      { cookie: d.cookie },
    );
    expect(res.statusCode).toBe(200);
    expect((await me(t.app, c.cookie)).statusCode).toBe(401);
    // Dave's own session is untouched.
    expect((await me(t.app, d.cookie)).json().user.id).toBe(d.id);
    expect(
      (await post(t.app, "/api/v1/auth/login", { email: "dave@example.com", password: "dave-password-11" }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post(t.app, "/api/v1/auth/login", { email: "carol@example.com", password: "carol-new-pass" }))
        .statusCode,
    ).toBe(200);
  });
});

describe("email change", () => {
  it("changes the address only when the new address's link is used", async () => {
    const u = await createVerifiedUser(t.app, "old.address@example.com", "change-email-1");
    const wrong = await post(
      t.app,
      "/api/v1/me/email",
      { email: "new.address@example.com", currentPassword: "nope-nope-nope" },
      { cookie: u.cookie },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].field).toBe("currentPassword");
    const taken = await post(
      t.app,
      "/api/v1/me/email",
      { email: "ALICE@example.com", currentPassword: "change-email-1" },
      { cookie: u.cookie },
    );
    expect(taken.statusCode).toBe(409);
    const res = await post(
      t.app,
      "/api/v1/me/email",
      { email: "New.Address@example.com", currentPassword: "change-email-1" },
      { cookie: u.cookie },
    );
    expect(res.statusCode).toBe(202);
    expect((await me(t.app, u.cookie)).json().user.email).toBe("old.address@example.com");
    const { token, mail } = await tokenFromMail(t.app, "new.address@example.com", "/verify-email");
    expect(mail.subject).toMatch(/new/i);
    const verified = await post(t.app, "/api/v1/auth/verify-email", { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.email).toBe("new.address@example.com");
    expect(
      (
        await post(t.app, "/api/v1/auth/login", {
          email: "new.address@example.com",
          password: "change-email-1",
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(t.app, "/api/v1/auth/login", {
          email: "old.address@example.com",
          password: "change-email-1",
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe("email change race", () => {
  it("refuses the link if someone else took the address meanwhile", async () => {
    const u = await createVerifiedUser(t.app, "first.owner@example.com", "race-password-1");
    const asked = await post(
      t.app,
      "/api/v1/me/email",
      { email: "contested@example.com", currentPassword: "race-password-1" },
      { cookie: u.cookie },
    );
    expect(asked.statusCode).toBe(202);
    const { token } = await tokenFromMail(t.app, "contested@example.com", "/verify-email");
    const other = await post(t.app, "/api/v1/auth/signup", {
      name: "Quick",
      email: "contested@example.com",
      password: "quick-password",
      confirmPassword: "quick-password",
    });
    expect(other.statusCode).toBe(201);
    const res = await post(t.app, "/api/v1/auth/verify-email", { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe("email_taken");
    expect((await me(t.app, u.cookie)).json().user.email).toBe("first.owner@example.com");
  });
});

describe("roles", () => {
  it("admin:create promotes an existing user, creates a new admin with a set-password link, and suspends", async () => {
    const u = await createVerifiedUser(t.app, "boss@example.com", "boss-password-1");
    expect((await me(t.app, u.cookie)).json().user.role).toBe("user");
    const promoted = await t.ctx.services.accounts.promoteToAdmin("BOSS@example.com");
    expect(promoted).toEqual({ userId: u.id, created: false });
    expect((await me(t.app, u.cookie)).json().user.role).toBe("admin");

    const created = await t.ctx.services.accounts.promoteToAdmin("founder@example.com");
    expect(created.created).toBe(true);
    const token = new URL(created.setPasswordUrl as string).searchParams.get("token");
    const set = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token,
      password: "founder-pass-1",
      confirmPassword: "founder-pass-1",
    });
    expect(set.statusCode).toBe(200);
    const login = await post(t.app, "/api/v1/auth/login", {
      email: "founder@example.com",
      password: "founder-pass-1",
    });
    expect(login.json().user.role).toBe("admin");

    await t.ctx.services.accounts.setSuspended("boss@example.com", true);
    expect((await me(t.app, u.cookie)).statusCode).toBe(401);
    await t.ctx.services.accounts.setSuspended("boss@example.com", false);
    expect(
      (await post(t.app, "/api/v1/auth/login", { email: "boss@example.com", password: "boss-password-1" }))
        .statusCode,
    ).toBe(200);
  });
});

describe("dev mailbox", () => {
  it("is not served in production", async () => {
    // Production requires SMTP_URL; nothing here sends mail, so nothing connects to it.
    const prod = await createTestApp({ NODE_ENV: "production", SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      expect((await prod.app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
      expect((await prod.app.inject({ method: "GET", url: "/dev/mailbox/api" })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
    expect(ORIGIN).toBe("http://localhost:3000");
  });
});
