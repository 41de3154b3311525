// Notification email (issue 12, decision 152): the important kinds are mailed once, with RFC 8058
// one-click unsubscribe headers; the link's POST turns that kind off without sign-in (later ones are
// stored but not mailed), a forged token changes nothing, other kinds still mail; preferences are
// the signed-in user's own.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Mail, mailbox } from "./fixtures/accounts.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const ORIGIN = "http://localhost:3000";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { jobPollingSeconds: 0.5 });
});
afterAll(async () => {
  await t?.close();
});

async function call(
  method: "GET" | "PUT" | "POST",
  url: string,
  o: { cookie?: string; body?: unknown } = {},
) {
  const res = await t.app.inject({
    method,
    url,
    headers: { origin: ORIGIN, ...(o.cookie ? { cookie: o.cookie } : {}) },
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    ...(o.body === undefined ? {} : { payload: o.body as object }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

const notify = (userId: string, kind: "outbid" | "auction_won" | "new_follower", text: string) =>
  t.ctx.services.notifications.notify(userId, {
    kind,
    text,
    link: "/nfttransfer/42",
    source: `test:${randomBytes(6).toString("hex")}`,
  });

const mailsTo = async (to: string, subject?: string) =>
  (await mailbox(t.app)).filter((m) => m.to === to && (!subject || m.subject === subject));

async function waitForMail(to: string, subject: string, count = 1): Promise<Mail[]> {
  for (let i = 0; i < 250; i++) {
    const found = await mailsTo(to, subject);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error(`no mail "${subject}" to ${to}`);
}

/** The states of the mail jobs enqueued for a notification (none when it is not to be mailed). */
const mailJobs = async (notificationId: string) =>
  (
    await t.ctx.database.query<{ state: string }>(
      "SELECT state FROM pgboss.job WHERE name = 'notifications.mail' AND data->>'notificationId' = $1",
      [notificationId],
    )
  ).map((r) => r.state);

/** Waits until the one mail job of a notification has run to its end (the positive signal). */
async function mailJobDone(notificationId: string): Promise<void> {
  await expect.poll(() => mailJobs(notificationId), { timeout: 10_000, interval: 40 }).toEqual(["completed"]);
}

const OUTBID = "You were outbid on Diginoor";
const WON = "You won an auction on Diginoor";

describe("notification email", () => {
  it("mails an outbid once with one-click unsubscribe; the link's POST turns outbid mail off", async () => {
    const a = await newSignedInUser(t.ctx, { name: "Asha Bidder" });
    const n = await notify(
      a.user.id,
      "outbid",
      "You were outbid on Kabali #1. Bid again before the auction ends.",
    );
    expect(n).toBeDefined();

    const [mail] = await waitForMail(a.user.email, OUTBID);
    expect(mail!.text).toContain("You were outbid on Kabali #1");
    expect(mail!.links).toContain(`${ORIGIN}/nfttransfer/42`);
    const header = mail!.headers["List-Unsubscribe"] as string;
    expect(header).toMatch(/^<http:\/\/localhost:3000\/api\/v1\/unsubscribe\?token=[A-Za-z0-9_.-]+>$/);
    expect(mail!.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const page = mail!.links.find((l) => l.startsWith(`${ORIGIN}/unsubscribe?token=`));
    expect(page).toBeDefined();
    const token = new URL(header.slice(1, -1)).searchParams.get("token") as string;
    expect(new URL(page as string).searchParams.get("token")).toBe(token);

    // Exactly one mail for the notification: its one job has completed, and sent one mail.
    await mailJobDone(n!.id);
    expect(await mailsTo(a.user.email, OUTBID)).toHaveLength(1);

    // GET describes the link and changes nothing (mail scanners prefetch GET links).
    const info = await call("GET", `/api/v1/unsubscribe?token=${token}`);
    expect(info).toEqual({ status: 200, body: { kind: "outbid", label: expect.any(String), email: true } });
    expect(
      (await call("GET", "/api/v1/me/notification-preferences", { cookie: a.cookie })).body.items,
    ).toContainEqual({
      kind: "outbid",
      email: true,
    });

    // A forged or altered token is refused and changes nothing.
    const [payload, mac] = token.split(".") as [string, string];
    const otherKind = Buffer.from(`${a.user.id}:auction_won`).toString("base64url");
    // The second-to-last character changed (the last one carries 4 bits only): to B if it was A.
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === "A" ? "B" : "A"}${mac.slice(-1)}`;
    for (const forged of [
      `${otherKind}.${mac}`,
      `${payload}.${flipped}`,
      `${payload}.${"A".repeat(43)}`,
      "not-a-token-at-all",
    ]) {
      expect((await call("POST", `/api/v1/unsubscribe?token=${forged}`)).status).toBe(400);
    }
    expect(
      (await call("GET", "/api/v1/me/notification-preferences", { cookie: a.cookie })).body.items,
    ).toEqual([
      { kind: "outbid", email: true },
      { kind: "auction_won", email: true },
      { kind: "nft_sold", email: true },
      { kind: "purchase_confirmed", email: true },
    ]);

    // RFC 8058: the mail provider POSTs the header's URL with a form body, no cookie and its own
    // Origin (or none): accepted, the token authorises.
    const res = await t.app.inject({
      method: "POST",
      url: header.slice(1, -1).replace(ORIGIN, ""),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.example.net" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: "outbid", email: false });
    expect(
      (await call("GET", "/api/v1/me/notification-preferences", { cookie: a.cookie })).body.items,
    ).toContainEqual({
      kind: "outbid",
      email: false,
    });

    // The next outbid is stored (and shown) but not mailed: no mail job was enqueued with it (they
    // commit together); another kind still mails.
    const quiet = await notify(
      a.user.id,
      "outbid",
      "You were outbid on Kabali #2. Bid again before the auction ends.",
    );
    expect(quiet).toBeDefined();
    expect(await mailJobs(quiet!.id)).toEqual([]);
    await notify(a.user.id, "auction_won", "You won the auction for Sivaji #3.");
    const [won] = await waitForMail(a.user.email, WON);
    expect(won!.headers["List-Unsubscribe"]).toMatch(/unsubscribe\?token=/);
    expect(won!.headers["List-Unsubscribe"]).not.toBe(header);
    expect(await mailsTo(a.user.email, OUTBID)).toHaveLength(1);
    const list = await call("GET", "/api/v1/notifications", { cookie: a.cookie });
    expect(list.body.items.filter((i: { kind: string }) => i.kind === "outbid")).toHaveLength(2);

    // Unsubscribing again is harmless; turning it back on mails again.
    expect((await call("POST", `/api/v1/unsubscribe?token=${token}`)).status).toBe(200);
    const on = await call("PUT", "/api/v1/me/notification-preferences", {
      cookie: a.cookie,
      body: { items: [{ kind: "outbid", email: true }] },
    });
    expect(on.status).toBe(200);
    await notify(a.user.id, "outbid", "You were outbid on Kabali #4. Bid again before the auction ends.");
    await waitForMail(a.user.email, OUTBID, 2);
  });

  it("mails nothing for kinds that are not emailed, nor to an unverified address", async () => {
    const u = await newSignedInUser(t.ctx, { name: "Quiet Fan", verified: false });
    const f = await newSignedInUser(t.ctx, { name: "Followed Fan" });
    const unverified = await notify(u.user.id, "outbid", "You were outbid on Chandramukhi #1.");
    const follower = await notify(f.user.id, "new_follower", "Someone follows you.");
    await notify(f.user.id, "auction_won", "You won the auction for Chandramukhi #2.");
    await waitForMail(f.user.email, WON);
    // A kind that is never mailed gets no mail job; the unverified address's job ran and sent nothing.
    expect(await mailJobs(follower!.id)).toEqual([]);
    await mailJobDone(unverified!.id);
    expect(await mailsTo(u.user.email)).toHaveLength(0);
    expect(await mailsTo(f.user.email)).toHaveLength(1);
  });
});

describe("notification preferences", () => {
  it("refuse signed-out users", async () => {
    expect((await call("GET", "/api/v1/me/notification-preferences")).status).toBe(401);
    const put = await call("PUT", "/api/v1/me/notification-preferences", {
      body: { items: [{ kind: "outbid", email: false }] },
    });
    expect(put.status).toBe(401);
  });

  it("change only the signed-in user's own", async () => {
    const a = await newSignedInUser(t.ctx, { name: "Owner One" });
    const b = await newSignedInUser(t.ctx, { name: "Other Two" });
    // Nothing in the request can name another user.
    const sneaky = await call("PUT", "/api/v1/me/notification-preferences", {
      cookie: b.cookie,
      body: { userId: a.user.id, items: [{ kind: "nft_sold", email: false }] },
    });
    expect(sneaky.status).toBe(400);
    const own = await call("PUT", "/api/v1/me/notification-preferences", {
      cookie: b.cookie,
      body: { items: [{ kind: "nft_sold", email: false }] },
    });
    expect(own.body.items).toContainEqual({ kind: "nft_sold", email: false });
    const mine = await call("GET", "/api/v1/me/notification-preferences", { cookie: a.cookie });
    expect(mine.body.items).toContainEqual({ kind: "nft_sold", email: true });
    // Kinds that are never mailed cannot be set.
    const bad = await call("PUT", "/api/v1/me/notification-preferences", {
      cookie: b.cookie,
      body: { items: [{ kind: "new_follower", email: false }] },
    });
    expect(bad.status).toBe(400);
  });
});
