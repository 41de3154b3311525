import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PublicLottery, parseTicketsCsv } from "../scripts/lottery-verify.mjs";
import { sha256, toHex, winningTicket } from "../src/modules/lottery/draw.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { withTransaction } from "../src/platform/tx.ts";
import { ORIGIN } from "./fixtures/accounts.ts";
import { newNft, newSignedInUser, newUser } from "./factories.ts";
import { type TestApp, createTestApp } from "./harness.ts";
import { until } from "./commerce-helpers.ts";
import { ticketTraffic } from "./lottery-helpers.ts";

/**
 * Lotteries (issue 24 points 2, 5, 6): the console creates one and its seed's hash is public before
 * any ticket; paid orders get contiguous ticket numbers in payment order with counts kept in the
 * same transaction; at closing tickets.csv and its hash are published with the chain's block c; the
 * draw waits for block c + N, reveals the seed and picks one winner; `npm run lottery:verify`
 * recomputes it from the public API alone and reports a changed seed, ticket range or block hash.
 */

const exec = promisify(execFile);
const HOUR = 3600_000;
let t: TestApp;
const clock = createTestClock(Date.now());
let admin: { cookie: string; user: { id: string } };
let baseUrl: string;
const tickets = ticketTraffic(() => t, clock);

type Json = Record<string, unknown>;
async function call(method: string, url: string, cookie?: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as "GET",
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
  let body: Json = {};
  try {
    body = res.json();
  } catch {}
  return { status: res.statusCode, body, raw: res };
}

const rpc = async (method: string, params: unknown[] = []) => {
  const res = await fetch(t.ctx.chain!.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
};

function lotteryInput(extra: Json = {}) {
  const now = clock.now();
  return {
    name: `Kabali premiere draw ${randomUUID().slice(0, 6)}`,
    ticketPriceCents: 250,
    minTickets: 10,
    opensAt: new Date(now + HOUR).toISOString(),
    closesAt: new Date(now + 3 * HOUR).toISOString(),
    prize: { kind: "pool", amountCents: 50_000 },
    rules: "One winner. Tickets are refunded if fewer than the minimum are sold.",
    ...extra,
  };
}

async function createLottery(extra: Json = {}) {
  const res = await call("POST", "/api/v1/admin/lotteries", admin.cookie, lotteryInput(extra));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; seedHash: string; state: string; closesAt: string; opensAt: string };
}

/** A paid ticket order's numbering, as the orders module calls it in the transaction that pays it. */
function pay(lotteryId: string, userId: string, count: number, orderId = randomUUID()) {
  return withTransaction(t.ctx.database, (tx) =>
    t.ctx.services.lottery.assignTickets(tx, { lotteryId, orderId, userId, count }),
  );
}

async function verify(base: string, id: string, rpcUrl?: string) {
  const args = ["apps/server/scripts/lottery-verify.mjs", base, id];
  if (rpcUrl) args.push("--rpc", rpcUrl);
  try {
    const { stdout } = await exec(process.execPath, args, {
      cwd: new URL("../../../", import.meta.url).pathname,
    });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** A server in front of ours that changes one thing in what the public API answers. */
async function tamperingProxy(change: (path: string, body: Buffer) => Buffer) {
  const server = http.createServer(async (req, res) => {
    const upstream = await fetch(`${baseUrl}${req.url}`);
    const body = change(req.url ?? "", Buffer.from(await upstream.arrayBuffer()));
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "text/plain" });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

beforeAll(async () => {
  t = await createTestApp(
    { LOTTERY_DRAW_BLOCKS: "3", LOTTERY_REVEAL_TIMEOUT_SECONDS: "7200" },
    { chain: true, clock },
  );
  admin = await newSignedInUser(t.ctx, { role: "admin" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("the console's lotteries", () => {
  it("creates a lottery whose seed hash is public before any ticket; edits it until it opens; audits both", async () => {
    const l = await createLottery();
    expect(l.state).toBe("scheduled");
    expect(l.seedHash).toMatch(/^0x[0-9a-f]{64}$/);
    const pub = await call("GET", `/api/v1/lotteries/${l.id}`);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({
      id: l.id,
      seedHash: l.seedHash,
      ticketsSold: 0,
      players: 0,
      draw: null,
    });
    expect(JSON.stringify(pub.body)).not.toMatch(/"seed"/);
    const edited = await call("PATCH", `/api/v1/admin/lotteries/${l.id}`, admin.cookie, {
      ticketPriceCents: 300,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.ticketPriceCents).toBe(300);
    expect(edited.body.seedHash).toBe(l.seedHash);
    const audit = await t.ctx.database.query<{ action: string; after: Json }>(
      "SELECT action, after FROM admin_audit_log WHERE subject_type = 'lottery' AND subject_id = $1 ORDER BY id",
      [l.id],
    );
    expect(audit.map((a) => a.action)).toEqual(["lottery.create", "lottery.update"]);
    expect(JSON.stringify(audit)).not.toMatch(/"seed"/);
    const listed = await call("GET", "/api/v1/lotteries");
    expect((listed.body.items as { id: string }[]).some((x) => x.id === l.id)).toBe(true);
    expect(listed.body.regions).toMatchObject({ all: true });
  });

  it("refuses bad input, other roles and edits after opening, recording nothing", async () => {
    const fan = await newSignedInUser(t.ctx);
    const before = await t.ctx.database.query<{ n: string }>("SELECT count(*) AS n FROM lotteries");
    const cases: [string | undefined, Json, number][] = [
      [fan.cookie, lotteryInput(), 403],
      [undefined, lotteryInput(), 401],
      [admin.cookie, lotteryInput({ closesAt: new Date(clock.now()).toISOString() }), 400],
      [admin.cookie, lotteryInput({ ticketPriceCents: 2.5 }), 400],
      [admin.cookie, lotteryInput({ ticketPriceCents: -1 }), 400],
      [admin.cookie, lotteryInput({ minTickets: 0 }), 400],
      [admin.cookie, lotteryInput({ prize: { kind: "nft", nftId: "no-such-nft" } }), 400],
      [admin.cookie, lotteryInput({ seedHash: `0x${"00".repeat(32)}` }), 400],
    ];
    for (const [cookie, body, status] of cases) {
      const res = await call("POST", "/api/v1/admin/lotteries", cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    const after = await t.ctx.database.query<{ n: string }>("SELECT count(*) AS n FROM lotteries");
    expect(after[0]?.n).toBe(before[0]?.n);
    const l = await createLottery({ opensAt: new Date(clock.now() - 1000).toISOString() });
    const late = await call("PATCH", `/api/v1/admin/lotteries/${l.id}`, admin.cookie, { name: "Renamed" });
    expect(late.status).toBe(409);
  });

  it("lets a studio account create lotteries for its own house's NFTs only", async () => {
    const own = await newNft(t.ctx);
    const other = await newNft(t.ctx);
    const [row] = await t.ctx.database.query<{ production_house_id: number }>(
      "SELECT production_house_id FROM nfts WHERE id = $1",
      [own],
    );
    const studio = await newSignedInUser(t.ctx, {
      role: "studio",
      productionHouseId: row!.production_house_id,
    });
    const ok = await call(
      "POST",
      "/api/v1/admin/lotteries",
      studio.cookie,
      lotteryInput({ prize: { kind: "nft", nftId: own } }),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.prizeNft).toMatchObject({ title: expect.any(String) });
    const no = await call(
      "POST",
      "/api/v1/admin/lotteries",
      studio.cookie,
      lotteryInput({ prize: { kind: "nft", nftId: other } }),
    );
    expect(no.status).toBe(403);
    const mine = await call("GET", "/api/v1/admin/lotteries", studio.cookie);
    expect((mine.body.items as { id: string }[]).map((x) => x.id)).toEqual([ok.body.id]);
  });
});

describe("tickets, closing and the draw", () => {
  it("numbers concurrent payments 1..N without gap, counts players, closes, draws once and verifies", async () => {
    const l = await createLottery();
    clock.advance(HOUR + 1000); // open
    const users = await Promise.all(Array.from({ length: 8 }, () => newUser(t.ctx)));
    const counts = Array.from({ length: 40 }, (_, i) => 1 + ((i * 7) % 10));
    const results = await Promise.all(counts.map((c, i) => pay(l.id, users[i % users.length]!.id, c)));
    const ranges = results.map((r) => {
      if ("refused" in r) throw new Error(r.refused);
      return r;
    });
    const total = counts.reduce((a, b) => a + b, 0);
    const sorted = [...ranges].sort((a, b) => Number(a.first - b.first));
    let next = 1n;
    for (const r of sorted) {
      expect(r.first).toBe(next);
      next = r.last + 1n;
    }
    expect(next - 1n).toBe(BigInt(total));
    // Paying the same order again changes nothing.
    const again = await withTransaction(t.ctx.database, async (tx) => {
      const [first] = await tx.query<{ order_id: string; user_id: string }>(
        "SELECT order_id, user_id FROM lottery_entries WHERE lottery_id = $1 LIMIT 1",
        [l.id],
      );
      return t.ctx.services.lottery.assignTickets(tx, {
        lotteryId: l.id,
        orderId: first!.order_id,
        userId: first!.user_id,
        count: 5,
      });
    });
    expect("first" in again).toBe(true);
    const open = (await call("GET", `/api/v1/lotteries/${l.id}`)).body;
    expect(open).toMatchObject({ state: "open", ticketsSold: total, players: 8 });
    expect((await call("GET", `/api/v1/lotteries/${l.id}/tickets.csv`)).status).toBe(409);

    clock.advance(2 * HOUR); // past closing
    const late = await pay(l.id, users[0]!.id, 2);
    expect(late).toEqual({ refused: expect.stringMatching(/closed/) });
    // Two workers close it at once: it closes once.
    await Promise.all([t.ctx.services.lottery.tick(), t.ctx.services.lottery.tick()]);
    const closed = (await call("GET", `/api/v1/lotteries/${l.id}`)).body as Json & { closeBlock: number };
    expect(closed).toMatchObject({ state: "closed", ticketsSold: total, draw: null });
    const csvRes = await call("GET", `/api/v1/lotteries/${l.id}/tickets.csv`);
    expect(csvRes.status).toBe(200);
    const csv = csvRes.raw.rawPayload;
    expect(toHex(sha256(csv))).toBe(closed.ticketListHash);
    const parsed = parseTicketsCsv(csv);
    expect(parsed.problems).toEqual([]);
    expect(parsed.total).toBe(total);
    expect(parsed.ranges).toHaveLength(counts.length);

    // A quiet chain: the draw waits for block c + 3.
    const head = BigInt((await rpc("eth_blockNumber")) as string);
    expect(head).toBe(BigInt(closed.closeBlock));
    expect((await t.ctx.services.lottery.tick()).waiting).toBe(1);
    for (let i = 0; i < 4; i++) await rpc("evm_mine");
    await Promise.all([t.ctx.services.lottery.tick(), t.ctx.services.lottery.tick()]);
    const drawn = (await call("GET", `/api/v1/lotteries/${l.id}`)).body as unknown as PublicLottery & {
      draw: NonNullable<PublicLottery["draw"]>;
    };
    expect(drawn.state).toBe("drawn");
    expect(drawn.draw.blockNumber).toBe(closed.closeBlock + 3);
    const block = (await rpc("eth_getBlockByNumber", [
      `0x${drawn.draw.blockNumber.toString(16)}`,
      false,
    ])) as { hash: string };
    expect(drawn.draw.blockHash).toBe(block.hash);
    expect(
      createHash("sha256")
        .update(Buffer.from(drawn.draw.seed.slice(2), "hex"))
        .digest("hex"),
    ).toBe(drawn.seedHash.slice(2));
    const expected = winningTicket(
      Buffer.from(drawn.draw.seed.slice(2), "hex"),
      Buffer.from(drawn.draw.blockHash.slice(2), "hex"),
      sha256(csv),
      BigInt(total),
    );
    expect(BigInt(drawn.draw.winningTicket)).toBe(expected);
    const [winner] = await t.ctx.database.query<{ winner_order_id: string; n: string }>(
      `SELECT winner_order_id, (SELECT count(*) FROM lottery_entries e WHERE e.lottery_id = l.id
         AND e.first_ticket <= l.winning_ticket AND e.last_ticket >= l.winning_ticket) AS n
         FROM lotteries l WHERE id = $1`,
      [l.id],
    );
    expect(Number(winner?.n)).toBe(1);
    const winners = (await call("GET", "/api/v1/lotteries/winners")).body.items as {
      lotteryId: string;
      winningTicket: number;
    }[];
    expect(winners.find((w) => w.lotteryId === l.id)?.winningTicket).toBe(drawn.draw.winningTicket);

    // The verification: from the public API alone, the block hash from the chain.
    const good = await verify(baseUrl, l.id, t.ctx.chain!.rpcUrl);
    expect(good.out).toMatch(/the draw verifies/);
    expect(good.code).toBe(0);

    const flip = (hex: string) => `${hex.slice(0, -1)}${hex.endsWith("0") ? "1" : "0"}`;
    const tampered: [string, (path: string, body: Buffer) => Buffer, RegExp][] = [
      [
        "seed",
        (p, b) =>
          p.endsWith(l.id) ? Buffer.from(b.toString().replace(drawn.draw.seed, flip(drawn.draw.seed))) : b,
        /MISMATCH seed/,
      ],
      [
        "one ticket range",
        (p, b) => {
          if (!p.endsWith("tickets.csv")) return b;
          const lines = b.toString().split("\n");
          const [a, z, h] = (lines[1] as string).split(",");
          lines[1] = `${a},${Number(z) + 1},${h}`;
          return Buffer.from(lines.join("\n"));
        },
        /MISMATCH ticket list/,
      ],
      [
        "block hash",
        (p, b) =>
          p.endsWith(l.id)
            ? Buffer.from(b.toString().replace(drawn.draw.blockHash, flip(drawn.draw.blockHash)))
            : b,
        /MISMATCH block hash/,
      ],
    ];
    for (const [what, change, report] of tampered) {
      const proxy = await tamperingProxy(change);
      try {
        const bad = await verify(proxy.url, l.id, t.ctx.chain!.rpcUrl);
        expect(bad.code, `${what}: ${bad.out}`).toBe(1);
        expect(bad.out, what).toMatch(report);
        expect(bad.out, what).toMatch(/does NOT verify/);
      } finally {
        await proxy.close();
      }
    }
    // The block hash changed and no chain to ask: the winning ticket no longer matches. One changed
    // digit moves the winner only with chance 1 - 1/total: a digit that moves it is chosen.
    const hashWith = (digit: string) => `${drawn.draw.blockHash.slice(0, -1)}${digit}`;
    const otherHash = [..."0123456789abcdef"]
      .map(hashWith)
      .find(
        (h) =>
          winningTicket(
            Buffer.from(drawn.draw.seed.slice(2), "hex"),
            Buffer.from(h.slice(2), "hex"),
            sha256(csv),
            BigInt(total),
          ) !== expected,
      );
    expect(otherHash).toBeDefined();
    const proxy = await tamperingProxy((p, b) =>
      p.endsWith(l.id) ? Buffer.from(b.toString().replace(drawn.draw.blockHash, otherHash as string)) : b,
    );
    try {
      const bad = await verify(proxy.url, l.id);
      expect(bad.code).toBe(1);
      expect(bad.out).toMatch(/MISMATCH winning ticket/);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("ends a lottery below its minimum as not activated, and one whose seed is not revealed in time", async () => {
    const small = await createLottery();
    const quiet = await createLottery();
    clock.advance(HOUR + 1000);
    // Real ticket orders, paid through the sandbox: ending without a draw refunds them (decision 144).
    const fan = await newSignedInUser(t.ctx);
    const smallOrder = await tickets.paidTickets(small.id, 3, fan);
    const quietOrders = [];
    for (let i = 0; i < 4; i++) quietOrders.push(await tickets.paidTickets(quiet.id, 3, fan));
    clock.advance(2 * HOUR);
    await t.ctx.services.lottery.tick();
    expect((await tickets.getOrder(fan.cookie, smallOrder.orderId)).state).toMatch(/^refund(_pending|ed)$/);
    expect((await call("GET", `/api/v1/lotteries/${small.id}`)).body).toMatchObject({
      state: "not_activated",
      outcome: expect.stringMatching(/3 of the 10 tickets/),
      draw: null,
    });
    expect((await call("GET", `/api/v1/lotteries/${quiet.id}`)).body.state).toBe("closed");
    clock.advance(2 * HOUR + 1000); // the reveal timeout passes with no block mined
    await t.ctx.services.lottery.tick();
    const q = (await call("GET", `/api/v1/lotteries/${quiet.id}`)).body;
    expect(q).toMatchObject({
      state: "not_activated",
      draw: null,
      outcome: expect.stringMatching(/not revealed/),
    });
    for (const o of [smallOrder, ...quietOrders]) {
      const refunded = await until(
        "ticket order refunded",
        () => tickets.getOrder(fan.cookie, o.orderId),
        (x) => x.state === "refunded",
        20_000,
      );
      expect(refunded.transitions.filter((x) => x.to === "refunded")).toHaveLength(1);
    }
  }, 60_000);
});
