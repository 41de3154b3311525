import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMail } from "../src/modules/accounts/service.ts";
import { accountsPrune } from "../src/modules/accounts/jobs.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { FACTORY_PASSWORD, newSession, newUser, uniqueEmail } from "./factories.ts";
import { me, post, sessionCookie, tokenFromMail } from "./fixtures/accounts.ts";
import { type TestApp, createTestApp } from "./harness.ts";

const DAY = 24 * 3600 * 1000;
let t: TestApp;
const clock = createTestClock(Date.now());

beforeAll(async () => {
  t = await createTestApp({ MAX_SESSIONS_PER_USER: "3", UNVERIFIED_ACCOUNT_DAYS: "7" }, { clock });
});
afterAll(() => t.close());

/** Polls (no fixed sleep) until `check` returns a truthy value. */
async function eventually<T>(check: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.ctx.database.query<{ n: number }>(sql, params))[0]?.n);

/** Makes every statement of `kind` on `table` fail, until the returned function is called. */
async function breakTable(table: string, kind: "DELETE" | "UPDATE", when = "true") {
  const fn = `fail_${table}_${kind.toLowerCase()}`;
  await t.ctx.database.exec(`
    CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected failure on ${table}'; END $$;
    CREATE TRIGGER ${fn} BEFORE ${kind} ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${fn}();`);
  return () => t.ctx.database.exec(`DROP TRIGGER ${fn} ON ${table}; DROP FUNCTION ${fn}();`);
}

describe("operations that write more than once run in one transaction", () => {
  it("password reset: a failure while ending sessions keeps the old password and the link usable", async () => {
    const user = await newUser(t.ctx);
    const session = await newSession(t.ctx, user.id);
    expect((await post(t.app, "/api/v1/auth/password-reset", { email: user.email })).statusCode).toBe(202);
    const { token } = await tokenFromMail(t.app, user.email, "/resetpass");

    const repair = await breakTable("sessions", "DELETE");
    const failed = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token,
      password: "brand-new-password-1",
      confirmPassword: "brand-new-password-1",
    });
    await repair();
    expect(failed.statusCode).toBe(500);
    // Nothing of it happened: old password works, the session lives, the link is unused.
    const login = await post(t.app, "/api/v1/auth/login", { email: user.email, password: FACTORY_PASSWORD });
    expect(login.statusCode).toBe(200);
    expect((await me(t.app, session.secret)).statusCode).toBe(200);
    const retried = await post(t.app, "/api/v1/auth/password-reset/confirm", {
      token,
      password: "brand-new-password-1",
      confirmPassword: "brand-new-password-1",
    });
    expect(retried.statusCode).toBe(200);
    expect((await me(t.app, session.secret)).statusCode).toBe(401);
  });

  it("password change: a failure while revoking links keeps the old password and every session", async () => {
    const user = await newUser(t.ctx);
    const session = await newSession(t.ctx, user.id);
    const repair = await breakTable("sessions", "DELETE");
    const res = await post(
      t.app,
      "/api/v1/me/password",
      {
        currentPassword: FACTORY_PASSWORD,
        password: "another-password-2",
        confirmPassword: "another-password-2",
      },
      { cookie: session.secret },
    );
    await repair();
    expect(res.statusCode).toBe(500);
    expect((await me(t.app, session.secret)).statusCode).toBe(200);
    const old = await post(t.app, "/api/v1/auth/login", { email: user.email, password: FACTORY_PASSWORD });
    expect(old.statusCode).toBe(200);
  });

  it("email change: a failure while revoking reset links leaves the address and the link as they were", async () => {
    const user = await newUser(t.ctx);
    const session = await newSession(t.ctx, user.id);
    const newEmail = uniqueEmail("moved");
    const ask = await post(
      t.app,
      "/api/v1/me/email",
      { email: newEmail, currentPassword: FACTORY_PASSWORD },
      { cookie: session.secret },
    );
    expect(ask.statusCode).toBe(202);
    const { token } = await tokenFromMail(t.app, newEmail, "/verify-email");
    // An outstanding reset link, which the change must revoke.
    await post(t.app, "/api/v1/auth/password-reset", { email: user.email });
    await tokenFromMail(t.app, user.email, "/resetpass");

    const repair = await breakTable("auth_tokens", "UPDATE", "OLD.kind = 'password_reset'");
    const failed = await post(t.app, "/api/v1/auth/verify-email", { token });
    await repair();
    expect(failed.statusCode).toBe(500);
    const row = await t.ctx.database.query<{ email: string }>("SELECT email FROM users WHERE id = $1", [
      user.id,
    ]);
    expect(row[0]?.email).toBe(user.email);
    const ok = await post(t.app, "/api/v1/auth/verify-email", { token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(newEmail);
  });
});

describe("mail on durable jobs", () => {
  it("sign-up commits the account and its mail job together; the job completes and the mail arrives once", async () => {
    const email = uniqueEmail("signup");
    const res = await post(t.app, "/api/v1/auth/signup", {
      name: "Job Fan",
      email,
      password: "job-password-1",
      confirmPassword: "job-password-1",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().verificationEmailSent).toBe(true);
    await tokenFromMail(t.app, email, "/verify-email");
    const jobs = await t.ctx.database.query<{ state: string; data: { email: string } }>(
      "SELECT state, data FROM pgboss.job WHERE name = $1 AND data->>'email' = $2",
      [accountMail.name, email],
    );
    expect(jobs).toEqual([
      { state: "completed", data: { kind: "verify_email", userId: expect.any(String), email } },
    ]);
    expect(await count("SELECT count(*)::int AS n FROM dev_mail WHERE to_address = $1", [email])).toBe(1);
  });

  it("a sign-up that fails (address taken) queues no mail", async () => {
    const user = await newUser(t.ctx);
    const before = await count("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [
      accountMail.name,
    ]);
    const res = await post(t.app, "/api/v1/auth/signup", {
      name: "Dup",
      email: user.email,
      password: "job-password-1",
      confirmPassword: "job-password-1",
    });
    expect(res.statusCode).toBe(409);
    expect(await count("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1", [accountMail.name])).toBe(
      before,
    );
  });

  it("when SMTP refuses, the mail job stays queued for retry with the error visible", async () => {
    const broken = await createTestApp({ SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      const email = uniqueEmail("nomail");
      const res = await post(broken.app, "/api/v1/auth/signup", {
        name: "No Mail",
        email,
        password: "job-password-1",
        confirmPassword: "job-password-1",
      });
      expect(res.json().verificationEmailSent).toBe(false);
      const [job] = await eventually(async () => {
        const retrying = await broken.ctx.jobs.list("retry", accountMail);
        return retrying.length ? retrying : null;
      });
      expect(job?.data).toMatchObject({ kind: "verify_email", email });
      expect(JSON.stringify(job?.output)).toMatch(/ECONNREFUSED|connect/);
      expect(job?.startAfter.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await broken.close();
    }
  });
});

describe("pruning and the session cap", () => {
  it("a sign-in beyond MAX_SESSIONS_PER_USER ends the least recently used sessions", async () => {
    const user = await newUser(t.ctx);
    const start = Date.now();
    const old = [];
    for (let i = 0; i < 3; i++) {
      old.push(await newSession(t.ctx, user.id, { createdAt: new Date(start - (10 - i) * 60_000) }));
    }
    const login = await post(t.app, "/api/v1/auth/login", { email: user.email, password: FACTORY_PASSWORD });
    expect(login.statusCode).toBe(200);
    const fresh = sessionCookie(login) as string;
    expect(await count("SELECT count(*)::int AS n FROM sessions WHERE user_id = $1", [user.id])).toBe(3);
    expect((await me(t.app, old[0]?.secret)).statusCode).toBe(401);
    expect((await me(t.app, old[2]?.secret)).statusCode).toBe(200);
    expect((await me(t.app, fresh)).statusCode).toBe(200);
  });

  it("the scheduled prune job removes what is dead and keeps what lives (moved by the clock, not by sleeping)", async () => {
    const schedules = await t.ctx.jobs.boss.getSchedules();
    expect(schedules.find((s) => s.name === "accounts.prune")?.cron).toBe("17 * * * *");

    const now = clock.now();
    const keptUser = await newUser(t.ctx, { createdAt: new Date(now) });
    const staleUnverified = await newUser(t.ctx, { verified: false, createdAt: new Date(now - 1 * DAY) });
    const freshUnverified = await newUser(t.ctx, { verified: false, createdAt: new Date(now + 5 * DAY) });
    const googleUnverified = await newUser(t.ctx, {
      verified: false,
      password: null,
      googleSub: `g-${Date.now()}`,
      createdAt: new Date(now - 30 * DAY),
    });
    const live = await newSession(t.ctx, keptUser.id, { createdAt: new Date(now + 7.5 * DAY) });
    const expired = await newSession(t.ctx, keptUser.id, { createdAt: new Date(now - 40 * DAY) });
    const extra = [];
    for (let i = 0; i < 4; i++) {
      extra.push(await newSession(t.ctx, keptUser.id, { createdAt: new Date(now + 7 * DAY + i * 1000) }));
    }
    await t.ctx.database.query(
      `INSERT INTO rate_limit_buckets (key, window_start, count) VALUES
         ('prune:old', $1, 3), ('prune:recent', $2, 3)`,
      [new Date(now - 1 * DAY), new Date(now + 7.5 * DAY)],
    );

    clock.advance(8 * DAY);
    const id = await t.ctx.jobs.enqueue(accountsPrune, {});
    await eventually(
      async () => (await t.ctx.jobs.get("accounts.prune", id as string))?.state === "completed",
    );

    const users = await t.ctx.database.query<{ id: string }>("SELECT id FROM users WHERE id = ANY($1)", [
      [keptUser.id, staleUnverified.id, freshUnverified.id, googleUnverified.id],
    ]);
    expect(users.map((u) => u.id).sort()).toEqual(
      [keptUser.id, freshUnverified.id, googleUnverified.id].sort(),
    );
    const left = (
      await t.ctx.database.query<{ id_hash: string }>("SELECT id_hash FROM sessions WHERE user_id = $1", [
        keptUser.id,
      ])
    ).map((r) => r.id_hash);
    expect(left).toContain(live.idHash);
    expect(left).not.toContain(expired.idHash);
    // Cap of 3: the live one (newest) and the two newest of the extra four.
    expect(left.sort()).toEqual([live.idHash, extra[3]?.idHash, extra[2]?.idHash].sort());
    const buckets = await t.ctx.database.query<{ key: string }>(
      "SELECT key FROM rate_limit_buckets WHERE key LIKE 'prune:%'",
    );
    expect(buckets.map((b) => b.key)).toEqual(["prune:recent"]);
  });
});
