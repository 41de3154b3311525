import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { type TestApp, createTestApp } from "./harness.ts";
import {
  createVerifiedUser,
  me,
  post,
  sampleJpeg,
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

describe("the life of an account", () => {
  it("sign up → verify by mail → sign in → edit → avatar → change password → reset → sign in", async () => {
    const { app } = t;
    const email = "Priya.Sharma@Example.com";
    const normalised = "priya.sharma@example.com";
    const seen = new Set<string>();

    // Sign up.
    const signup = await post(app, "/api/v1/auth/signup", {
      name: "Priya Sharma",
      phone: "+91 98765 43210",
      email,
      password: "first-password-1",
      confirmPassword: "first-password-1",
    });
    expect(signup.statusCode).toBe(201);
    const created = signup.json();
    expect(created.verificationEmailSent).toBe(true);
    expect(created.user).toMatchObject({
      name: "Priya Sharma",
      email: normalised,
      phone: "+919876543210",
      emailVerified: false,
      role: "user",
      avatarUrl: null,
    });
    expect(JSON.stringify(created)).not.toMatch(/argon2|password/i);
    expect(sessionCookie(signup)).toBeUndefined();

    // Unverified: the correct password is refused with the spec's message.
    const early = await post(app, "/api/v1/auth/login", { email, password: "first-password-1" });
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toMatchObject({
      code: "email_unverified",
      message: "Please verify your email address",
    });

    // The verification mail arrives, with HTML and text versions and a PUBLIC_URL link.
    const { token: verifyToken, mail } = await tokenFromMail(app, normalised, "/verify-email", seen);
    expect(mail.links[0]).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(mail.links[0]?.replace(/&/g, "&amp;"));
    expect(mail.text).toContain(mail.links[0]);
    const page = await app.inject({ method: "GET", url: "/dev/mailbox" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="${mail.links[0]}"`);
    expect(page.body).toContain("Verify your Diginoor email address");

    const verified = await post(app, "/api/v1/auth/verify-email", { token: verifyToken });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.emailVerified).toBe(true);
    const again = await post(app, "/api/v1/auth/verify-email", { token: verifyToken });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: "invalid_token",
      message: "This link is invalid or has expired",
    });

    // Sign in (two devices), with the email in other letter case.
    const login = await post(app, "/api/v1/auth/login", {
      email: "PRIYA.sharma@example.COM",
      password: "first-password-1",
    });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookie(login) as string;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const setCookie = String(login.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // PUBLIC_URL is http here
    const login2 = await post(app, "/api/v1/auth/login", { email, password: "first-password-1" });
    const otherDevice = sessionCookie(login2) as string;
    expect(otherDevice).not.toBe(cookie);
    expect((await me(app, cookie)).json().user.email).toBe(normalised);

    // Change the profile.
    const patch = await post(
      app,
      "/api/v1/me",
      { name: "Priya S.", phone: "+14155550123" },
      { cookie, method: "PATCH" },
    );
    expect(patch.statusCode).toBe(200);
    expect(patch.json().user).toMatchObject({ name: "Priya S.", phone: "+14155550123" });
    expect((await me(app, otherDevice)).json().user.name).toBe("Priya S.");

    // Upload an avatar: re-encoded WebP, 256×256, metadata gone, served under /media.
    const avatar = await upload(app, "avatar", cookie, await sampleJpeg(), "me.jpg", "image/jpeg");
    expect(avatar.statusCode).toBe(200);
    const avatarUrl = avatar.json().user.avatarUrl as string;
    expect(avatarUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\/[0-9a-f]{32}\.webp$/);
    const served = await app.inject({ method: "GET", url: avatarUrl });
    expect(served.statusCode).toBe(200);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("secret-location-data"))).toBe(false);
    const small = await app.inject({ method: "GET", url: avatarUrl.replace(/\.webp$/, "-64.webp") });
    expect((await sharp(small.rawPayload).metadata()).width).toBe(64);

    // Change the password: every session ends, the current one included.
    const change = await post(
      app,
      "/api/v1/me/password",
      {
        currentPassword: "first-password-1",
        password: "second-password-2",
        confirmPassword: "second-password-2",
      },
      { cookie },
    );
    expect(change.statusCode).toBe(200);
    expect(change.json()).toEqual({ ok: true });
    expect((await me(app, cookie)).statusCode).toBe(401);
    expect((await me(app, otherDevice)).statusCode).toBe(401);
    expect((await post(app, "/api/v1/auth/login", { email, password: "first-password-1" })).statusCode).toBe(
      401,
    );
    const login3 = await post(app, "/api/v1/auth/login", { email, password: "second-password-2" });
    expect(login3.statusCode).toBe(200);
    const third = sessionCookie(login3) as string;

    // Reset the password by mail.
    const reset = await post(app, "/api/v1/auth/password-reset", { email: "priya.SHARMA@example.com" });
    expect(reset.statusCode).toBe(202);
    expect(reset.json()).toEqual({ ok: true });
    const { token: resetToken, mail: resetMail } = await tokenFromMail(app, normalised, "/resetpass", seen);
    expect(resetMail.links[0]).toMatch(/^http:\/\/localhost:3000\/resetpass\?token=/);
    const mismatch = await post(app, "/api/v1/auth/password-reset/confirm", {
      token: resetToken,
      password: "third-password-3",
      confirmPassword: "third-password-X",
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.message).toBe("OMG..! Confirm Password Not Matched !");
    const confirm = await post(app, "/api/v1/auth/password-reset/confirm", {
      token: resetToken,
      password: "third-password-3",
      confirmPassword: "third-password-3",
    });
    expect(confirm.statusCode).toBe(200);
    expect((await me(app, third)).statusCode).toBe(401);
    const reuse = await post(app, "/api/v1/auth/password-reset/confirm", {
      token: resetToken,
      password: "fourth-password-4",
      confirmPassword: "fourth-password-4",
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe("invalid_token");

    // Sign in with the new password; the old ones no longer work.
    expect((await post(app, "/api/v1/auth/login", { email, password: "second-password-2" })).statusCode).toBe(
      401,
    );
    const final = await post(app, "/api/v1/auth/login", { email, password: "third-password-3" });
    expect(final.statusCode).toBe(200);
    const finalCookie = sessionCookie(final) as string;
    const profile = (await me(app, finalCookie)).json().user;
    expect(profile).toMatchObject({ name: "Priya S.", email: normalised, emailVerified: true, avatarUrl });

    // Sign out.
    const out = await post(app, "/api/v1/auth/logout", {}, { cookie: finalCookie });
    expect(out.statusCode).toBe(204);
    expect((await me(app, finalCookie)).statusCode).toBe(401);
  });
});

describe("GET /api/v1/session (the web app's session probe)", () => {
  const session = (cookie?: string) =>
    t.app.inject({
      method: "GET",
      url: "/api/v1/session",
      headers: cookie ? { cookie: `diginoor_session=${cookie}` } : {},
    });

  it("answers 200 with user null for a visitor, where /api/v1/me stays 401", async () => {
    const visitor = await session();
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ user: null });
    expect(visitor.headers["cache-control"]).toBe("no-store");
    const forged = await session("not-a-real-session");
    expect(forged.statusCode).toBe(200);
    expect(forged.json()).toEqual({ user: null });
    expect((await me(t.app)).statusCode).toBe(401);
  });

  it("answers the signed-in user as /api/v1/me does, and null again after sign-out", async () => {
    const { cookie, id } = await createVerifiedUser(t.app, "session.probe@example.com");
    const signedIn = await session(cookie);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user).toMatchObject({
      id,
      email: "session.probe@example.com",
      emailVerified: true,
    });
    expect(signedIn.json()).toEqual((await me(t.app, cookie)).json());
    expect((await post(t.app, "/api/v1/auth/logout", {}, { cookie })).statusCode).toBe(204);
    expect((await session(cookie)).json()).toEqual({ user: null });
  });
});
