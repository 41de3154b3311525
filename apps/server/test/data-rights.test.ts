// Data rights (issue 25 point 2, decision 170). Two users who interact (likes, follows, orders,
// lottery tickets, bids, mail): the archive of one holds every one of their records and nothing of
// the other's; after deleting the account, a dump of every table (the job queue's included) holds
// neither their email, name, phone nor handle, their orders and on-chain records still add up, they
// cannot sign in, and a new account can take the address.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkFreshWallet } from "./card-orders.ts";
import { FACTORY_PASSWORD, newNft, newSignedInUser, uniqueEmail } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const CHAIN = 31337;
let t: TestApp;
const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) =>
  t.ctx.database.query<T>(text, params);

interface Person {
  id: string;
  cookie: string;
  email: string;
  name: string;
  phone: string;
  handle: string;
  address: string;
  orderIds: string[];
  ticketOrderId: string;
  bidTx: string;
}

async function call(method: string, url: string, cookie?: string, body?: unknown) {
  const res = await t.app.inject({
    method: method as "GET",
    url,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      origin: "http://localhost:3000",
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, json: () => res.json(), text: res.body, headers: res.headers };
}

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const hex = (n: number) => `0x${randomBytes(n).toString("hex")}`;

/** A person with a phone, a wallet, two orders with transitions, a ticket order and a bid. */
async function person(label: string, nftId: string, lotteryId: string, firstTicket: number): Promise<Person> {
  const name = `${label} ${randomBytes(3).toString("hex")}`;
  const { user, cookie } = await newSignedInUser(t.ctx, { name, email: uniqueEmail(label.toLowerCase()) });
  const phone = `+9198${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  expect((await call("PATCH", "/api/v1/me", cookie, { phone })).status).toBe(200);
  const address = await linkFreshWallet(t.ctx.database, user.id, CHAIN);
  const orderIds: string[] = [];
  for (const [edition, cents] of [
    [firstTicket, 2500],
    [firstTicket + 1, 4100],
  ] as const) {
    const [o] = await q<{ id: string }>(
      `INSERT INTO orders (user_id, nft_id, provider, state, edition, usd_cents, chain_id, buyer_address, tx_hash,
                           reserved_until, created_at, updated_at)
       VALUES ($1, $2, 'sandbox', 'fulfilled', $3, $4, $5, $6, $7, now(), now(), now()) RETURNING id::text AS id`,
      [user.id, nftId, edition, cents, CHAIN, address, hex(32)],
    );
    orderIds.push(o!.id);
    for (const [from, to] of [
      [null, "reserved"],
      ["reserved", "paid"],
      ["paid", "fulfilled"],
    ]) {
      await q(
        "INSERT INTO order_transitions (order_id, from_state, to_state, cause, at) VALUES ($1, $2, $3, 'test', now())",
        [o!.id, from, to],
      );
    }
  }
  const [ticketOrder] = await q<{ id: string }>(
    `INSERT INTO orders (user_id, lottery_id, ticket_count, provider, state, usd_cents, reserved_until, created_at, updated_at)
     VALUES ($1, $2, 3, 'sandbox', 'fulfilled', 300, now(), now(), now()) RETURNING id::text AS id`,
    [user.id, lotteryId],
  );
  await q(
    `INSERT INTO lottery_entries (order_id, lottery_id, user_id, first_ticket, last_ticket, paid_at)
     VALUES ($1, $2, $3, $4, $5, now())`,
    [ticketOrder!.id, lotteryId, user.id, firstTicket, firstTicket + 2],
  );
  const bidTx = hex(32);
  await q(
    `INSERT INTO indexer_bids (chain_id, block_number, log_index, tx_hash, block_time, token_id, bidder, amount_wei, ends_at)
     VALUES ($1, $2, 0, $3, now(), 77, $4, 1000000000000000, 0)`,
    [CHAIN, firstTicket, bidTx, address],
  );
  const [row] = await q<{ handle: string }>("SELECT handle FROM users WHERE id = $1", [user.id]);
  return {
    id: user.id,
    cookie,
    email: user.email,
    name,
    phone,
    handle: row!.handle,
    address,
    orderIds,
    ticketOrderId: ticketOrder!.id,
    bidTx,
  };
}

/** Every row of every table (public and the job queue's schema), as text. */
async function fullDump(): Promise<{ table: string; text: string }[]> {
  const tables = await q<{ s: string; n: string }>(
    `SELECT table_schema AS s, table_name AS n FROM information_schema.tables
      WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
  );
  const out: { table: string; text: string }[] = [];
  for (const { s, n } of tables) {
    const rows = await q<{ r: string }>(`SELECT t::text AS r FROM "${s}"."${n}" t`);
    for (const r of rows) out.push({ table: `${s}.${n}`, text: r.r });
    // bytea columns as UTF-8 too (a stored CSV or JSON would hide text behind hex).
    const bytea = await q<{ c: string }>(
      "SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND data_type = 'bytea'",
      [s, n],
    );
    for (const { c } of bytea) {
      const decoded = await q<{ r: string }>(
        `SELECT encode("${c}", 'escape') AS r FROM "${s}"."${n}" WHERE "${c}" IS NOT NULL`,
      );
      for (const r of decoded) out.push({ table: `${s}.${n}.${c}`, text: r.r });
    }
  }
  return out;
}

let a: Person;
let b: Person;
let nftId: string;

beforeAll(async () => {
  t = await createTestApp();
  nftId = await newNft(t.ctx, { editionSize: 50, editionsAvailable: 50 });
  const [lottery] = await q<{ id: string }>(
    `INSERT INTO lotteries (name, ticket_price_cents, min_tickets, prize_kind, prize_pool_cents, opens_at, closes_at,
                            seed, seed_hash, draw_blocks, created_at, updated_at)
     VALUES ('Premiere night', 100, 1, 'pool', 50000, now() - interval '1 day', now() + interval '1 day',
             $1, $2, 3, now(), now()) RETURNING id::text AS id`,
    [randomBytes(32), randomBytes(32)],
  );
  a = await person("Asha", nftId, lottery!.id, 1);
  b = await person("Bala", nftId, lottery!.id, 10);
  // They like the same card, follow each other (each is notified, by name), set mail consents.
  for (const p of [a, b]) {
    expect((await call("PUT", `/api/v1/nfts/${nftId}/like`, p.cookie)).status).toBeLessThan(300);
  }
  expect((await call("PUT", `/api/v1/users/${b.handle}/follow`, a.cookie)).status).toBe(200);
  expect((await call("PUT", `/api/v1/users/${a.handle}/follow`, b.cookie)).status).toBe(200);
  const prefs = { items: [{ kind: "outbid", email: false }] };
  expect((await call("PUT", "/api/v1/me/notification-preferences", a.cookie, prefs)).status).toBe(200);
  expect((await call("POST", "/api/v1/newsletter", undefined, { email: a.email })).status).toBeLessThan(300);
  const contact = { name: a.name, email: a.email, message: `Hello from ${a.name}, call me on ${a.phone}` };
  expect((await call("POST", "/api/v1/contact", undefined, contact)).status).toBeLessThan(300);
  // A job whose payload holds the address (the queue keeps done jobs for days).
  expect(
    (await call("POST", "/api/v1/auth/password-reset", undefined, { email: a.email })).status,
  ).toBeLessThan(300);
  await until("the reset mail", async () => {
    const [m] = await q("SELECT 1 FROM dev_mail WHERE to_address = $1 AND subject LIKE '%Reset%'", [a.email]);
    return m;
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("the newsletter consent", () => {
  it("is recorded with its time and can be withdrawn and given again", async () => {
    const c = await newSignedInUser(t.ctx);
    expect((await call("GET", "/api/v1/me/newsletter", c.cookie)).json()).toEqual({
      subscribed: false,
      since: null,
    });
    const given = await call("PUT", "/api/v1/me/newsletter", c.cookie, { subscribed: true });
    expect(given.json()).toMatchObject({ subscribed: true, since: expect.any(String) });
    // Giving it again keeps the first time.
    const again = await call("PUT", "/api/v1/me/newsletter", c.cookie, { subscribed: true });
    expect(again.json()).toEqual(given.json());
    expect((await call("PUT", "/api/v1/me/newsletter", c.cookie, { subscribed: false })).json()).toEqual({
      subscribed: false,
      since: null,
    });
    expect(
      await q("SELECT count(*)::int AS n FROM newsletter_subscribers WHERE email = $1", [c.user.email]),
    ).toEqual([{ n: 0 }]);
    expect((await call("GET", "/api/v1/me/newsletter")).status).toBe(401);
  });
});

describe("Download my data", () => {
  let archiveText = "";
  let archive: { userId: string; parts: Record<string, Record<string, unknown[]>> };

  it("202, then a mailed link that answers the archive once", async () => {
    const asked = await call("POST", "/api/v1/me/export", a.cookie);
    expect(asked.status).toBe(202);
    const mail = await until("the archive mail", async () => {
      const [m] = await q<{ text_body: string }>(
        "SELECT text_body FROM dev_mail WHERE to_address = $1 AND subject LIKE '%data is ready%'",
        [a.email],
      );
      return m;
    });
    const link = /\/api\/v1\/me\/export\/[A-Za-z0-9_-]{43}/.exec(mail.text_body)?.[0];
    expect(link).toBeDefined();
    const got = await call("GET", link!);
    expect(got.status).toBe(200);
    expect(got.headers["content-disposition"]).toContain("attachment");
    archiveText = got.text;
    archive = got.json();
    // Once only.
    expect((await call("GET", link!)).status).toBe(410);
    // Nobody else's key opens anything.
    expect((await call("GET", `/api/v1/me/export/${"x".repeat(43)}`)).status).toBe(410);
  });

  it("holds every record of the person: account, wallet, orders and transitions, tickets, bids, likes, follows, notifications, consents, mail, sessions", () => {
    const p = archive.parts;
    expect(archive.userId).toBe(a.id);
    const profile = (p.account as unknown as { profile: Record<string, unknown> }).profile;
    expect(profile).toMatchObject({ email: a.email, name: a.name, phone: a.phone, handle: a.handle });
    expect(p.account!.sessions!.length).toBeGreaterThanOrEqual(1);
    expect(p.wallets!.wallets).toEqual([expect.objectContaining({ address: a.address })]);
    const orderIds = (p.orders!.orders as { id: string }[]).map((o) => o.id).sort();
    expect(orderIds).toEqual([...a.orderIds, a.ticketOrderId].sort());
    expect(p.orders!.transitions).toHaveLength(6);
    expect((p.lottery!.tickets as { orderId: string }[]).map((x) => x.orderId)).toEqual([a.ticketOrderId]);
    expect((p.chain!.bids as { txHash: string }[]).map((x) => x.txHash)).toEqual([a.bidTx]);
    expect(p.social!.likes).toEqual([expect.objectContaining({ nftId })]);
    expect(p.social!.following).toEqual([expect.objectContaining({ userId: b.id })]);
    expect((p.social as unknown as { followerCount: number }).followerCount).toBe(1);
    expect((p.notifications!.notifications as { kind: string }[]).map((n) => n.kind)).toContain(
      "new_follower",
    );
    expect(p.notifications!.mailConsents).toEqual([
      expect.objectContaining({ kind: "outbid", mailAllowed: false }),
    ]);
    expect(p.newsletter).toMatchObject({ subscribed: true });
    expect(p.contact!.messages).toHaveLength(1);
    expect(p.mail!.mail!.length).toBeGreaterThanOrEqual(0);
  });

  it("holds nothing of the other user's: their address, phone, wallet, orders, tickets or bids", () => {
    const text = archiveText.toLowerCase();
    for (const s of [b.email, b.phone, b.address, b.bidTx, b.ticketOrderId, ...b.orderIds]) {
      expect(text, s).not.toContain(s.toLowerCase());
    }
  });
});

describe("Delete my account", () => {
  it("a wrong password is refused and nothing changes", async () => {
    const res = await call("POST", "/api/v1/me/delete", a.cookie, { password: "not-the-password" });
    expect(res.status).toBe(401);
    expect((await call("GET", "/api/v1/me", a.cookie)).status).toBe(200);
  });

  it("erases the person: no trace of email, name, phone or handle in any table, the job queue included", async () => {
    const ordersBefore = await q<{ n: number; cents: string }>(
      "SELECT count(*)::int AS n, sum(usd_cents)::text AS cents FROM orders WHERE user_id = $1",
      [a.id],
    );
    const chainBefore = await q("SELECT count(*)::int AS n FROM indexer_bids");
    const before = await fullDump();
    // The search can fail: before the deletion every needle is found.
    for (const s of [a.email, a.name, a.phone, a.handle]) {
      expect(
        before.some((r) => r.text.toLowerCase().includes(s.toLowerCase())),
        s,
      ).toBe(true);
    }
    expect(
      before.some((r) => r.table.startsWith("pgboss.") && r.text.includes(a.email)),
      "a job names them",
    ).toBe(true);

    const res = await call("POST", "/api/v1/me/delete", a.cookie, { password: FACTORY_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ deleted: true });
    expect(String(res.headers["set-cookie"])).toMatch(/diginoor_session=;/);
    // The session is over.
    expect((await call("GET", "/api/v1/me", a.cookie)).status).toBe(401);

    const after = await fullDump();
    const found = after.filter((r) =>
      [a.email, a.name, a.phone, a.handle].some((s) => r.text.toLowerCase().includes(s.toLowerCase())),
    );
    expect(found.map((r) => `${r.table}: ${r.text.slice(0, 200)}`)).toEqual([]);

    // Orders and the chain's records still add up, attached to the pseudonymous row.
    expect(
      await q("SELECT count(*)::int AS n, sum(usd_cents)::text AS cents FROM orders WHERE user_id = $1", [
        a.id,
      ]),
    ).toEqual(ordersBefore);
    expect(await q("SELECT count(*)::int AS n FROM indexer_bids")).toEqual(chainBefore);
    expect(await q("SELECT count(*)::int AS n FROM lottery_entries WHERE user_id = $1", [a.id])).toEqual([
      { n: 1 },
    ]);
    // Wallets unlinked; the other user's records untouched.
    expect(await q("SELECT count(*)::int AS n FROM wallets WHERE user_id = $1", [a.id])).toEqual([{ n: 0 }]);
    expect(await q("SELECT count(*)::int AS n FROM nft_likes WHERE user_id = $1", [b.id])).toEqual([
      { n: 1 },
    ]);
    expect(await q("SELECT count(*)::int AS n FROM orders WHERE user_id = $1", [b.id])).toEqual([{ n: 3 }]);
  });

  it("they cannot sign in, and a new account can take the address", async () => {
    const login = await call("POST", "/api/v1/auth/login", undefined, {
      email: a.email,
      password: FACTORY_PASSWORD,
    });
    expect(login.status).toBe(401);
    const signup = await call("POST", "/api/v1/auth/signup", undefined, {
      name: "Someone New",
      email: a.email,
      password: "another-password-1",
      confirmPassword: "another-password-1",
    });
    expect(signup.status).toBe(201);
    expect(signup.json().user.id).not.toBe(a.id);
  });

  it("deleting twice is impossible: the erased account has no session to ask with", async () => {
    expect((await call("POST", "/api/v1/me/delete", a.cookie, { password: FACTORY_PASSWORD })).status).toBe(
      401,
    );
  });

  it("the erased handle is held back: a new account that would get it gets another", async () => {
    // Same name and same first six hex digits of the id: the trigger would give exactly the old handle.
    const id = `${a.id.slice(0, 24)}${randomBytes(6).toString("hex")}`;
    const [row] = await q<{ handle: string }>(
      "INSERT INTO users (id, name, email) VALUES ($1, $2, $3) RETURNING handle",
      [id, a.name, uniqueEmail("lookalike")],
    );
    expect(row!.handle).not.toBe(a.handle);
    expect(row!.handle.startsWith(a.handle.slice(0, a.handle.lastIndexOf("-") + 1))).toBe(true);
  });

  it("a Google-only account confirms by a mailed link, which works once", async () => {
    const g = await newSignedInUser(t.ctx, {
      password: null,
      googleSub: `g-${randomBytes(4).toString("hex")}`,
    });
    const asked = await call("POST", "/api/v1/me/delete", g.cookie, {});
    expect(asked.status).toBe(200);
    expect(asked.json()).toMatchObject({ deleted: false });
    // Nothing is erased before the link is used.
    expect((await call("GET", "/api/v1/me", g.cookie)).status).toBe(200);
    const mail = await until("the confirmation mail", async () => {
      const [m] = await q<{ text_body: string }>("SELECT text_body FROM dev_mail WHERE to_address = $1", [
        g.user.email,
      ]);
      return m;
    });
    const token = /delete-account\?token=([A-Za-z0-9_-]{43})/.exec(mail.text_body)?.[1];
    expect(token).toBeDefined();
    const confirmed = await call("POST", "/api/v1/me/delete/confirm", undefined, { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json()).toMatchObject({ deleted: true });
    expect((await call("GET", "/api/v1/me", g.cookie)).status).toBe(401);
    const [row] = await q<{ email: string; google_sub: string | null; deleted: boolean }>(
      "SELECT email, google_sub, deleted_at IS NOT NULL AS deleted FROM users WHERE id = $1",
      [g.user.id],
    );
    expect(row).toMatchObject({ google_sub: null, deleted: true });
    expect(row!.email).not.toBe(g.user.email);
    expect((await call("POST", "/api/v1/me/delete/confirm", undefined, { token })).status).toBe(400);
  });
});
