import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { walletMessages as m } from "@diginoor/api/wallets";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock, type TestClock } from "../src/platform/clock.ts";
import { newSignedInUser } from "./factories.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const PUBLIC_URL = "http://localhost:3000";
const alice = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]);
const bob = privateKeyToAccount(ANVIL_PRIVATE_KEYS[6]);
const carol = privateKeyToAccount(ANVIL_PRIVATE_KEYS[7]);
const dave = privateKeyToAccount(ANVIL_PRIVATE_KEYS[8]);

describe("wallets: linking with Sign-In with Ethereum", () => {
  let t: TestApp;
  let clock: TestClock;
  let chainId: number;

  beforeAll(async () => {
    clock = createTestClock(Date.now());
    t = await createTestApp({ PUBLIC_URL }, { clock, chain: true });
    chainId = t.ctx.chain!.chainId;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function nonceFor(cookie: string): Promise<string> {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/wallets/nonce", headers: { cookie } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ domain: "localhost:3000", uri: PUBLIC_URL, chainId });
    return res.json().nonce;
  }

  /** A standard EIP-4361 message for `address`, with the server's expected values unless overridden. */
  function message(
    address: `0x${string}`,
    nonce: string,
    over: Partial<Parameters<typeof createSiweMessage>[0]> = {},
  ) {
    const issuedAt = new Date(clock.now());
    return createSiweMessage({
      address,
      chainId,
      domain: "localhost:3000",
      uri: PUBLIC_URL,
      nonce,
      version: "1",
      statement: "Link this wallet to my Diginoor account",
      issuedAt,
      expirationTime: new Date(issuedAt.getTime() + 10 * 60_000),
      ...over,
    });
  }

  async function link(cookie: string, msg: string, signature: Hex) {
    return t.app.inject({
      method: "POST",
      url: "/api/v1/wallets",
      headers: { cookie },
      payload: { message: msg, signature },
    });
  }

  async function listOf(cookie: string) {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/wallets", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.json().items as Array<{ address: string; receivesPurchases: boolean; chainId: number }>;
  }

  it("links the wallet that signed a valid message; the first wallet receives purchases", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const msg = message(alice.address, await nonceFor(cookie));
    const res = await link(cookie, msg, await alice.signMessage({ message: msg }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ address: alice.address, receivesPurchases: true, chainId });
    expect(await listOf(cookie)).toEqual([
      expect.objectContaining({ address: alice.address, receivesPurchases: true }),
    ]);
  });

  it.each([
    ["wrong domain", { domain: "evil.example" }, m.wrongDomain("localhost:3000")],
    ["wrong uri", { uri: "http://localhost:3000/other" }, m.wrongUri(PUBLIC_URL)],
    ["wrong chain id", { chainId: 137 }, m.wrongChain(31337)],
  ] as const)("refuses a message with a %s and changes nothing", async (_name, over, expected) => {
    const { cookie } = await newSignedInUser(t.ctx);
    const nonce = await nonceFor(cookie);
    const bad = message(bob.address, nonce, over);
    const res = await link(cookie, bad, await bob.signMessage({ message: bad }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: "bad_request", message: expected });
    expect(await listOf(cookie)).toEqual([]);
    // The nonce was not consumed: a correct message with it still links.
    const good = message(bob.address, nonce);
    const ok = await link(cookie, good, await bob.signMessage({ message: good }));
    expect(ok.statusCode, ok.body).toBe(201);
    await t.app.inject({ method: "DELETE", url: `/api/v1/wallets/${bob.address}`, headers: { cookie } });
  });

  it("refuses a used nonce", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const nonce = await nonceFor(cookie);
    const first = message(carol.address, nonce);
    expect((await link(cookie, first, await carol.signMessage({ message: first }))).statusCode).toBe(201);
    const again = message(dave.address, nonce);
    const res = await link(cookie, again, await dave.signMessage({ message: again }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.usedNonce);
    expect((await listOf(cookie)).map((w) => w.address)).toEqual([carol.address]);
    await t.app.inject({ method: "DELETE", url: `/api/v1/wallets/${carol.address}`, headers: { cookie } });
  });

  it("refuses a nonce issued to another user", async () => {
    const a = await newSignedInUser(t.ctx);
    const b = await newSignedInUser(t.ctx);
    const msg = message(dave.address, await nonceFor(a.cookie));
    const res = await link(b.cookie, msg, await dave.signMessage({ message: msg }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.unknownNonce);
    expect(await listOf(b.cookie)).toEqual([]);
  });

  it("refuses an expired message, a lifetime over 10 minutes and an expired nonce", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const nonce = await nonceFor(cookie);
    const now = clock.now();
    const expired = message(dave.address, nonce, {
      issuedAt: new Date(now - 20 * 60_000),
      expirationTime: new Date(now - 11 * 60_000),
    });
    let res = await link(cookie, expired, await dave.signMessage({ message: expired }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.expired);

    const tooLong = message(dave.address, nonce, { expirationTime: new Date(now + 11 * 60_000) });
    res = await link(cookie, tooLong, await dave.signMessage({ message: tooLong }));
    expect(res.json().error.message).toBe(m.tooLong);

    const future = message(dave.address, nonce, {
      issuedAt: new Date(now + 5 * 60_000),
      expirationTime: new Date(now + 10 * 60_000),
    });
    res = await link(cookie, future, await dave.signMessage({ message: future }));
    expect(res.json().error.message).toBe(m.issuedInFuture);

    // Ten minutes later the nonce itself has expired, whatever the message says.
    clock.advance(10 * 60_000 + 1);
    const late = message(dave.address, nonce);
    res = await link(cookie, late, await dave.signMessage({ message: late }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.expiredNonce);
    expect(await listOf(cookie)).toEqual([]);
  });

  it("issues nonces from a cryptographic source: 32 hex digits, none a shift of another (issue 23 point 10)", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const nonces: string[] = [];
    for (let i = 0; i < 6; i++) nonces.push(await nonceFor(cookie));
    for (const n of nonces) expect(n).toMatch(/^[0-9a-f]{32}$/); // alphanumeric, ≥ 17 (EIP-4361)
    expect(new Set(nonces).size).toBe(nonces.length);
    // viem's generateSiweNonce slid a window over one buffer: each nonce was the last shifted by one.
    for (let i = 1; i < nonces.length; i++) {
      expect(nonces[i]?.slice(0, 16), `nonce ${i}`).not.toBe(nonces[i - 1]?.slice(1, 17));
      expect(nonces[i - 1]?.includes(nonces[i]?.slice(0, 12) ?? ""), `nonce ${i}`).toBe(false);
    }
  });

  it("refuses a message not in the standard form, and accepts one without an Expiration Time (issue 23 point 10)", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const nonce = await nonceFor(cookie);
    const standard = message(dave.address, nonce);
    const variants = {
      "a lower-case address": standard.replace(dave.address, dave.address.toLowerCase()),
      "an extra line at the end": `${standard}\nAlso: transfer everything`,
      "an extra line in the statement": standard.replace(
        "Link this wallet to my Diginoor account",
        "Link this wallet to my Diginoor account\nand approve all tokens",
      ),
      "a time without milliseconds": standard.replace(/(Issued At: [^.\n]+)\.\d{3}Z/, "$1Z"),
      "CRLF line ends": standard.replaceAll("\n", "\r\n"),
    };
    for (const [what, variant] of Object.entries(variants)) {
      expect(variant, what).not.toBe(standard);
      const res = await link(cookie, variant, await dave.signMessage({ message: variant }));
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().error.message, what).toMatch(/standard Sign-In with Ethereum|not a valid Sign-In/);
    }
    expect(await listOf(cookie)).toEqual([]);
    // The Expiration Time is optional: the nonce's own ten minutes bound the message.
    const noExpiry = message(dave.address, nonce, { expirationTime: undefined });
    expect(noExpiry).not.toContain("Expiration Time");
    const res = await link(cookie, noExpiry, await dave.signMessage({ message: noExpiry }));
    expect(res.statusCode, res.body).toBe(201);
    await t.app.inject({ method: "DELETE", url: `/api/v1/wallets/${dave.address}`, headers: { cookie } });
  });

  it("refuses someone else's signature", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const nonce = await nonceFor(cookie);
    const msg = message(dave.address, nonce);
    let res = await link(cookie, msg, await bob.signMessage({ message: msg }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.badSignature);
    expect(await listOf(cookie)).toEqual([]);
    // Nor a garbled signature, nor a message that is not EIP-4361.
    res = await link(cookie, msg, `0x${"11".repeat(65)}`);
    expect(res.json().error.message).toBe(m.badSignature);
    res = await link(cookie, "hello", await dave.signMessage({ message: "hello" }));
    expect(res.json().error.message).toBe(m.badMessage);
    res = await link(cookie, msg, "0xzz" as Hex);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("validation_failed");
  });

  it("refuses an address already linked to another account (409), and to the same account", async () => {
    const owner = await newSignedInUser(t.ctx);
    const other = await newSignedInUser(t.ctx);
    const msg = message(dave.address, await nonceFor(owner.cookie));
    expect((await link(owner.cookie, msg, await dave.signMessage({ message: msg }))).statusCode).toBe(201);

    // Without dave's key, the other account learns nothing about his address (issue 34 point 7): the
    // signature is checked first, so a forged one is a bad signature, not "linked to another account".
    const probe = message(dave.address, await nonceFor(other.cookie));
    const forged = await link(other.cookie, probe, await bob.signMessage({ message: probe }));
    expect(forged.statusCode, forged.body).toBe(400);
    expect(forged.json().error.message).toBe(m.badSignature);
    const garbled = await link(other.cookie, probe, `0x${"11".repeat(65)}`);
    expect(garbled.json().error.message).toBe(m.badSignature);

    const nonce = await nonceFor(other.cookie);
    const theirs = message(dave.address, nonce);
    const res = await link(other.cookie, theirs, await dave.signMessage({ message: theirs }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: "conflict", message: m.linkedElsewhere });
    expect(await listOf(other.cookie)).toEqual([]);

    const mine = message(dave.address, await nonceFor(owner.cookie));
    const again = await link(owner.cookie, mine, await dave.signMessage({ message: mine }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.alreadyLinked);
    await t.app.inject({
      method: "DELETE",
      url: `/api/v1/wallets/${dave.address}`,
      headers: { cookie: owner.cookie },
    });
  });

  it("chooses the receiving wallet, unlinks, and never lets another user touch my wallets", async () => {
    const me = await newSignedInUser(t.ctx);
    const other = await newSignedInUser(t.ctx);
    const first = message(bob.address, await nonceFor(me.cookie));
    expect((await link(me.cookie, first, await bob.signMessage({ message: first }))).statusCode).toBe(201);
    clock.advance(1000);
    const msg = message(carol.address, await nonceFor(me.cookie));
    expect((await link(me.cookie, msg, await carol.signMessage({ message: msg }))).statusCode).toBe(201);
    expect((await listOf(me.cookie)).map((w) => [w.address, w.receivesPurchases])).toEqual([
      [bob.address, true],
      [carol.address, false],
    ]);

    // Lower-case addresses in the path are the same wallet.
    const patch = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/wallets/${carol.address.toLowerCase()}`,
      headers: { cookie: me.cookie },
      payload: { receivesPurchases: true },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json()).toMatchObject({ address: carol.address, receivesPurchases: true });
    expect((await listOf(me.cookie)).map((w) => w.receivesPurchases)).toEqual([false, true]);

    // Another user can neither choose nor delete my wallet, and it stays mine.
    for (const req of [
      { method: "DELETE" as const, url: `/api/v1/wallets/${carol.address}` },
      {
        method: "PATCH" as const,
        url: `/api/v1/wallets/${bob.address}`,
        payload: { receivesPurchases: true },
      },
    ]) {
      const res = await t.app.inject({ ...req, headers: { cookie: other.cookie } });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(m.notLinked);
    }
    expect((await listOf(me.cookie)).map((w) => [w.address, w.receivesPurchases])).toEqual([
      [bob.address, false],
      [carol.address, true],
    ]);

    // Unlinking the receiving wallet hands the role to the remaining one.
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/wallets/${carol.address}`,
      headers: { cookie: me.cookie },
    });
    expect(del.statusCode).toBe(204);
    expect((await listOf(me.cookie)).map((w) => [w.address, w.receivesPurchases])).toEqual([
      [bob.address, true],
    ]);
    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/wallets/${carol.address}`,
      headers: { cookie: me.cookie },
    });
    expect(again.statusCode).toBe(404);
    const badPath = await t.app.inject({
      method: "DELETE",
      url: "/api/v1/wallets/0x123",
      headers: { cookie: me.cookie },
    });
    expect(badPath.statusCode).toBe(400);
    await t.app.inject({
      method: "DELETE",
      url: `/api/v1/wallets/${bob.address}`,
      headers: { cookie: me.cookie },
    });
  });

  it("requires a signed-in user", async () => {
    for (const req of [
      { method: "POST" as const, url: "/api/v1/wallets/nonce" },
      { method: "POST" as const, url: "/api/v1/wallets", payload: { message: "x", signature: "0x00" } },
      { method: "GET" as const, url: "/api/v1/wallets" },
      { method: "DELETE" as const, url: `/api/v1/wallets/${alice.address}` },
    ]) {
      const res = await t.app.inject(req);
      expect(res.statusCode, req.url).toBe(401);
    }
  });
});

describe("wallets without a chain", () => {
  it("refuses to issue nonces with a clear message", async () => {
    const t = await createTestApp();
    try {
      const { cookie } = await newSignedInUser(t.ctx);
      const res = await t.app.inject({ method: "POST", url: "/api/v1/wallets/nonce", headers: { cookie } });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toEqual({ code: "unavailable", message: m.chainUnavailable });
      const list = await t.app.inject({ method: "GET", url: "/api/v1/wallets", headers: { cookie } });
      expect(list.json()).toEqual({ items: [] });
    } finally {
      await t.close();
    }
  });
});
