import { describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { postgresPass } from "./passes.ts";
import { type ServerProcess, twoServerProcesses } from "./server-process.ts";
import { openEventStream } from "./sse-client.ts";

describe.runIf(postgresPass)(
  "GET /api/v1/notifications/stream across two server processes on one PostgreSQL",
  () => {
    const f = twoServerProcesses("notif-stream");

    it("a follow on process 1 notifies the followed user's stream on process 2 within 1 s", async () => {
      const [one, two] = f.servers as [ServerProcess, ServerProcess];
      const star = await newSignedInUser({ db: f.db.database.db }, { name: "Stream Star" });
      const fan = await newSignedInUser({ db: f.db.database.db }, { name: "Stream Fan" });
      const [row] = await f.db.database.query<{ handle: string }>("SELECT handle FROM users WHERE id = $1", [
        star.user.id,
      ]);
      const stream = await openEventStream(`${two.base}/api/v1/notifications/stream`, {
        cookie: star.cookie,
      });
      const other = await openEventStream(`${two.base}/api/v1/notifications/stream`, { cookie: fan.cookie });
      try {
        expect(stream.status).toBe(200);
        await stream.waitFor((text) => text.includes(": connected"));
        await other.waitFor((text) => text.includes(": connected"));
        const started = performance.now();
        const res = await fetch(`${one.base}/api/v1/users/${row!.handle}/follow`, {
          method: "PUT",
          headers: { cookie: fan.cookie, origin: one.base },
        });
        expect(res.status).toBe(200);
        const text = await stream.waitFor((s) => s.includes("event: notification"), 1000);
        expect(performance.now() - started).toBeLessThan(1000);
        const data = JSON.parse(/event: notification\ndata: (.*)\n\n/.exec(text)?.[1] ?? "null");
        expect(data).toMatchObject({
          kind: "new_follower",
          text: "Stream Fan started following you.",
          read: false,
        });
        expect(other.text()).not.toContain("event: notification");
      } finally {
        stream.close();
        other.close();
      }
    });

    it("answers 401 when signed out", async () => {
      const res = await fetch(`${f.servers[0]!.base}/api/v1/notifications/stream`);
      expect(res.status).toBe(401);
    });
  },
);
