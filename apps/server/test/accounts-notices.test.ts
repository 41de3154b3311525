// Issue 8 item 9: only the newest password-reset link works; the old address hears of an email
// change and the user of a password change or reset (notices sent through the account mail job).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "./harness.ts";
import { type Mail, createVerifiedUser, mailbox, post, tokenFromMail } from "./fixtures/accounts.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Waits until a mail to `to` with `subject` arrives (jobs deliver asynchronously). */
async function mailTo(to: string, subject: string): Promise<Mail> {
  for (let i = 0; i < 250; i++) {
    const found = (await mailbox(t.app)).find((m) => m.to === to && m.subject === subject);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`No mail "${subject}" to ${to}`);
}

const CHANGED_EMAIL = "Your Diginoor email address was changed";
const CHANGED_PASSWORD = "Your Diginoor password was changed";

describe("password reset links", () => {
  it("a newer link revokes the older ones", async () => {
    const email = "two.links@example.com";
    await createVerifiedUser(t.app, email, "two-links-pass-1");
    const seen = new Set<string>();
    expect((await post(t.app, "/api/v1/auth/password-reset", { email })).statusCode).toBe(202);
    const { token: older } = await tokenFromMail(t.app, email, "/resetpass", seen);
    expect((await post(t.app, "/api/v1/auth/password-reset", { email })).statusCode).toBe(202);
    const { token: newer } = await tokenFromMail(t.app, email, "/resetpass", seen);
    expect(newer).not.toBe(older);

    const withOlder = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token: older,
      password: "two-links-pass-2",
      confirmPassword: "two-links-pass-2",
    });
    expect(withOlder.statusCode).toBe(400);
    expect(withOlder.json().error.code).toBe("invalid_token");
    const withNewer = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token: newer,
      password: "two-links-pass-3",
      confirmPassword: "two-links-pass-3",
    });
    expect(withNewer.statusCode).toBe(200);
    const login = await post(t.app, "/api/v1/auth/login", { email, password: "two-links-pass-3" });
    expect(login.statusCode).toBe(200);
  });
});

describe("security notices", () => {
  it("tells the old address when the email change is verified (and not before)", async () => {
    const u = await createVerifiedUser(t.app, "old.home@example.com", "moving-pass-1", "Mover Fan");
    const ask = await post(
      t.app,
      "/api/v1/me/email",
      { email: "new.home@example.com", currentPassword: "moving-pass-1" },
      { cookie: u.cookie },
    );
    expect(ask.statusCode).toBe(202);
    const { token } = await tokenFromMail(t.app, "new.home@example.com", "/verify-email");
    // Asking alone moves nothing, so nothing is announced yet.
    expect((await mailbox(t.app)).some((m) => m.subject === CHANGED_EMAIL)).toBe(false);
    expect((await post(t.app, "/api/v1/auth/verify-email", { token })).statusCode).toBe(200);

    const notice = await mailTo("old.home@example.com", CHANGED_EMAIL);
    expect(notice.text).toContain("Hello Mover Fan,");
    expect(notice.text).toContain("new.home@example.com");
    // A notice carries no token: nothing in it can be used to take the account.
    expect(notice.links.every((l) => !l.includes("token="))).toBe(true);
    expect((await mailbox(t.app)).filter((m) => m.subject === CHANGED_EMAIL)).toHaveLength(1);
  });

  it("tells the user when the password is changed", async () => {
    const u = await createVerifiedUser(t.app, "changer@example.com", "changer-pass-1", "Changer Fan");
    const changed = await post(
      t.app,
      "/api/v1/me/password",
      { currentPassword: "changer-pass-1", password: "changer-pass-2", confirmPassword: "changer-pass-2" },
      { cookie: u.cookie },
    );
    expect(changed.statusCode).toBe(200);
    const notice = await mailTo("changer@example.com", CHANGED_PASSWORD);
    expect(notice.text).toContain("Hello Changer Fan,");
    expect(notice.links).toEqual(["http://localhost:3000/login"]);
  });

  it("tells the user when the password is reset, and not when a reset link is only asked for", async () => {
    const email = "resetter@example.com";
    await createVerifiedUser(t.app, email, "resetter-pass-1");
    await post(t.app, "/api/v1/auth/password-reset", { email });
    const { token } = await tokenFromMail(t.app, email, "/resetpass");
    expect((await mailbox(t.app)).some((m) => m.to === email && m.subject === CHANGED_PASSWORD)).toBe(false);
    const confirmed = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token,
      password: "resetter-pass-2",
      confirmPassword: "resetter-pass-2",
    });
    expect(confirmed.statusCode).toBe(200);
    await mailTo(email, CHANGED_PASSWORD);
  });

  it("sends no notice when a wrong current password refuses the change", async () => {
    const u = await createVerifiedUser(t.app, "careful@example.com", "careful-pass-1");
    const refused = await post(
      t.app,
      "/api/v1/me/password",
      { currentPassword: "not-my-password", password: "careful-pass-2", confirmPassword: "careful-pass-2" },
      { cookie: u.cookie },
    );
    expect(refused.statusCode).toBe(400);
    // The jobs of this account so far (its verification mail) have all run: nothing else is queued.
    const queued = await t.ctx.database.query(
      "SELECT 1 FROM pgboss.job WHERE name = 'accounts.mail' AND data->>'kind' = 'password_changed' AND data->>'userId' = $1",
      [u.id],
    );
    expect(queued).toHaveLength(0);
  });
});
