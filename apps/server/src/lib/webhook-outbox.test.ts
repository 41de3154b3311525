import { describe, expect, it } from "vitest";
import { createSandboxOutbox, OutboxClosedError, SANDBOX_DUPLICATE_DELAY_MS } from "./webhook-outbox.ts";

const delivery = { body: "{}", sign: () => "sig" };

describe("the sandbox outbox", () => {
  it("sends each event at once and a copy later, retrying a 5xx", async () => {
    const posts: number[] = [];
    const statuses = [503, 200, 200];
    const outbox = createSandboxOutbox(
      async () => {
        posts.push(Date.now());
        return statuses.shift() ?? 200;
      },
      () => {},
    );
    const started = Date.now();
    await outbox.deliver(delivery);
    expect(posts).toHaveLength(2); // refused once, then acknowledged after the 0.5 s retry
    await expect.poll(() => posts.length, { timeout: 5000 }).toBe(3);
    expect(posts[2]! - started).toBeGreaterThanOrEqual(SANDBOX_DUPLICATE_DELAY_MS - 20);
  });

  it("closing: awaits the post under way, drops the waiting copy and the retries at once", async () => {
    let release!: (status: number) => void;
    const posts: string[] = [];
    const warnings: unknown[] = [];
    const outbox = createSandboxOutbox(
      (body) => {
        posts.push(body);
        // The first post is under way when the app closes; the app takes nothing after that.
        if (posts.length === 1) return new Promise<number>((r) => (release = r));
        throw new Error("the app is closed");
      },
      (err) => warnings.push(err),
    );
    const first = outbox.deliver(delivery);
    const failing = outbox.deliver({ body: "second", sign: () => "sig" });
    const refused = expect(failing).rejects.toBeInstanceOf(OutboxClosedError);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const drained = outbox.drain();
    release(200);
    await drained;
    await first;
    await refused;
    // Without stopping, the retries (0.5 + 1 + 2 s) and the copies (1.5 s later) kept the app open.
    expect(Date.now() - started).toBeLessThan(400);
    expect(posts).toEqual(["{}", "second"]);
    expect(warnings).toEqual([]);
  });
});
