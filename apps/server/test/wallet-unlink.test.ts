/**
 * Unlinking a wallet (issue 35 item 2): a passkey wallet that holds a token (the indexer's ownership, read
 * through its service) or any coin (read from the chain, anvil) is refused with 409 wallet_not_empty and
 * stays linked; an empty one unlinks, and the same passkey links the same address again.
 */
import { walletMessages as m } from "@diginoor/api/wallets";
import { createSoftwarePasskey } from "@diginoor/contracts/software-passkey";
import { createTestClient, http, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { passkeyAssertionBody } from "./fixtures/passkeys.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const ORIGIN = "http://localhost:3000";

describe("unlinking a passkey wallet", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(
      { PUBLIC_URL: ORIGIN, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" },
      { chain: true },
    );
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const anvil = () => createTestClient({ mode: "anvil", transport: http(t.ctx.chain!.rpcUrl) });

  async function linkNew(cookie: string, passkey = createSoftwarePasskey({ origin: ORIGIN })) {
    const n = await t.app.inject({ method: "POST", url: "/api/v1/wallets/nonce", headers: { cookie } });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/wallets/passkey",
      headers: { cookie },
      payload: passkeyAssertionBody(passkey, n.json().nonce),
    });
    expect(res.statusCode, res.body).toBe(201);
    return { passkey, address: res.json().address as `0x${string}` };
  }
  const unlink = (cookie: string, address: string) =>
    t.app.inject({ method: "DELETE", url: `/api/v1/wallets/${address}`, headers: { cookie } });
  const listed = async (cookie: string) =>
    (await t.app.inject({ method: "GET", url: "/api/v1/wallets", headers: { cookie } }))
      .json()
      .items.map((w: { address: string }) => w.address);

  /** The indexer's row for a token `owner` owns, as it writes it when it applies a mint. */
  async function indexedToken(owner: string, tokenId: bigint) {
    await t.ctx.database.query(
      `INSERT INTO indexer_tokens (chain_id, token_id, nft_number, edition, owner, royalty_receiver, royalty_bps, minted_block)
       VALUES ($1, $2, 1, 1, $3, $3, 500, 1)`,
      [t.ctx.chain!.chainId, tokenId.toString(), owner],
    );
  }

  it("refuses to unlink a passkey wallet that owns a token, and it stays linked", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const { address } = await linkNew(cookie);
    await indexedToken(address, 9_350_001n);
    const res = await unlink(cookie, address);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toEqual({
      code: "wallet_not_empty",
      message: m.walletNotEmpty(1, false),
      details: { tokens: 1, balanceWei: "0" },
    });
    expect(await listed(cookie)).toEqual([address]);
  });

  it("refuses to unlink a passkey wallet holding coin (a sale's proceeds), read from the chain", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const { address } = await linkNew(cookie);
    await anvil().setBalance({ address, value: parseEther("0.00525") });
    const res = await unlink(cookie, address);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe("wallet_not_empty");
    expect(res.json().error.details).toEqual({ tokens: 0, balanceWei: parseEther("0.00525").toString() });
    expect(res.json().error.message).toBe(m.walletNotEmpty(0, true));
    expect(await listed(cookie)).toEqual([address]);
    // One wei is still something.
    await anvil().setBalance({ address, value: 1n });
    expect((await unlink(cookie, address)).statusCode).toBe(409);
  });

  it("unlinks an empty passkey wallet, and the same passkey links the same address again", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const { passkey, address } = await linkNew(cookie);
    const res = await unlink(cookie, address);
    expect(res.statusCode, res.body).toBe(204);
    expect(await listed(cookie)).toEqual([]);
    const again = await linkNew(cookie, passkey);
    expect(again.address).toBe(address);
    expect(await listed(cookie)).toEqual([address]);
  });

  it("someone else's full wallet is still 'not found' to me (whose it is, and what it holds, stay private)", async () => {
    const owner = await newSignedInUser(t.ctx);
    const { address } = await linkNew(owner.cookie);
    await indexedToken(address, 9_350_002n);
    const me = await newSignedInUser(t.ctx);
    const res = await unlink(me.cookie, address);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(m.notLinked);
  });
});
