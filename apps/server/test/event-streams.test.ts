// Issue 23 points 2 and 15: live event streams are capped per account (signed-in streams) and per
// client address (anonymous streams), 429 too_many_streams beyond; a stream ends with its session
// (sign-out, suspension by an administrator, password change); every event has an `id:` and a client
// reconnecting with Last-Event-ID gets exactly the events it missed, in order, then live ones.
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { pruneAuthData } from "../src/modules/accounts/service.ts";
import { SESSION_COOKIE, toApiUser } from "../src/modules/accounts/session.ts";
import {
  openStreamCount,
  publishToUser,
  pruneLiveEvents,
  REPLAY_EVENTS,
  REPLAY_HOURS,
} from "../src/modules/events/service.ts";
import { FACTORY_PASSWORD, newSession, newSignedInUser } from "./factories.ts";
import { ORIGIN } from "./fixtures/accounts.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { newOpenLottery } from "./lottery-helpers.ts";
import type { PubSub } from "../src/platform/pubsub/pubsub.ts";
import { type EventStream, openEventStream } from "./sse-client.ts";

const PER_USER = 3;
const PER_ADDRESS = 4;

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({
    SSE_HEARTBEAT_MS: "5000",
    SSE_MAX_STREAMS_PER_USER: String(PER_USER),
    SSE_MAX_STREAMS_PER_ADDRESS: String(PER_ADDRESS),
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // fetch's pool may hold a connection that never sent a request; the server would wait for its
  // idle timeout (HTTP_IDLE_TIMEOUT_MS) before closing. Every stream is closed by now.
  t.app.server.closeAllConnections();
  await t.close();
});

const opened: EventStream[] = [];
async function open(path: string, headers: Record<string, string> = {}) {
  const s = await openEventStream(`${base}${path}`, headers);
  opened.push(s);
  if (s.status === 200) await s.waitFor((text) => text.includes(": connected"));
  return s;
}
/** Opens a stream that must be refused with 429; returns the error body. */
async function refused(path: string, headers: Record<string, string> = {}) {
  const s = await openEventStream(`${base}${path}`, headers);
  opened.push(s);
  expect(s.status).toBe(429);
  await s.ended();
  return JSON.parse(s.text()) as { error: { code: string; message: string } };
}
// Each test closes what it opened, and the server's books must show every stream gone.
afterEach(async () => {
  for (const s of opened.splice(0)) s.close();
  await serverHolds(0);
});
/** Waits for the server's books to show `n` open streams (no sleeps: polls what it counts). */
async function serverHolds(n: number) {
  const end = Date.now() + 5000;
  while (openStreamCount(t.app) !== n) {
    if (Date.now() > end) throw new Error(`server holds ${openStreamCount(t.app)} streams, not ${n}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
const names = (text: string) => [...text.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]);
/** Renames the user: one `profile.updated` event. */
async function rename(cookie: string, name: string) {
  const res = await fetch(`${base}/api/v1/me`, {
    method: "PATCH",
    headers: { cookie, origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(200);
}

describe("point 2: stream caps", () => {
  it("defaults to 5 streams per account and 20 per address", () => {
    const c = loadConfig({});
    expect([c.SSE_MAX_STREAMS_PER_USER, c.SSE_MAX_STREAMS_PER_ADDRESS]).toEqual([5, 20]);
  });

  it("refuses one more stream than the account's cap with 429 too_many_streams, on both endpoints, and frees the slot when one closes", async () => {
    const fan = await newSignedInUser(t.ctx);
    // Two sessions of one account (a phone and a laptop) share the account's cap.
    const other = await newSession(t.ctx, fan.user.id);
    const paths = ["/api/v1/events", "/api/v1/notifications/stream", "/api/v1/events"];
    const streams: EventStream[] = [];
    for (const [i, path] of paths.entries()) {
      const s = await open(path, { cookie: i === 1 ? other.cookie : fan.cookie });
      expect(s.status).toBe(200);
      streams.push(s);
    }
    for (const path of ["/api/v1/events", "/api/v1/notifications/stream"]) {
      const body = await refused(path, { cookie: other.cookie });
      expect(body.error.code).toBe("too_many_streams");
      expect(body.error.message).toMatch(/already has 3 live event streams open/);
    }
    // Someone else is not affected.
    const bystander = await newSignedInUser(t.ctx);
    expect((await open("/api/v1/events", { cookie: bystander.cookie })).status).toBe(200);

    streams[0]!.close();
    await serverHolds(PER_USER); // two of the fan's and the bystander's
    const again = await open("/api/v1/notifications/stream", { cookie: fan.cookie });
    expect(again.status).toBe(200);
  });

  it("counts anonymous streams per client address, 429 beyond", async () => {
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const id = await newOpenLottery(base, admin.cookie, "Stream cap draw");
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await open(`/api/v1/lotteries/${id}/events`)).status).toBe(200);
    }
    const body = await refused(`/api/v1/lotteries/${id}/events`);
    expect(body.error).toMatchObject({ code: "too_many_streams" });
    expect(body.error.message).toMatch(/address already has 4 live event streams open/);
    // A signed-in user's own streams count against the account, not the address.
    const fan = await newSignedInUser(t.ctx);
    expect((await open("/api/v1/events", { cookie: fan.cookie })).status).toBe(200);
    opened[0]!.close();
    await serverHolds(PER_ADDRESS); // one anonymous stream fewer, and the signed-in one
    expect((await open(`/api/v1/lotteries/${id}/events`)).status).toBe(200);
  });
});

describe("point 2: a stream ends with its session", () => {
  /** Opens both user streams for `cookie`, connected. */
  const both = async (cookie: string) => [
    await open("/api/v1/events", { cookie }),
    await open("/api/v1/notifications/stream", { cookie }),
  ];
  const endedWithinASecond = async (streams: EventStream[]) => {
    const started = performance.now();
    await Promise.all(streams.map((s) => s.ended(1000)));
    return performance.now() - started;
  };

  it("sign-out ends the streams of that session, not those of the account's other sessions", async () => {
    const fan = await newSignedInUser(t.ctx);
    const laptop = await newSession(t.ctx, fan.user.id);
    const mine = await both(fan.cookie);
    const [elsewhere] = await both(laptop.cookie);
    const res = await fetch(`${base}/api/v1/auth/logout`, {
      method: "POST",
      headers: { cookie: fan.cookie, origin: ORIGIN },
    });
    expect(res.status).toBeLessThan(300);
    expect(await endedWithinASecond(mine)).toBeLessThan(1000);
    // The other session's streams are still open: one of them still receives events.
    const patch = await fetch(`${base}/api/v1/me`, {
      method: "PATCH",
      headers: { cookie: laptop.cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ name: "Still Here" }),
    });
    expect(patch.status).toBe(200);
    await elsewhere!.waitFor((s) => s.includes("Still Here"));
  });

  it("the hourly prune ending an expired session ends its streams", async () => {
    const fan = await newSignedInUser(t.ctx);
    const expiring = await newSession(t.ctx, fan.user.id, { expiresAt: new Date(Date.now() + 60_000) });
    const streams = await both(expiring.cookie);
    const [kept] = await both(fan.cookie);
    // The prune as its job runs it, an hour later than the session's expiry.
    const later = new Date(Date.now() + 3600_000);
    await pruneAuthData(t.ctx.db, {
      now: later,
      maxSessionsPerUser: 20,
      unverifiedAccountDays: 7,
      pubsub: t.ctx.pubsub,
    });
    expect(await endedWithinASecond(streams)).toBeLessThan(1000);
    await rename(fan.cookie, "Kept Alive");
    await kept!.waitFor((x) => x.includes("Kept Alive"));
  });

  it("suspension by an administrator ends every stream of the account", async () => {
    const admin = await newSignedInUser(t.ctx, { role: "admin" });
    const fan = await newSignedInUser(t.ctx);
    const phone = await newSession(t.ctx, fan.user.id);
    const streams = [...(await both(fan.cookie)), await open("/api/v1/events", { cookie: phone.cookie })];
    const res = await fetch(`${base}/api/v1/admin/users/${fan.user.id}/suspend`, {
      method: "POST",
      headers: { cookie: admin.cookie, origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(await endedWithinASecond(streams)).toBeLessThan(1000);
  });

  it("a password change ends every stream of the account", async () => {
    const fan = await newSignedInUser(t.ctx);
    const phone = await newSession(t.ctx, fan.user.id);
    const streams = [...(await both(fan.cookie)), await open("/api/v1/events", { cookie: phone.cookie })];
    const res = await fetch(`${base}/api/v1/me/password`, {
      method: "POST",
      headers: { cookie: fan.cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({
        currentPassword: FACTORY_PASSWORD,
        password: "a-new-password-42",
        confirmPassword: "a-new-password-42",
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await endedWithinASecond(streams)).toBeLessThan(1000);
  });
});

describe("point 2: a session that ends while its stream is being opened", () => {
  it("refuses the stream (401) when the session ended after the sign-in check, before the stream was registered", async () => {
    // A server whose preHandler signs the request's session out (as a sign-out from another tab
    // landing at that moment): the sign-in check has passed, the stream is not registered yet.
    const ctx = await bootstrap(t.config, { database: t.ctx.database, chain: null });
    const app = await buildApp(ctx, { webDistDir: "/nonexistent" });
    app.addHook("preHandler", async (req) => {
      const secret = req.cookies[SESSION_COOKIE];
      if (req.url === "/api/v1/events" && req.headers["x-sign-out-now"] && secret)
        await ctx.services.accounts.endSession(secret);
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const other = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      const fan = await newSignedInUser(t.ctx);
      const s = await openEventStream(`${other}/api/v1/events`, {
        cookie: fan.cookie,
        "x-sign-out-now": "1",
      });
      opened.push(s);
      expect(s.status).toBe(401);
      await s.ended();
      expect(openStreamCount(app)).toBe(0);
    } finally {
      app.server.closeAllConnections();
      await app.close();
      await ctx.close();
    }
  });
});

describe("point 15: ids and replay from Last-Event-ID", () => {
  it("numbers every event, and a reconnecting client gets exactly what it missed, in order, then live events", async () => {
    const fan = await newSignedInUser(t.ctx);
    const first = await open("/api/v1/events", { cookie: fan.cookie });
    await rename(fan.cookie, "Seen One");
    await rename(fan.cookie, "Seen Two");
    const text = await first.waitFor((s) => s.includes("Seen Two"));
    // Each event is `id:`, `event:`, `data:`.
    expect(text).toMatch(/id: \d+\nevent: profile\.updated\ndata: \{/);
    const seen = ids(text);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    first.close();
    await serverHolds(0);

    // Away: three events happen.
    for (const name of ["Missed A", "Missed B", "Missed C"]) await rename(fan.cookie, name);

    const back = await open("/api/v1/events", { cookie: fan.cookie, "last-event-id": String(seen[1]) });
    const replayed = await back.waitFor((s) => s.includes("Missed C"));
    expect(names(replayed)).toEqual(["Missed A", "Missed B", "Missed C"]);
    await rename(fan.cookie, "Live Again");
    const all = await back.waitFor((s) => s.includes("Live Again"));
    expect(names(all)).toEqual(["Missed A", "Missed B", "Missed C", "Live Again"]);
    const got = ids(all);
    expect(got).toHaveLength(4);
    expect(new Set(got).size).toBe(4);
    expect([...got].sort((a, b) => a - b)).toEqual(got);
    expect(got[0]).toBeGreaterThan(seen[1]!);

    // A client that saw everything gets nothing again; one without Last-Event-ID gets no replay.
    const upToDate = await open("/api/v1/events", { cookie: fan.cookie, "last-event-id": String(got[3]) });
    const fresh = await open("/api/v1/events", { cookie: fan.cookie });
    await rename(fan.cookie, "Only Live");
    for (const s of [upToDate, fresh]) {
      expect(names(await s.waitFor((x) => x.includes("Only Live")))).toEqual(["Only Live"]);
    }
  });

  it("replays only notifications on the notification stream, with the user's ids", async () => {
    const star = await newSignedInUser(t.ctx, { name: "Replay Star" });
    const fan = await newSignedInUser(t.ctx, { name: "Replay Fan" });
    const [row] = await t.ctx.database.query<{ handle: string }>("SELECT handle FROM users WHERE id = $1", [
      star.user.id,
    ]);
    const s = await open("/api/v1/notifications/stream", { cookie: star.cookie, "last-event-id": "0" });
    await rename(star.cookie, "Replay Star Renamed"); // an event the notification stream skips
    const follow = await fetch(`${base}/api/v1/users/${row!.handle}/follow`, {
      method: "PUT",
      headers: { cookie: fan.cookie, origin: ORIGIN },
    });
    expect(follow.status).toBe(200);
    const live = await s.waitFor((x) => x.includes("event: notification"));
    const liveIds = ids(live);
    expect(liveIds).toHaveLength(1);
    s.close();
    await serverHolds(0);
    const again = await open("/api/v1/notifications/stream", { cookie: star.cookie, "last-event-id": "0" });
    const replayed = await again.waitFor((x) => x.includes("event: notification"));
    expect(ids(replayed)).toEqual(liveIds);
    expect(replayed).not.toContain("profile.updated");
  });

  it("sends events whose live message was lost (pub/sub is at most once) before the next one", async () => {
    const fan = await newSignedInUser(t.ctx);
    const s = await open("/api/v1/events", { cookie: fan.cookie });
    await rename(fan.cookie, "First");
    await s.waitFor((x) => x.includes("First"));
    // Stored and numbered, but their messages never reach a listener (a dropped LISTEN connection).
    const lost: PubSub = { ...t.ctx.pubsub, publish: async () => {} };
    const user = toApiUser(fan.user);
    for (const name of ["Lost One", "Lost Two"]) {
      await publishToUser(lost, fan.user.id, { type: "profile.updated", user: { ...user, name } }, t.ctx);
    }
    await rename(fan.cookie, "After");
    const text = await s.waitFor((x) => x.includes("After"));
    expect(names(text)).toEqual(["First", "Lost One", "Lost Two", "After"]);
    const got = ids(text);
    expect(got).toEqual([got[0], got[0]! + 1, got[0]! + 2, got[0]! + 3]);
  });

  it(`replays nothing older than ${REPLAY_HOURS} hours, and the hourly prune deletes it`, async () => {
    const fan = await newSignedInUser(t.ctx);
    await rename(fan.cookie, "Long Ago");
    await t.ctx.database.query(
      "UPDATE live_events SET created_at = now() - make_interval(hours => $2::int + 1) WHERE user_id = $1",
      [fan.user.id, REPLAY_HOURS],
    );
    await rename(fan.cookie, "Recent");
    const s = await open("/api/v1/events", { cookie: fan.cookie, "last-event-id": "0" });
    expect(names(await s.waitFor((x) => x.includes("Recent")))).toEqual(["Recent"]);
    expect(await pruneLiveEvents(t.ctx.database, new Date())).toBeGreaterThanOrEqual(1);
    const [left] = await t.ctx.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM live_events WHERE user_id = $1",
      [fan.user.id],
    );
    expect(left?.n).toBe(1);
  });

  it(`keeps at most the user's last ${REPLAY_EVENTS} events`, async () => {
    const fan = await newSignedInUser(t.ctx);
    const user = toApiUser(fan.user);
    for (let i = 0; i < REPLAY_EVENTS + 5; i++) {
      await publishToUser(t.ctx.pubsub, fan.user.id, { type: "profile.updated", user }, t.ctx);
    }
    const [kept] = await t.ctx.database.query<{ n: number; lo: string; hi: string }>(
      "SELECT count(*)::int AS n, min(id)::text AS lo, max(id)::text AS hi FROM live_events WHERE user_id = $1",
      [fan.user.id],
    );
    expect(kept).toEqual({ n: REPLAY_EVENTS, lo: "6", hi: String(REPLAY_EVENTS + 5) });
  });
});
