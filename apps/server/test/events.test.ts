// GET /api/v1/events: Server-Sent Events with heartbeats (in process), and live events published
// by one server process reaching a stream held by another (two real processes, one PostgreSQL).
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";
import { postgresPass } from "./passes.ts";
import { type ServerProcess, twoServerProcesses } from "./server-process.ts";
import { openEventStream } from "./sse-client.ts";

const heartbeats = (text: string) => text.split(": heartbeat\n\n").length - 1;

describe("GET /api/v1/events in one process", () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ SSE_HEARTBEAT_MS: "150" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it("streams heartbeat comments to a signed-in client", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const stream = await openEventStream(`${base}/api/v1/events`, { cookie });
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain("text/event-stream");
      await stream.waitFor((text) => heartbeats(text) >= 2, 5000);
      expect(stream.text().startsWith("retry: 3000\n: connected\n\n")).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("sends the user's own profile change, and nobody else's", async () => {
    const alice = await newSignedInUser(t.ctx, { name: "Alice" });
    const bob = await newSignedInUser(t.ctx, { name: "Bob" });
    const aliceStream = await openEventStream(`${base}/api/v1/events`, { cookie: alice.cookie });
    const bobStream = await openEventStream(`${base}/api/v1/events`, { cookie: bob.cookie });
    try {
      await aliceStream.waitFor((text) => text.includes(": connected"));
      await bobStream.waitFor((text) => text.includes(": connected"));
      const res = await fetch(`${base}/api/v1/me`, {
        method: "PATCH",
        headers: { cookie: alice.cookie, "content-type": "application/json" },
        body: JSON.stringify({ name: "Alice Live" }),
      });
      expect(res.status).toBe(200);
      const text = await aliceStream.waitFor((s) => s.includes("event: profile.updated"));
      const data = JSON.parse(/event: profile\.updated\ndata: (.*)\n\n/.exec(text)?.[1] ?? "null");
      expect(data).toMatchObject({
        type: "profile.updated",
        user: { id: alice.user.id, name: "Alice Live" },
      });
      await bobStream.waitFor((s) => heartbeats(s) >= 1);
      expect(bobStream.text()).not.toContain("profile.updated");
    } finally {
      aliceStream.close();
      bobStream.close();
    }
  });

  it("answers 401 in the one error shape when signed out", async () => {
    const res = await t.app.inject("/api/v1/events");
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("unauthorized");
  });
});

describe.runIf(postgresPass)("GET /api/v1/events across two server processes on one PostgreSQL", () => {
  const f = twoServerProcesses("events");

  it("a profile change on process 1 reaches a stream on process 2 within 1 s", async () => {
    const [one, two] = f.servers as [ServerProcess, ServerProcess];
    const { user, cookie } = await newSignedInUser({ db: f.db.database.db }, { name: "Two Proc" });
    const stream = await openEventStream(`${two.base}/api/v1/events`, { cookie });
    try {
      await stream.waitFor((text) => text.includes(": connected"));
      const started = performance.now();
      const res = await fetch(`${one.base}/api/v1/me`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json", origin: one.base },
        body: JSON.stringify({ name: "Seen Elsewhere" }),
      });
      expect(res.status).toBe(200);
      const text = await stream.waitFor((s) => s.includes("Seen Elsewhere"), 1000);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(text).toContain(`"id":"${user.id}"`);
    } finally {
      stream.close();
    }
  });

  it("a sign-out on process 1 ends that session's stream on process 2 within 1 s (issue 23 point 2)", async () => {
    const [one, two] = f.servers as [ServerProcess, ServerProcess];
    const { cookie } = await newSignedInUser({ db: f.db.database.db });
    const stream = await openEventStream(`${two.base}/api/v1/events`, { cookie });
    try {
      await stream.waitFor((text) => text.includes(": connected"));
      const started = performance.now();
      const res = await fetch(`${one.base}/api/v1/auth/logout`, {
        method: "POST",
        headers: { cookie, origin: one.base },
      });
      expect(res.status).toBe(204);
      await stream.ended(1000);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      stream.close();
    }
  });

  it("a stream reconnecting to process 1 with Last-Event-ID gets what was published on process 2 meanwhile (issue 23 point 15)", async () => {
    const [one, two] = f.servers as [ServerProcess, ServerProcess];
    const { cookie } = await newSignedInUser({ db: f.db.database.db });
    const rename = async (base: string, name: string) => {
      const res = await fetch(`${base}/api/v1/me`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json", origin: base },
        body: JSON.stringify({ name }),
      });
      expect(res.status).toBe(200);
    };
    const first = await openEventStream(`${two.base}/api/v1/events`, { cookie });
    await first.waitFor((text) => text.includes(": connected"));
    await rename(one.base, "Before Away");
    const seen = await first.waitFor((text) => text.includes("Before Away"));
    first.close();
    const last = /^id: (\d+)$/m.exec(seen)?.[1];
    expect(last).toBeDefined();
    await rename(two.base, "While Away 1");
    await rename(one.base, "While Away 2");
    const back = await openEventStream(`${one.base}/api/v1/events`, { cookie, "last-event-id": last! });
    try {
      const text = await back.waitFor((s) => s.includes("While Away 2"), 2000);
      const names = [...text.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]);
      expect(names).toEqual(["While Away 1", "While Away 2"]);
      const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      expect(ids).toEqual([Number(last) + 1, Number(last) + 2]);
    } finally {
      back.close();
    }
  });
});
