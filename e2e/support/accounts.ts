import type { DevMailboxResponse } from "@diginoor/api/auth";
import { type APIRequestContext, expect } from "@playwright/test";

export const E2E_PASSWORD = "e2e-Wallet-pass-42";

/** The administrator playwright.config.ts creates with `npm run admin:create` before the server starts. */
export const E2E_ADMIN_EMAIL = "e2e-admin@example.com";

/**
 * Signs `request` in as the e2e administrator. The account has no password yet (admin:create
 * hands out a set-password link): the first call chooses one through the password-reset mail.
 */
let adminPassword: string | undefined;
export async function signInAsAdmin(request: APIRequestContext): Promise<void> {
  if (!adminPassword) {
    const reset = await request.post("/api/v1/auth/password-reset", { data: { email: E2E_ADMIN_EMAIL } });
    expect(reset.status(), await reset.text()).toBeLessThan(300);
    const token = await mailedToken(request, E2E_ADMIN_EMAIL, "/resetpass?token=");
    const confirm = await request.post("/api/v1/auth/password-reset/confirm", {
      data: { token, password: E2E_PASSWORD, confirmPassword: E2E_PASSWORD },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
    adminPassword = E2E_PASSWORD;
  }
  const login = await request.post("/api/v1/auth/login", {
    data: { email: E2E_ADMIN_EMAIL, password: adminPassword },
  });
  expect(login.status(), await login.text()).toBe(200);
}

export function uniqueEmail(tag: string) {
  return `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The newest link to `email` in the dev mailbox whose URL contains `pathPart`, with its `token`. */
async function mailedToken(request: APIRequestContext, email: string, pathPart: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get("/dev/mailbox/api");
        const body = (await res.json()) as DevMailboxResponse;
        const link = body.messages
          .find((m) => m.to.toLowerCase().includes(email))
          ?.links.find((l) => l.includes(pathPart));
        token = link ? (new URL(link).searchParams.get("token") ?? undefined) : undefined;
        return token;
      },
      { message: `${pathPart} mail to ${email}`, timeout: 15_000 },
    )
    .toBeTruthy();
  return token as string;
}

/**
 * Headers that make a set-up request come from its own client address, as a fan's own connection does
 * behind the load balancer (the e2e server believes X-Forwarded-For from loopback: TRUST_PROXY). The
 * suite signs up more fans than one address may in ten minutes; the sign-up limit itself stays on.
 */
export function asAnotherClient(): Record<string, string> {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return { "x-forwarded-for": `198.18.${byte()}.${byte()}` };
}

/**
 * A verified, signed-in account through the real API: sign up, follow the verification link from the
 * dev mailbox, sign in. `request` is a page's or context's request context, so the browser shares the
 * session cookie. For tests about something else than the accounts pages (those are e2e/accounts.spec.ts).
 */
export async function signUpAndSignIn(request: APIRequestContext, tag: string, name = "Wallet Fan") {
  const email = uniqueEmail(tag);
  // Each fan is a client of its own (its own address for the per-address rate limits): the whole
  // suite signs up more fans from this one machine than one address may verify and sign in.
  const headers = asAnotherClient();
  const signup = await request.post("/api/v1/auth/signup", {
    data: { name, email, password: E2E_PASSWORD, confirmPassword: E2E_PASSWORD },
    headers,
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = await mailedToken(request, email, "/verify-email?token=");
  const verify = await request.post("/api/v1/auth/verify-email", { data: { token }, headers });
  expect(verify.status(), await verify.text()).toBe(200);
  const login = await request.post("/api/v1/auth/login", {
    data: { email, password: E2E_PASSWORD },
    headers,
  });
  expect(login.status(), await login.text()).toBe(200);
  return { email, name };
}
