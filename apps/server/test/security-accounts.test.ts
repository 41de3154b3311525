import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ipSubject } from "../src/lib/rate-limit.ts";
import { type TestApp, createTestApp } from "./harness.ts";
import { createVerifiedUser, me, post, sessionCookie, tokenFromMail } from "./fixtures/accounts.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("a password change or reset ends pending email changes", () => {
  it("refuses an email-change link asked for before the password was changed", async () => {
    const u = await createVerifiedUser(t.app, "pending.owner@example.com", "pending-password-1");
    // Someone who knew the old password asks to move the account to their own address…
    const ask = await post(
      t.app,
      "/api/v1/me/email",
      { email: "thief@example.com", currentPassword: "pending-password-1" },
      { cookie: u.cookie },
    );
    expect(ask.statusCode).toBe(202);
    const { token } = await tokenFromMail(t.app, "thief@example.com", "/verify-email");
    // …the owner notices and changes the password.
    const changed = await post(
      t.app,
      "/api/v1/me/password",
      {
        currentPassword: "pending-password-1",
        password: "pending-password-2",
        confirmPassword: "pending-password-2",
      },
      { cookie: u.cookie },
    );
    expect(changed.statusCode).toBe(200);
    const used = await post(t.app, "/api/v1/auth/verify-email", { token });
    expect(used.statusCode).toBe(400);
    const login = await post(t.app, "/api/v1/auth/login", {
      email: "pending.owner@example.com",
      password: "pending-password-2",
    });
    expect(login.json().user.email).toBe("pending.owner@example.com");
  });

  it("refuses an email-change link asked for before a password reset", async () => {
    const u = await createVerifiedUser(t.app, "reset.owner@example.com", "reset-owner-pass-1");
    await post(
      t.app,
      "/api/v1/me/email",
      { email: "reset.thief@example.com", currentPassword: "reset-owner-pass-1" },
      { cookie: u.cookie },
    );
    const { token: change } = await tokenFromMail(t.app, "reset.thief@example.com", "/verify-email");
    expect(
      (await post(t.app, "/api/v1/auth/password-reset", { email: "reset.owner@example.com" })).statusCode,
    ).toBe(202);
    const { token: reset } = await tokenFromMail(t.app, "reset.owner@example.com", "/resetpass");
    const confirmed = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token: reset,
      password: "reset-owner-pass-2",
      confirmPassword: "reset-owner-pass-2",
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await post(t.app, "/api/v1/auth/verify-email", { token: change })).statusCode).toBe(400);
  });
});

describe("admin:create on a never-verified account", () => {
  it("does not make a squatter's password an administrator's", async () => {
    const squat = await post(t.app, "/api/v1/auth/signup", {
      name: "Squatter",
      email: "boss@example.com",
      password: "squatter-pass-1",
      confirmPassword: "squatter-pass-1",
    });
    expect(squat.statusCode).toBe(201);
    const { token: verify } = await tokenFromMail(t.app, "boss@example.com", "/verify-email");
    const result = await t.ctx.services.accounts.promoteToAdmin("boss@example.com");
    expect(result.userId).toBe(squat.json().user.id);
    expect(result.setPasswordUrl).toMatch(/\/resetpass\?token=/);
    // The squatter's sign-up link (clicked by the unsuspecting owner) no longer verifies anything…
    expect((await post(t.app, "/api/v1/auth/verify-email", { token: verify })).statusCode).toBe(400);
    // …and the squatter's password does not sign in.
    const login = await post(t.app, "/api/v1/auth/login", {
      email: "boss@example.com",
      password: "squatter-pass-1",
    });
    expect(login.statusCode).toBe(401);
    // The owner sets a password with the printed link and is an admin.
    const token = new URL(result.setPasswordUrl as string).searchParams.get("token") as string;
    const set = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token,
      password: "owner-password-1",
      confirmPassword: "owner-password-1",
    });
    expect(set.statusCode).toBe(200);
    const owner = await post(t.app, "/api/v1/auth/login", {
      email: "boss@example.com",
      password: "owner-password-1",
    });
    expect(owner.statusCode).toBe(200);
    expect((await me(t.app, sessionCookie(owner))).json().user.role).toBe("admin");
  });
});

describe("per-address rate limits and IPv6", () => {
  it("counts one IPv6 /64 as one client (rotating addresses in it does not escape the sign-up limit)", async () => {
    const codes: number[] = [];
    for (let i = 1; i <= 11; i++) {
      const res = await post(
        t.app,
        "/api/v1/auth/signup",
        {
          name: "Rotator",
          email: `rotator${i}@example.com`,
          password: "rotator-pass-1",
          confirmPassword: "rotator-pass-1",
        },
        { ip: `2001:db8:7:7::${i.toString(16)}` },
      );
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes[10]).toBe(429);
    // Another /64 is another client.
    const other = await post(
      t.app,
      "/api/v1/auth/signup",
      {
        name: "Other",
        email: "other64@example.com",
        password: "rotator-pass-1",
        confirmPassword: "rotator-pass-1",
      },
      { ip: "2001:db8:7:8::1" },
    );
    expect(other.statusCode).toBe(201);
  });

  it("normalises addresses to their subject", () => {
    expect(ipSubject("203.0.113.9")).toBe("203.0.113.9");
    expect(ipSubject("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(ipSubject("2001:db8:7:7::1")).toBe("2001:db8:7:7::/64");
    expect(ipSubject("2001:0db8:0007:0007:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:7:7::/64");
    expect(ipSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipSubject("::1")).toBe("0:0:0:0::/64");
    expect(ipSubject("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});

describe("mail content injection", () => {
  it("never puts a stranger-typed name into mail sent to an unproven address", async () => {
    const name = "Your wallet is locked, restore it at evil.example";
    const signup = await post(t.app, "/api/v1/auth/signup", {
      name,
      email: "phish.target@example.com",
      password: "phisher-pass-1",
      confirmPassword: "phisher-pass-1",
    });
    expect(signup.statusCode).toBe(201);
    const { mail } = await tokenFromMail(t.app, "phish.target@example.com", "/verify-email");
    expect(mail.text).not.toContain("evil.example");
    expect(mail.html).not.toContain("evil.example");
    // A reset asked for the never-verified account does not carry it either.
    await post(t.app, "/api/v1/auth/password-reset", { email: "phish.target@example.com" });
    const { mail: reset } = await tokenFromMail(t.app, "phish.target@example.com", "/resetpass");
    expect(reset.text).not.toContain("evil.example");
    // An email change sends the account's name to an address it does not own yet: not shown either.
    const u = await createVerifiedUser(
      t.app,
      "namer@example.com",
      "namer-password-1",
      "Claim at evil.example",
    );
    await post(
      t.app,
      "/api/v1/me/email",
      { email: "someone.else@example.com", currentPassword: "namer-password-1" },
      { cookie: u.cookie },
    );
    const { mail: change } = await tokenFromMail(t.app, "someone.else@example.com", "/verify-email");
    expect(change.text).not.toContain("evil.example");
  });

  it("still greets a verified owner by name in a reset mail", async () => {
    await createVerifiedUser(t.app, "named.owner@example.com", "named-owner-1", "Priya Sharma");
    await post(t.app, "/api/v1/auth/password-reset", { email: "named.owner@example.com" });
    const { mail } = await tokenFromMail(t.app, "named.owner@example.com", "/resetpass");
    expect(mail.text).toContain("Hello Priya Sharma,");
  });
});

describe("per-account rate-limit keys", () => {
  it("count case and whitespace variants of one email as the same account", async () => {
    await createVerifiedUser(t.app, "variant@example.com", "variant-password-1");
    const variants = [
      "variant@example.com",
      "VARIANT@example.com",
      " Variant@Example.com ",
      "variant@EXAMPLE.COM",
    ];
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post(t.app, "/api/v1/auth/login", {
        email: variants[i % variants.length],
        password: "wrong-guess-000",
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
