import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "./harness.ts";
import { createVerifiedUser, me, post, sessionCookie } from "./fixtures/accounts.ts";

/**
 * Google sign-in end to end against a real OpenID Connect provider (oidc-provider) on a local
 * port: discovery, authorization code + PKCE + state + nonce, the provider's own login and consent
 * pages (devInteractions), token exchange and ID-token validation by openid-client.
 */

interface Account {
  email: string;
  email_verified: boolean;
  name: string;
}
const accounts = new Map<string, Account>();

let server: http.Server;
let issuer: string;
let t: TestApp;

beforeAll(async () => {
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "diginoor-test",
        client_secret: "diginoor-test-secret-with-enough-entropy",
        redirect_uris: ["http://localhost:3000/api/v1/auth/google/callback"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    pkce: { required: () => true },
    cookies: { keys: ["oidc-test-cookie-key-0123456789"] },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
  });
  server.on("request", provider.callback());
  t = await createTestApp({
    GOOGLE_CLIENT_ID: "diginoor-test",
    GOOGLE_CLIENT_SECRET: "diginoor-test-secret-with-enough-entropy",
    GOOGLE_ISSUER_URL: issuer,
  });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server.close(resolve));
});

/** A tiny cookie jar for the browser side of the provider's pages. */
class Browser {
  jar = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = (pair ?? "").indexOf("=");
      const name = (pair ?? "").slice(0, i);
      const value = (pair ?? "").slice(i + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
}

/** Submits the provider's current interaction form (login or consent). */
async function submitInteraction(
  browser: Browser,
  pageUrl: string,
  fields: Record<string, string>,
): Promise<string> {
  const page = await browser.fetch(pageUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
  expect(action).toBeTruthy();
  const res = await browser.fetch(new URL(action as string, issuer).href, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  expect([302, 303]).toContain(res.status);
  return new URL(res.headers.get("location") as string, issuer).href;
}

/**
 * Runs the whole Google flow as a browser would, signing in at the provider as `accountId`.
 * Returns our callback's response.
 */
async function googleSignIn(accountId: string, next = "/profile") {
  const { app } = t;
  const start = await app.inject({
    method: "GET",
    url: `/api/v1/auth/google/start?next=${encodeURIComponent(next)}`,
  });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(authorize.searchParams.get("state")).toBeTruthy();
  expect(authorize.searchParams.get("nonce")).toBeTruthy();
  expect(authorize.searchParams.get("redirect_uri")).toBe(
    "http://localhost:3000/api/v1/auth/google/callback",
  );
  const flowCookie = start.cookies.find((c) => c.name === "diginoor_oidc");
  expect(flowCookie?.httpOnly).toBe(true);
  expect(flowCookie?.value).not.toContain(authorize.searchParams.get("code_challenge") as string);

  const browser = new Browser();
  let res = await browser.fetch(authorize.href);
  expect([302, 303]).toContain(res.status);
  let location = new URL(res.headers.get("location") as string, issuer).href;
  // Login prompt, then back to the authorization endpoint, then consent, then back again.
  location = await submitInteraction(browser, location, { prompt: "login", login: accountId, password: "x" });
  for (let i = 0; i < 6 && !location.startsWith("http://localhost:3000/"); i++) {
    if (new URL(location).pathname.startsWith("/interaction/")) {
      location = await submitInteraction(browser, location, { prompt: "consent" });
      continue;
    }
    res = await browser.fetch(location);
    expect([302, 303]).toContain(res.status);
    location = new URL(res.headers.get("location") as string, issuer).href;
  }
  expect(location.startsWith("http://localhost:3000/api/v1/auth/google/callback?")).toBe(true);
  const callback = new URL(location);
  const replay = () =>
    app.inject({
      method: "GET",
      url: `${callback.pathname}${callback.search}`,
      cookies: { diginoor_oidc: flowCookie?.value as string },
    });
  const res2 = await replay();
  return Object.assign(res2, { replay });
}

describe("Google sign-in (OpenID Connect)", () => {
  it("advertises the provider when configured", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/auth/providers" });
    expect(res.json()).toEqual({ google: true });
  });

  it("returns to a next path holding characters outside Latin-1, percent-encoded (issue 8 item 5)", async () => {
    accounts.set("g-tamil-1", { email: "tamil.fan@gmail.com", email_verified: true, name: "Tamil Fan" });
    const res = await googleSignIn("g-tamil-1", "/film/எந்திரன்?from=🎬");
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      `/film/${encodeURIComponent("எந்திரன்")}?from=${encodeURIComponent("🎬")}`,
    );
    expect(sessionCookie(res)).toBeTruthy();
  });

  it("creates a new verified user and signs in, returning to the same-site next path", async () => {
    accounts.set("g-new-1", { email: "New.Fan@Gmail.com", email_verified: true, name: "Ananya Rao" });
    const res = await googleSignIn("g-new-1", "/nft/42?tab=bids");
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/nft/42?tab=bids");
    const cookie = sessionCookie(res) as string;
    expect(cookie).toBeTruthy();
    const user = (await me(t.app, cookie)).json().user;
    expect(user).toMatchObject({
      email: "new.fan@gmail.com",
      name: "Ananya Rao",
      emailVerified: true,
      role: "user",
    });
    // The same Google account signs into the same user next time.
    const again = await googleSignIn("g-new-1");
    expect(again.headers.location).toBe("/profile");
    expect((await me(t.app, sessionCookie(again))).json().user.id).toBe(user.id);
    // A Google-only account has no password: password sign-in is refused like any wrong password.
    const pw = await post(t.app, "/api/v1/auth/login", {
      email: "new.fan@gmail.com",
      password: "anything-at-all",
    });
    expect(pw.statusCode).toBe(401);
  });

  it("signs a Google account whose verified email matches into the existing user", async () => {
    const existing = await createVerifiedUser(
      t.app,
      "ravi.kumar@example.com",
      "ravi-password-1",
      "Ravi Kumar",
    );
    accounts.set("g-ravi", {
      email: "RAVI.KUMAR@example.com",
      email_verified: true,
      name: "Ravi K (Google)",
    });
    const res = await googleSignIn("g-ravi", "https://evil.example/phish");
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/"); // off-site next is ignored
    const user = (await me(t.app, sessionCookie(res))).json().user;
    expect(user.id).toBe(existing.id);
    expect(user.name).toBe("Ravi Kumar");
    // The password still works too.
    expect(
      (
        await post(t.app, "/api/v1/auth/login", {
          email: "ravi.kumar@example.com",
          password: "ravi-password-1",
        })
      ).statusCode,
    ).toBe(200);
  });

  it("takes over a never-verified local account for the proven owner, dropping the squatter's password", async () => {
    const squat = await post(t.app, "/api/v1/auth/signup", {
      name: "Squatter",
      email: "owner@example.com",
      password: "squatter-password",
      confirmPassword: "squatter-password",
    });
    expect(squat.statusCode).toBe(201);
    accounts.set("g-owner", { email: "owner@example.com", email_verified: true, name: "Real Owner" });
    const res = await googleSignIn("g-owner");
    const user = (await me(t.app, sessionCookie(res))).json().user;
    expect(user).toMatchObject({ id: squat.json().user.id, emailVerified: true });
    const pw = await post(t.app, "/api/v1/auth/login", {
      email: "owner@example.com",
      password: "squatter-password",
    });
    expect(pw.statusCode).toBe(401);
  });

  it("does not sign a different Google identity into an account already linked to another", async () => {
    accounts.set("g-first", { email: "recycled@example.com", email_verified: true, name: "First Holder" });
    const first = await googleSignIn("g-first");
    const firstUser = (await me(t.app, sessionCookie(first))).json().user;
    // The address is later reassigned to another Google account (e.g. a Workspace address reused).
    accounts.set("g-second", { email: "recycled@example.com", email_verified: true, name: "New Holder" });
    const second = await googleSignIn("g-second");
    expect(second.statusCode).toBe(302);
    expect(second.headers.location).toBe("/login?error=google");
    expect(sessionCookie(second)).toBeUndefined();
    const rows = await t.ctx.database.query<{ google_sub: string | null }>(
      "SELECT google_sub FROM users WHERE id = $1",
      [firstUser.id],
    );
    expect(rows[0]?.google_sub).toBe("g-first");
  });

  it("applies the name rules to a provider's name (no markup or control characters)", async () => {
    accounts.set("g-markup", {
      email: "markup@example.com",
      email_verified: true,
      name: "<img src=x onerror=alert(1)>\nClick https://evil.example",
    });
    const res = await googleSignIn("g-markup");
    const user = (await me(t.app, sessionCookie(res))).json().user;
    expect(user.name).toBe("markup");
  });

  it("does not link or create an account for an unverified Google email", async () => {
    const victim = await createVerifiedUser(t.app, "meera@example.com", "meera-password-1", "Meera");
    accounts.set("g-attacker", { email: "meera@example.com", email_verified: false, name: "Not Meera" });
    const res = await googleSignIn("g-attacker");
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/login?error=google&reason=unverified_email");
    expect(sessionCookie(res)).toBeUndefined();
    const rows = await t.ctx.database.query<{ google_sub: string | null }>(
      "SELECT google_sub FROM users WHERE id = $1",
      [victim.id],
    );
    expect(rows[0]?.google_sub).toBeNull();
    const count = await t.ctx.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM users WHERE email = 'meera@example.com'",
    );
    expect(count[0]?.n).toBe(1);
  });

  it("refuses a callback without the flow cookie, with a forged state, or a replayed code", async () => {
    accounts.set("g-replay", { email: "replay@example.com", email_verified: true, name: "Replay" });
    const noCookie = await t.app.inject({
      method: "GET",
      url: "/api/v1/auth/google/callback?code=abc&state=xyz",
    });
    expect(noCookie.statusCode).toBe(302);
    expect(noCookie.headers.location).toBe("/login?error=google");
    expect(sessionCookie(noCookie)).toBeUndefined();
    const first = await googleSignIn("g-replay");
    expect(sessionCookie(first)).toBeTruthy();
    const replayed = await first.replay();
    expect(replayed.headers.location).toBe("/login?error=google");
    expect(sessionCookie(replayed)).toBeUndefined();
    const forged = await t.app.inject({
      method: "GET",
      url: "/api/v1/auth/google/callback?code=abc&state=xyz",
      cookies: { diginoor_oidc: JSON.stringify({ v: "a", state: "xyz", nonce: "n", next: "/" }) },
    });
    expect(forged.headers.location).toBe("/login?error=google");
  });
});
