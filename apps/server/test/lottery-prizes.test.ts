import { randomUUID } from "node:crypto";
import { ANVIL_ADDRESSES } from "@diginoor/contracts/anvil-accounts";
import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { createPublicClient, getAddress, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ticketsCsv } from "../src/modules/lottery/draw.ts";
import { createTestClock } from "../src/platform/clock.ts";
import { withTransaction } from "../src/platform/tx.ts";
import { mintsOnChain } from "./card-orders.ts";
import { httpApi, until } from "./commerce-helpers.ts";
import { mailbox } from "./fixtures/accounts.ts";
import { linkFreshWallet } from "./card-orders.ts";
import { newNft, newSignedInUser, newUser } from "./factories.ts";
import { type TestApp, createTestApp } from "./harness.ts";
import { sandboxKyc } from "./kyc-helpers.ts";
import { ticketTraffic } from "./lottery-helpers.ts";

/**
 * Lottery prizes (issue 24 point 8, decision 161), on anvil: an activated lottery has exactly one
 * winner; its NFT prize is minted once to the winner's receiving wallet by the orders module's
 * fulfilment (a duplicate job, a crash after the mint and two runs at once mint nothing more); a
 * winner without a wallet is asked to link one and the prize is minted when they do; a prize pool
 * is owed until an administrator records its payment (audited, once). The winner gets a
 * notification and a mail; every other player gets the result.
 */

const PUBLIC_URL = "http://localhost:3000";
const HOUR = 3600_000;
let t: TestApp;
const clock = createTestClock(Date.now());
const api = httpApi(() => t.app);
let admin: { cookie: string; user: { id: string } };
const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.ctx.database.query<T & Record<string, unknown>>(sql, params);

const rpc = async (method: string, params: unknown[] = []) => {
  const res = await fetch(t.ctx.chain!.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
};

type Delivery = { state: string; txHash: string | null; tokenId: string | null; paidAt: string | null };
type LotteryView = {
  id: string;
  state: string;
  draw: { winningTicket: number } | null;
  prizeDelivery: Delivery | null;
};

async function createLottery(prize: object) {
  const now = clock.now();
  const res = await api<LotteryView>("POST", "/api/v1/admin/lotteries", admin.cookie, {
    name: `Prize draw ${randomUUID().slice(0, 6)}`,
    ticketPriceCents: 300,
    minTickets: 5,
    opensAt: new Date(now + HOUR).toISOString(),
    closesAt: new Date(now + 3 * HOUR).toISOString(),
    prize,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A paid ticket order's numbering, as the orders module calls it in the transaction that pays it. */
const pay = (lotteryId: string, userId: string, count: number) =>
  withTransaction(t.ctx.database, (tx) =>
    t.ctx.services.lottery.assignTickets(tx, { lotteryId, orderId: randomUUID(), userId, count }),
  );

/** Opens the lottery, sells `counts` to `players`, closes it and mines the draw's block. */
async function sellAndDraw(id: string, players: { id: string }[], counts: number[]) {
  clock.advance(HOUR + 1000);
  for (const [i, c] of counts.entries()) {
    const r = await pay(id, players[i % players.length]!.id, c);
    expect("first" in r).toBe(true);
  }
  clock.advance(2 * HOUR);
  await t.ctx.services.lottery.tick();
  // The database writes tickets.csv in exactly draw.ts's format.
  const ranges = await q<{ order_id: string; first_ticket: string; last_ticket: string }>(
    "SELECT order_id, first_ticket, last_ticket FROM lottery_entries WHERE lottery_id = $1 ORDER BY first_ticket",
    [id],
  );
  const csv = await t.app.inject({ method: "GET", url: `/api/v1/lotteries/${id}/tickets.csv` });
  expect(
    csv.rawPayload.equals(
      ticketsCsv(
        ranges.map((r) => ({
          first: Number(r.first_ticket),
          last: Number(r.last_ticket),
          orderId: r.order_id,
        })),
      ),
    ),
  ).toBe(true);
  for (let i = 0; i < 4; i++) await rpc("evm_mine");
  // Two workers draw at once: one draw.
  await Promise.all([t.ctx.services.lottery.tick(), t.ctx.services.lottery.tick()]);
  const l = (await api<LotteryView>("GET", `/api/v1/lotteries/${id}`)).body;
  expect(l.state).toBe("drawn");
  const holders = await q<{ user_id: string }>(
    `SELECT e.user_id FROM lottery_entries e JOIN lotteries l ON l.id = e.lottery_id
      WHERE l.id = $1 AND e.first_ticket <= l.winning_ticket AND e.last_ticket >= l.winning_ticket`,
    [id],
  );
  expect(holders).toHaveLength(1);
  const [row] = await q<{ winner_user_id: string }>("SELECT winner_user_id FROM lotteries WHERE id = $1", [
    id,
  ]);
  expect(row!.winner_user_id).toBe(holders[0]!.user_id);
  return { lottery: l, winnerId: holders[0]!.user_id };
}

const delivery = async (id: string) =>
  (await api<LotteryView>("GET", `/api/v1/lotteries/${id}`)).body.prizeDelivery;

async function nftWithPayout(editions: number) {
  const nftId = await newNft(t.ctx, { editionSize: editions, editionsAvailable: editions });
  await q(
    "UPDATE production_houses SET payout_address = $2 WHERE id = (SELECT production_house_id FROM nfts WHERE id = $1)",
    [nftId, ANVIL_ADDRESSES[9]],
  );
  return nftId;
}

async function ownerOnChain(tokenId: bigint) {
  const pc = createPublicClient({ transport: http(t.ctx.chain!.rpcUrl) });
  return pc.readContract({
    address: t.ctx.chain!.deployment.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "ownerOf",
    args: [tokenId],
  });
}

const notificationsOf = (userId: string) =>
  q<{ kind: string; text: string; link: string }>(
    "SELECT kind, text, link FROM notifications WHERE user_id = $1 ORDER BY id",
    [userId],
  );

/** Links a fresh wallet to a signed-in user through Sign-In with Ethereum, as the wallet page does. */
async function linkBySiwe(cookie: string) {
  const account = privateKeyToAccount(generatePrivateKey());
  const nonce = (await api<{ nonce: string }>("POST", "/api/v1/wallets/nonce", cookie)).body.nonce;
  const issuedAt = new Date(clock.now());
  const message = createSiweMessage({
    address: account.address,
    chainId: t.ctx.chain!.chainId,
    domain: new URL(PUBLIC_URL).host,
    uri: PUBLIC_URL,
    nonce,
    version: "1",
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + 5 * 60_000),
  });
  const res = await api("POST", "/api/v1/wallets", cookie, {
    message,
    signature: await account.signMessage({ message }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return account.address;
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, LOTTERY_DRAW_BLOCKS: "3" }, { chain: true, clock });
  admin = await newSignedInUser(t.ctx, { role: "admin" });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("lottery prizes", () => {
  it("mints an NFT prize once to the one winner's wallet; every player is told", async () => {
    const nftId = await nftWithPayout(3);
    const l = await createLottery({ kind: "nft", nftId });
    // The winner's edition is set aside when the lottery is created.
    const [nft] = await q<{ editions_available: number }>(
      "SELECT editions_available FROM nfts WHERE id = $1",
      [nftId],
    );
    expect(nft!.editions_available).toBe(2);
    const players = await Promise.all(Array.from({ length: 4 }, () => newUser(t.ctx)));
    const wallets = new Map<string, string>();
    for (const p of players)
      wallets.set(p.id, await linkFreshWallet(t.ctx.database, p.id, t.ctx.chain!.chainId));
    const { lottery, winnerId } = await sellAndDraw(l.id, players, [3, 1, 4, 1, 5, 9, 2, 6]);

    const done = await until(
      "the prize mint",
      () => delivery(l.id),
      (d) => d?.state === "minted",
      60_000,
    );
    const [prize] = await q<{ token_number: string; edition: number; address: string; tx_hash: string }>(
      "SELECT token_number::text, edition, address, tx_hash FROM prize_mints WHERE source = $1",
      [`lottery:${l.id}`],
    );
    expect(done).toMatchObject({ state: "minted", tokenId: prize!.token_number, txHash: prize!.tx_hash });
    const tokenId = BigInt(prize!.token_number);
    expect(getAddress(await ownerOnChain(tokenId))).toBe(wallets.get(winnerId));
    expect(prize!.address).toBe(wallets.get(winnerId));
    expect(prize!.edition).toBe(1);

    // A duplicate job, a second run at once, and a run after a crash between the mint and its record.
    const fulfilment = t.ctx.services.orders.fulfilment;
    const [prizeRow] = await q<{ id: string }>("SELECT id FROM prize_mints WHERE source = $1", [
      `lottery:${l.id}`,
    ]);
    await q("UPDATE prize_mints SET state = 'minting' WHERE id = $1", [prizeRow!.id]);
    await Promise.all([fulfilment.mintPrize(prizeRow!.id), fulfilment.mintPrize(prizeRow!.id)]);
    await fulfilment.resumePrizes(null);
    expect((await delivery(l.id))?.state).toBe("minted");
    const mints = await mintsOnChain(t.ctx.chain!.rpcUrl, t.ctx.chain!.deployment.collectible);
    expect(mints.get(tokenId)).toBe(1);

    // An order of the same NFT never gets the prize's edition.
    const [free] = await q<{ e: number }>(
      `SELECT min(g) AS e FROM generate_series(1, 3) g WHERE NOT EXISTS
         (SELECT 1 FROM prize_mints p WHERE p.nft_id = $1 AND p.edition = g)`,
      [nftId],
    );
    expect(free!.e).toBe(2);

    // The winner: a notification and one mail; every other player: the result.
    const won = await until(
      "the winner's notification",
      () => notificationsOf(winnerId),
      (n) => n.length > 0,
    );
    expect(won).toEqual([
      expect.objectContaining({
        kind: "lottery_won",
        text: expect.stringMatching(new RegExp(`ticket ${lottery.draw!.winningTicket} was drawn`)),
      }),
    ]);
    for (const p of players.filter((x) => x.id !== winnerId)) {
      const n = await until(
        "a player's result",
        () => notificationsOf(p.id),
        (x) => x.length > 0,
      );
      expect(n).toEqual([
        expect.objectContaining({ kind: "lottery_result", link: `/lottery/${l.id}/verify` }),
      ]);
    }
    const winnerEmail = players.find((p) => p.id === winnerId)!.email;
    const mail = await until(
      "the winner's mail",
      async () => (await mailbox(t.app)).filter((m) => m.to === winnerEmail),
      (m) => m.length > 0,
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toMatch(/You won the Diginoor lottery/);
    const others = new Set(players.filter((p) => p.id !== winnerId).map((p) => p.email));
    expect((await mailbox(t.app)).filter((m) => others.has(m.to))).toHaveLength(0);
  }, 120_000);

  it("keeps the prize of a winner without a wallet until they link one, then mints it", async () => {
    const nftId = await nftWithPayout(2);
    const l = await createLottery({ kind: "nft", nftId });
    const fans = await Promise.all(Array.from({ length: 3 }, () => newSignedInUser(t.ctx)));
    const { winnerId } = await sellAndDraw(
      l.id,
      fans.map((f) => f.user),
      [2, 2, 2],
    );
    await t.ctx.services.orders.fulfilment.resumePrizes(null);
    expect((await delivery(l.id))?.state).toBe("awaiting_wallet");
    const asked = await until(
      "the winner's notification",
      () => notificationsOf(winnerId),
      (n) => n.length > 0,
    );
    expect(asked[0]).toMatchObject({ kind: "lottery_won", link: "/wallet" });
    expect(asked[0]!.text).toMatch(/Link a wallet/);
    const tickets = await api<{ items: { won: boolean; lottery: LotteryView }[] }>(
      "GET",
      "/api/v1/me/lottery-tickets",
      fans.find((f) => f.user.id === winnerId)!.cookie,
    );
    expect(tickets.body.items[0]).toMatchObject({
      won: true,
      lottery: { prizeDelivery: { state: "awaiting_wallet" } },
    });

    const address = await linkBySiwe(fans.find((f) => f.user.id === winnerId)!.cookie);
    const d = await until(
      "the prize mint after linking",
      () => delivery(l.id),
      (x) => x?.state === "minted",
      60_000,
    );
    expect(getAddress(await ownerOnChain(BigInt(d!.tokenId!)))).toBe(getAddress(address));
  }, 120_000);

  it("sets the prize's edition aside at creation, moves it with an edit and gives it back when not activated", async () => {
    const first = await nftWithPayout(2);
    const second = await nftWithPayout(1);
    const available = async (id: string) =>
      (await q<{ n: number }>("SELECT editions_available AS n FROM nfts WHERE id = $1", [id]))[0]!.n;
    const l = await createLottery({ kind: "nft", nftId: first });
    expect(await available(first)).toBe(1);
    const edited = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/admin/lotteries/${l.id}`,
      headers: { cookie: admin.cookie },
      payload: { prize: { kind: "nft", nftId: second } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect([await available(first), await available(second)]).toEqual([2, 0]);
    // The second NFT has no edition left for another lottery: 409, nothing recorded.
    const before = await q("SELECT id FROM lotteries");
    const refused = await api("POST", "/api/v1/admin/lotteries", admin.cookie, {
      name: "No edition left",
      ticketPriceCents: 300,
      minTickets: 5,
      opensAt: new Date(clock.now() + HOUR).toISOString(),
      closesAt: new Date(clock.now() + 3 * HOUR).toISOString(),
      prize: { kind: "nft", nftId: second },
    });
    expect(refused.status).toBe(409);
    expect(await q("SELECT id FROM lotteries")).toHaveLength(before.length);
    clock.advance(HOUR + 1000);
    // A real paid ticket order: not activated, it is refunded through the orders module.
    await ticketTraffic(() => t, clock).paidTickets(l.id, 2);
    clock.advance(2 * HOUR);
    await t.ctx.services.lottery.tick();
    expect((await api<LotteryView>("GET", `/api/v1/lotteries/${l.id}`)).body).toMatchObject({
      state: "not_activated",
      prizeDelivery: null,
    });
    expect(await available(second)).toBe(1);
  }, 60_000);

  it("owes a prize pool until an administrator records its payment, once and audited", async () => {
    const l = await createLottery({ kind: "pool", amountCents: 25_000 });
    const players = await Promise.all(Array.from({ length: 2 }, () => newUser(t.ctx)));
    await sellAndDraw(l.id, players, [3, 3]);
    expect(await delivery(l.id)).toMatchObject({ state: "owed", paidAt: null });
    // The winner is told the cash prize rupees first, like every price, at the stored rate.
    const told = await until(
      "the winner's notification",
      async () => (await Promise.all(players.map((p) => notificationsOf(p.id)))).flat(),
      (n) => n.some((x) => x.kind === "lottery_won"),
    );
    expect(told.find((x) => x.kind === "lottery_won")?.text).toMatch(
      /a prize of ₹[\d,]+(\.\d{2})? · \$250 is yours/,
    );
    const url = `/api/v1/admin/lotteries/${l.id}/prize-payment`;
    const [house] = await q<{ id: number }>("SELECT production_house_id AS id FROM nfts WHERE id = $1", [
      await nftWithPayout(1),
    ]);
    const studio = await newSignedInUser(t.ctx, { role: "studio", productionHouseId: house!.id });
    const fan = await newSignedInUser(t.ctx);
    expect((await api("POST", url, studio.cookie, { reference: "NEFT 1" })).status).toBe(403);
    expect((await api("POST", url, fan.cookie, { reference: "NEFT 1" })).status).toBe(403);
    expect((await api("POST", url, undefined, { reference: "NEFT 1" })).status).toBe(401);
    for (const bad of [{}, { reference: "" }, { reference: "NEFT 1", amountCents: 1 }])
      expect((await api("POST", url, admin.cookie, bad)).status, JSON.stringify(bad)).toBe(400);
    expect(await delivery(l.id)).toMatchObject({ state: "owed" });
    // Money goes out only to a winner whose identity is verified (KYC, decision 175).
    const [{ winner }] = (await q<{ winner: string }>(
      "SELECT winner_user_id AS winner FROM lotteries WHERE id = $1",
      [l.id],
    )) as [{ winner: string }];
    const unverified = await api<{ error: { code: string; message: string } }>("POST", url, admin.cookie, {
      reference: "NEFT UTR 4411",
    });
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.code).toBe("kyc_required");
    expect(unverified.body.error.message).toMatch(
      /The winner has not verified their identity \(KYC not started\)/,
    );
    await sandboxKyc(t, winner, "reject");
    const rejected = await api<{ error: { code: string; message: string } }>("POST", url, admin.cookie, {
      reference: "NEFT UTR 4411",
    });
    expect(rejected.body.error.message).toMatch(/KYC rejected/);
    expect(await delivery(l.id)).toMatchObject({ state: "owed" });
    expect(
      await q("SELECT 1 FROM admin_audit_log WHERE subject_id = $1 AND action = 'lottery.prize_paid'", [
        l.id,
      ]),
    ).toHaveLength(0);
    await sandboxKyc(t, winner, "approve");
    const results = await Promise.all([
      api<LotteryView>("POST", url, admin.cookie, { reference: "NEFT UTR 4411" }),
      api<LotteryView>("POST", url, admin.cookie, { reference: "NEFT UTR 4411" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await delivery(l.id)).toMatchObject({ state: "paid", paidAt: expect.any(String) });
    const audit = await q<{ action: string; after: { paymentReference: string } }>(
      "SELECT action, after FROM admin_audit_log WHERE subject_id = $1 AND action = 'lottery.prize_paid'",
      [l.id],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after.paymentReference).toBe("NEFT UTR 4411");
    // An NFT prize is never "paid" from the console.
    const nftLottery = await createLottery({ kind: "nft", nftId: await nftWithPayout(1) });
    expect(
      (
        await api("POST", `/api/v1/admin/lotteries/${nftLottery.id}/prize-payment`, admin.cookie, {
          reference: "x",
        })
      ).status,
    ).toBe(409);
  }, 120_000);
});
