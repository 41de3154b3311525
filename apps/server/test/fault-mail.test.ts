import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, type ServerDatabase } from "./pg-server.ts";
import { freePort, killAllServers, type ServerProcess, startServerProcess } from "./server-process.ts";
import { postgresPass } from "./passes.ts";

/**
 * Issue 26: mail cannot be sent. A real server process sends through a local SMTP server (the
 * smtp-server package: SMTP as nodemailer, our real client, speaks it) that goes away; fans sign up
 * meanwhile. The mail jobs fail, are retried with the queue's backoff (MAIL_RETRY_SECONDS, then about
 * twice as long each time), and once the SMTP server is back every mail arrives exactly once. The outage
 * lasts OUTAGE_MS (8 s here, a minute in the issue: what matters is that retries fall inside it, and
 * with a first retry 2 to 4 s after each failure every job's does).
 */
const OUTAGE_MS = 8_000;
const MAIL_RETRY_SECONDS = 2;
const SIGNUPS = 6;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "diginoor-fault-mail-"));
let db: ServerDatabase;
let port: number;
let smtp: SMTPServer | undefined;
const received: { to: string; subject: string; at: number }[] = [];

function startSmtp(): Promise<void> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (d: Buffer) => {
        raw += d.toString();
      });
      stream.on("end", () => {
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";
        for (const to of session.envelope.rcptTo) received.push({ to: to.address, subject, at: Date.now() });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    smtp!.once("error", reject);
    smtp!.listen(port, "127.0.0.1", () => resolve());
  });
}

function stopSmtp(): Promise<void> {
  return new Promise((resolve) => smtp!.close(() => resolve()));
}

beforeAll(async () => {
  db = await createServerDatabase();
  port = await freePort();
  await startSmtp();
}, 60_000);
afterAll(async () => {
  killAllServers();
  if (smtp) await stopSmtp();
  await db?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function signup(s: ServerProcess, email: string) {
  const res = await fetch(`${s.base}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: s.base },
    body: JSON.stringify({
      name: "Mail Fan",
      email,
      password: "mail-outage-9",
      confirmPassword: "mail-outage-9",
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { verificationEmailSent: boolean };
}

const mailJobs = () =>
  db.database.query<{ state: string; retry_count: number }>(
    "SELECT state, retry_count FROM pgboss.job WHERE name = 'accounts.mail'",
  );

async function until(what: string, fn: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(postgresPass)("SMTP server down", () => {
  it("mail jobs retry with backoff and each mail arrives exactly once when it is back", async () => {
    const s = await startServerProcess(
      {
        DATABASE_URL: db.url,
        DATA_DIR: tmp,
        SESSION_SECRET: "mail-fault-secret-mail-fault-secret-0001",
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        SEED_ON_START: "0",
        LOG_LEVEL: "warn",
        // Mail only: no anvil, contracts or bundler of its own.
        CHAIN_DISABLED: "1",
        WORKERS: "on",
        MAIL_RETRY_SECONDS: String(MAIL_RETRY_SECONDS),
      },
      { waitReady: true },
    );
    // The path works: a sign-up's mail arrives while the SMTP server is up.
    const first = await signup(s, "before-outage@example.com");
    await until("the first mail", async () => received.length === 1, 30_000);
    expect(first.verificationEmailSent).toBe(true);

    await stopSmtp();
    const downAt = Date.now();
    const emails = Array.from({ length: SIGNUPS }, (_, i) => `during-outage-${i}@example.com`);
    const answers = [];
    for (const email of emails) answers.push(await signup(s, email));
    // Every new mail job has failed at least once: a positive sign that the outage was seen.
    await until(
      "every mail job failing once",
      async () =>
        (await mailJobs()).filter((j) => j.state === "retry" || j.retry_count >= 1).length === SIGNUPS,
      OUTAGE_MS + 5_000,
    );
    const failedWhileDown = (await mailJobs()).filter((j) => j.state === "retry").length;
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - downAt))));
    await startSmtp();
    const upAt = Date.now();

    await until(
      "every mail job completed",
      async () => (await mailJobs()).every((j) => j.state === "completed"),
      120_000,
    );
    const jobs = await mailJobs();
    const late = received.filter((m) => m.at >= upAt);
    const perAddress = new Map<string, number>();
    for (const m of received) perAddress.set(m.to, (perAddress.get(m.to) ?? 0) + 1);
    const attempts = jobs.reduce((n, j) => n + j.retry_count + 1, 0);
    console.log(
      `[fault-mail] SMTP down ${upAt - downAt} ms; ${SIGNUPS} sign-ups meanwhile answered 201 (verificationEmailSent=${answers.map((a) => a.verificationEmailSent).join(",")}); ${failedWhileDown} mail jobs failed and waiting to retry while it was down; the mails arrived ${late.map((m) => m.at - upAt).join(", ")} ms after the SMTP server was back (retried with backoff); ${jobs.length} mail jobs, ${attempts} attempts in all; mails per address: ${JSON.stringify(Object.fromEntries(perAddress))}`,
    );
    expect(answers.every((a) => a.verificationEmailSent === false)).toBe(true);
    expect(received.map((m) => m.to).sort()).toEqual(["before-outage@example.com", ...emails].sort());
    expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(received.map((m) => m.subject))).toEqual(new Set(["Verify your Diginoor email address"]));
    expect(late).toHaveLength(SIGNUPS);
    // Each outage job failed its first retry too (inside the outage): it took three attempts or more.
    expect(jobs.filter((j) => j.retry_count >= 2)).toHaveLength(SIGNUPS);
    await s.terminate();
  }, 180_000);
});
