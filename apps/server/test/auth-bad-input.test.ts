import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "./harness.ts";
import {
  createVerifiedUser,
  mailbox,
  me,
  ORIGIN,
  post,
  sessionCookie,
  tokenFromMail,
} from "./fixtures/accounts.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function userCount(): Promise<number> {
  const rows = await t.ctx.database.query<{ n: number }>("SELECT count(*)::int AS n FROM users");
  return Number(rows[0]?.n);
}

const good = {
  name: "Arjun Mehta",
  email: "arjun@example.com",
  password: "long-enough-1",
  confirmPassword: "long-enough-1",
};

describe("sign-up refuses bad input with clear 400s and stores nothing", () => {
  const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
    ["missing name", { ...good, name: undefined }, "name", "Name is required"],
    ["blank name", { ...good, name: "   " }, "name", "Name is required"],
    ["overlong name", { ...good, name: "x".repeat(101) }, "name", "Name must be at most 100 characters"],
    ["markup in the name", { ...good, name: "<img src=x onerror=alert(1)>" }, "name", /must not contain/],
    ["missing email", { ...good, email: undefined }, "email", "Email is required"],
    ["malformed email", { ...good, email: "not-an-email" }, "email", "Invalid email address"],
    ["email without a domain dot", { ...good, email: "a@b" }, "email", "Invalid email address"],
    ["email with two @", { ...good, email: "a@@b.com" }, "email", "Invalid email address"],
    ["overlong email", { ...good, email: `${"a".repeat(250)}@example.com` }, "email", /at most 254/],
    ["email that is not a string", { ...good, email: 42 }, "email", "Invalid email address"],
    [
      "short password",
      { ...good, password: "12345678", confirmPassword: "12345678" },
      "password",
      "Password must be at least 9 characters",
    ],
    [
      "overlong password",
      { ...good, password: "p".repeat(257), confirmPassword: "p".repeat(257) },
      "password",
      /at most 256/,
    ],
    [
      "mismatched confirmation",
      { ...good, confirmPassword: "long-enough-2" },
      "confirmPassword",
      "OMG..! Confirm Password Not Matched !",
    ],
    [
      "missing confirmation",
      { ...good, confirmPassword: undefined },
      "confirmPassword",
      "Confirm Password is required",
    ],
    ["phone without country code", { ...good, phone: "9876543210" }, "phone", /international format/],
    ["phone with letters", { ...good, phone: "+91 98765 CALLME" }, "phone", /international format/],
    ["phone too long", { ...good, phone: "+1234567890123456" }, "phone", /international format/],
    ["unknown field", { ...good, role: "admin" }, "role", /not a known field/],
  ];
  for (const [what, body, field, message] of cases) {
    it(`refuses ${what}`, async () => {
      const before = await userCount();
      const res = await post(t.app, "/api/v1/auth/signup", body);
      expect(res.statusCode).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe("validation_failed");
      const issue = (error.details as { field: string; message: string }[]).find((d) => d.field === field);
      expect(issue, JSON.stringify(error)).toBeDefined();
      if (typeof message === "string") expect(issue?.message).toBe(message);
      else expect(issue?.message).toMatch(message);
      expect(await userCount()).toBe(before);
    });
  }

  it("uses the first field's own message as the error message", async () => {
    const res = await post(t.app, "/api/v1/auth/signup", { ...good, confirmPassword: "different-1" });
    expect(res.json().error.message).toBe("OMG..! Confirm Password Not Matched !");
    const login = await post(t.app, "/api/v1/auth/login", { email: "nope", password: "whatever-1" });
    expect(login.statusCode).toBe(400);
    expect(login.json().error.message).toBe("Invalid email address");
  });

  it("refuses a body that is not JSON or not an object", async () => {
    const notJson = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/signup",
      payload: "{name:",
      headers: { "content-type": "application/json", origin: ORIGIN },
    });
    expect(notJson.statusCode).toBe(400);
    const array = await post(t.app, "/api/v1/auth/signup", [good]);
    expect(array.statusCode).toBe(400);
    expect(await userCount()).toBe(0);
  });

  it("refuses a duplicate email in other letter case with 409 and keeps one account", async () => {
    const first = await post(t.app, "/api/v1/auth/signup", { ...good, email: "dup@example.com" });
    expect(first.statusCode).toBe(201);
    const second = await post(t.app, "/api/v1/auth/signup", {
      ...good,
      name: "Other",
      email: "  DUP@Example.COM ",
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe("email_taken");
    const rows = await t.ctx.database.query<{ name: string }>(
      "SELECT name FROM users WHERE lower(email) = 'dup@example.com'",
    );
    expect(rows).toEqual([{ name: "Arjun Mehta" }]);
  });

  it("stores a phone given with spaces in E.164 and an empty phone as none", async () => {
    const res = await post(t.app, "/api/v1/auth/signup", {
      ...good,
      email: "phone@example.com",
      phone: "+91 (987) 654-3210",
    });
    expect(res.json().user.phone).toBe("+919876543210");
    const none = await post(t.app, "/api/v1/auth/signup", {
      ...good,
      email: "nophone@example.com",
      phone: "",
    });
    expect(none.json().user.phone).toBeNull();
  });
});

describe("verification and reset tokens", () => {
  it("refuses reused, expired, unknown and wrong-kind tokens", async () => {
    const email = "tokens@example.com";
    await post(t.app, "/api/v1/auth/signup", { ...good, email });
    const seen = new Set<string>();
    const { token } = await tokenFromMail(t.app, email, "/verify-email", seen);

    // Expired: move its expiry into the past.
    await t.ctx.database.query(
      "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'verify_email' AND email = $1",
      [email],
    );
    const expired = await post(t.app, "/api/v1/auth/verify-email", { token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toMatchObject({
      code: "invalid_token",
      message: "This link is invalid or has expired",
    });
    expect((await me(t.app)).statusCode).toBe(401);

    // A new link can be asked for; it works once.
    expect(
      (await post(t.app, "/api/v1/auth/resend-verification", { email: "TOKENS@example.com" })).statusCode,
    ).toBe(202);
    const fresh = await tokenFromMail(t.app, email, "/verify-email", seen);
    expect(fresh.token).not.toBe(token);
    expect((await post(t.app, "/api/v1/auth/verify-email", { token: fresh.token })).statusCode).toBe(200);
    expect((await post(t.app, "/api/v1/auth/verify-email", { token: fresh.token })).statusCode).toBe(400);

    // Unknown and malformed tokens.
    expect(
      (await post(t.app, "/api/v1/auth/verify-email", { token: "A".repeat(43) })).json().error.code,
    ).toBe("invalid_token");
    const malformed = await post(t.app, "/api/v1/auth/verify-email", { token: "../../etc/passwd" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe("This link is invalid or has expired");

    // A reset token is not a verification token, and expires too.
    expect((await post(t.app, "/api/v1/auth/password-reset", { email })).statusCode).toBe(202);
    const reset = await tokenFromMail(t.app, email, "/resetpass");
    expect((await post(t.app, "/api/v1/auth/verify-email", { token: reset.token })).statusCode).toBe(400);
    await t.ctx.database.query(
      "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'password_reset'",
    );
    const late = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token: reset.token,
      password: "new-password-9",
      confirmPassword: "new-password-9",
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe("invalid_token");
    expect((await post(t.app, "/api/v1/auth/login", { email, password: "new-password-9" })).statusCode).toBe(
      401,
    );
    expect((await post(t.app, "/api/v1/auth/login", { email, password: good.password })).statusCode).toBe(
      200,
    );
  });

  it("stores tokens only as hashes", async () => {
    const rows = await t.ctx.database.query<{ token_hash: string }>("SELECT token_hash FROM auth_tokens");
    expect(rows.length).toBeGreaterThan(0);
    const mails = await mailbox(t.app);
    for (const m of mails) {
      for (const link of m.links) {
        const token = new URL(link).searchParams.get("token") as string;
        expect(rows.some((r) => r.token_hash === token)).toBe(false);
      }
    }
    for (const r of rows) expect(r.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("sign-in does not reveal which accounts exist", () => {
  it("answers the same 401 for an unknown email and a wrong password", async () => {
    await createVerifiedUser(t.app, "known@example.com", "known-password-1");
    const unknown = await post(t.app, "/api/v1/auth/login", {
      email: "nobody@example.com",
      password: "known-password-1",
    });
    const wrong = await post(t.app, "/api/v1/auth/login", {
      email: "known@example.com",
      password: "wrong-password-1",
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().error).toEqual({ code: "invalid_credentials", message: "Invalid email or password" });
  });

  it("answers reset and resend for unknown addresses with the same 202, sending nothing", async () => {
    const before = (await mailbox(t.app)).length;
    const reset = await post(t.app, "/api/v1/auth/password-reset", { email: "ghost@example.com" });
    const resend = await post(t.app, "/api/v1/auth/resend-verification", { email: "ghost@example.com" });
    expect(reset.statusCode).toBe(202);
    expect(resend.statusCode).toBe(202);
    expect(reset.json()).toEqual({ ok: true });
    // Both mail jobs ran (and decided to send nothing): no waiting on a timer.
    for (;;) {
      const done = await t.ctx.database.query(
        "SELECT 1 FROM pgboss.job WHERE name = 'accounts.mail' AND data->>'email' = $1 AND state = 'completed'",
        ["ghost@example.com"],
      );
      if (done.length === 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await mailbox(t.app)).length).toBe(before);
  });

  it("does not tell an unverified user's wrong password apart from any other", async () => {
    await post(t.app, "/api/v1/auth/signup", { ...good, email: "unverified@example.com" });
    const wrong = await post(t.app, "/api/v1/auth/login", {
      email: "unverified@example.com",
      password: "wrong-password-1",
    });
    expect(wrong.statusCode).toBe(401);
    const right = await post(t.app, "/api/v1/auth/login", {
      email: "unverified@example.com",
      password: good.password,
    });
    expect(right.statusCode).toBe(403);
    expect(right.json().error.code).toBe("email_unverified");
    expect(sessionCookie(right)).toBeUndefined();
  });
});

describe("suspended accounts", () => {
  it("refuse sign-in with a clear message and end existing sessions", async () => {
    const { cookie, id } = await createVerifiedUser(t.app, "suspended@example.com", "suspend-me-1");
    expect((await me(t.app, cookie)).statusCode).toBe(200);
    await t.ctx.database.query("UPDATE users SET suspended_at = now() WHERE id = $1", [id]);
    expect((await me(t.app, cookie)).statusCode).toBe(401);
    const login = await post(t.app, "/api/v1/auth/login", {
      email: "suspended@example.com",
      password: "suspend-me-1",
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toEqual({
      code: "account_suspended",
      message: "Your account has been suspended. Contact support.",
    });
    // A wrong password still looks like any wrong password.
    const wrong = await post(t.app, "/api/v1/auth/login", {
      email: "suspended@example.com",
      password: "not-it-at-all",
    });
    expect(wrong.statusCode).toBe(401);
  });
});

describe("mail delivery failure", () => {
  it("keeps the account, reports the failure, and allows a resend", async () => {
    // Nothing listens on port 1: the SMTP connection is refused.
    const broken = await createTestApp({ SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      const res = await post(broken.app, "/api/v1/auth/signup", { ...good, email: "nomail@example.com" });
      expect(res.statusCode).toBe(201);
      expect(res.json().verificationEmailSent).toBe(false);
      const rows = await broken.ctx.database.query("SELECT id FROM users WHERE email = 'nomail@example.com'");
      expect(rows).toHaveLength(1);
      expect(
        (await post(broken.app, "/api/v1/auth/resend-verification", { email: "nomail@example.com" }))
          .statusCode,
      ).toBe(202);
      // With SMTP configured, nothing lands in the dev mailbox.
      expect(await mailbox(broken.app)).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
