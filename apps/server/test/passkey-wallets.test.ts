/**
 * Passkey wallets (decision 160): linking a passkey's wallet with its WebAuthn registration and assertion
 * over our nonce (standard JSON, WebAuthn Level 3 checks: decision 183), the counterfactual address from
 * our factory on anvil, and every bad answer refused with nothing linked.
 */
import {
  type LinkPasskeyRequest,
  type PasskeyRefusal,
  passkeyRefusalMessages,
  walletMessages as m,
} from "@diginoor/api/wallets";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorAccountFactoryAbi } from "@diginoor/contracts/generated/diginoorAccountFactory";
import { toPasskeyAccount } from "@diginoor/contracts/passkey-account";
import { newRecoveryCode, recoveryCodeGuardian } from "@diginoor/contracts/recovery-code";
import { createSoftwarePasskey, type SoftwarePasskey } from "@diginoor/contracts/software-passkey";
import {
  type Chain,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  stringToHex,
  type Transport,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignedInUser } from "./factories.ts";
import { passkeyAssertionBody } from "./fixtures/passkeys.ts";
import { createTestApp, type TestApp } from "./harness.ts";

const ORIGIN = "http://localhost:3000";

describe("passkey wallets", () => {
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

  async function nonceFor(cookie: string): Promise<string> {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/wallets/nonce", headers: { cookie } });
    expect(res.statusCode).toBe(201);
    return res.json().nonce;
  }

  /** The body the web app sends: the passkey made over the nonce and its assertion over the nonce. */
  const body = passkeyAssertionBody;

  const link = (cookie: string, payload: object) =>
    t.app.inject({ method: "POST", url: "/api/v1/wallets/passkey", headers: { cookie }, payload });
  const list = async (cookie: string) =>
    (await t.app.inject({ method: "GET", url: "/api/v1/wallets", headers: { cookie } })).json().items as {
      address: string;
      kind: string;
      receivesPurchases: boolean;
      passkey: { credentialId: string; publicKey: string } | null;
    }[];

  it("the chain facts name the account factory, the paymaster and EntryPoint v0.8", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/chain" });
    expect(res.json()).toMatchObject({
      entryPoint: "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108",
      accountFactory: t.ctx.chain?.wallets?.accountFactory,
      paymaster: t.ctx.chain?.wallets?.paymaster,
    });
    expect(res.json().accountFactory).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("links the account of the passkey and the guardian the fan named (their recovery code's key): another address than without one", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const guardian = recoveryCodeGuardian(newRecoveryCode())!;
    const res = await link(cookie, { ...body(passkey, await nonceFor(cookie)), guardian });
    expect(res.statusCode, res.body).toBe(201);
    const read = (args: readonly unknown[]) =>
      t.ctx.chain!.publicClient.readContract({
        address: t.ctx.chain!.wallets!.accountFactory,
        abi: diginoorAccountFactoryAbi,
        functionName: "accountAddress",
        args,
      } as never) as Promise<string>;
    const halves = [`0x${passkey.publicKey.slice(2, 66)}`, `0x${passkey.publicKey.slice(66)}`];
    expect(res.json().address).toBe(await read([...halves, guardian]));
    expect(res.json().address).not.toBe(await read(halves));
    // The web app needs it for the never-used account's initCode.
    expect(res.json().guardian).toBe(guardian);
    expect((await list(cookie))[0]).toMatchObject({ guardian });
  });

  it("a passkey wallet links by Sign-In with Ethereum (ERC-1271 with ERC-7739): never used (ERC-6492) and deployed; another passkey's signature is refused", async () => {
    const pc = createPublicClient({ chain: foundry, transport: http(t.ctx.chain!.rpcUrl) }) as PublicClient<
      Transport,
      Chain
    >;
    const siweLink = async (signWith: SoftwarePasskey, of: SoftwarePasskey) => {
      const { cookie } = await newSignedInUser(t.ctx);
      const owner = await toPasskeyAccount({
        client: pc,
        factory: t.ctx.chain!.wallets!.accountFactory,
        owner: signWith.account,
        ...(signWith === of
          ? {}
          : {
              address: (
                await toPasskeyAccount({
                  client: pc,
                  factory: t.ctx.chain!.wallets!.accountFactory,
                  owner: of.account,
                })
              ).address,
              firstPublicKey: of.publicKey,
            }),
      });
      const nonce = await nonceFor(cookie);
      const issuedAt = new Date();
      const message = createSiweMessage({
        address: owner.address,
        chainId: t.ctx.chain!.chainId,
        domain: new URL(ORIGIN).host,
        uri: ORIGIN,
        nonce,
        version: "1",
        issuedAt,
        expirationTime: new Date(issuedAt.getTime() + 5 * 60_000),
      });
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/wallets",
        headers: { cookie },
        payload: { message, signature: await owner.signMessage({ message }) },
      });
      return { res, address: owner.address };
    };
    const fresh = createSoftwarePasskey({ origin: ORIGIN });
    const counterfactual = await siweLink(fresh, fresh);
    expect(counterfactual.res.statusCode, counterfactual.res.body).toBe(201);
    expect(await pc.getCode({ address: counterfactual.address })).toBeUndefined();

    // Deployed (anyone may deploy it for its passkey), then linked by SIWE.
    const used = createSoftwarePasskey({ origin: ORIGIN });
    const deployer = createWalletClient({
      account: privateKeyToAccount(ANVIL_PRIVATE_KEYS[3] as Hex),
      chain: foundry,
      transport: http(t.ctx.chain!.rpcUrl),
    });
    await pc.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: t.ctx.chain!.wallets!.accountFactory,
        abi: diginoorAccountFactoryAbi,
        functionName: "createAccount",
        args: [`0x${used.publicKey.slice(2, 66)}`, `0x${used.publicKey.slice(66)}`],
      }),
    });
    const deployed = await siweLink(used, used);
    expect(await pc.getCode({ address: deployed.address })).toBeTruthy();
    expect(deployed.res.statusCode, deployed.res.body).toBe(201);

    // A passkey that is not the wallet's signs for it: refused.
    const victim = createSoftwarePasskey({ origin: ORIGIN });
    const forged = await siweLink(createSoftwarePasskey({ origin: ORIGIN }), victim);
    expect(forged.res.statusCode).toBe(400);
    expect(forged.res.json().error.message).toBe(m.badSignature);
  });

  it("links the factory's account of the passkey; it receives purchases and lists its passkey", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const res = await link(cookie, body(passkey, await nonceFor(cookie)));
    expect(res.statusCode, res.body).toBe(201);
    const expected = await t.ctx.chain!.publicClient.readContract({
      address: t.ctx.chain!.wallets!.accountFactory,
      abi: diginoorAccountFactoryAbi,
      functionName: "accountAddress",
      args: [`0x${passkey.publicKey.slice(2, 66)}`, `0x${passkey.publicKey.slice(66)}`],
    });
    expect(res.json()).toMatchObject({ address: expected, kind: "passkey", receivesPurchases: true });
    expect(await list(cookie)).toEqual([
      expect.objectContaining({
        address: expected,
        kind: "passkey",
        passkey: { credentialId: passkey.id, publicKey: passkey.publicKey.toLowerCase() },
      }),
    ]);
    // The same passkey again: already linked.
    const again = await link(cookie, body(passkey, await nonceFor(cookie)));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.alreadyLinked);
  });

  const utf8 = (text: string) => Buffer.from(text, "utf8");
  const other = () => createSoftwarePasskey({ origin: ORIGIN });
  type Make = (p: SoftwarePasskey, nonce: string) => LinkPasskeyRequest;

  // Every refusal of a WebAuthn Level 3 relying party (decision 183), each with the answers of an
  // authenticator that signed what it says (the refusal is the check's, not a broken signature's).
  it.each([
    [
      "a registration over another challenge",
      (p, n) => body(p, n, { challenge: `${n}x` }),
      "wrong_challenge",
    ],
    [
      "an assertion over another challenge",
      (p, n) => ({ ...body(p, n), assertion: p.authenticate(utf8(`${n}x`)) }),
      "wrong_challenge",
    ],
    [
      "another site's origin",
      (_p, n) => body(createSoftwarePasskey({ origin: "https://evil.example" }), n),
      "wrong_origin",
    ],
    [
      "an assertion from another site's origin",
      (p, n) => body(p, n, { assertion: { origin: "https://evil.example" } }),
      "wrong_origin",
    ],
    [
      "another relying party id",
      (_p, n) => body(createSoftwarePasskey({ rpId: "evil.example", origin: ORIGIN }), n),
      "wrong_rp_id",
    ],
    [
      "an assertion for another relying party id",
      (p, n) => body(p, n, { assertion: { rpId: "evil.example" } }),
      "wrong_rp_id",
    ],
    [
      "an assertion made in a cross-origin frame",
      (p, n) => body(p, n, { assertion: { crossOrigin: true } }),
      "cross_origin",
    ],
    [
      "a registration made in a cross-origin frame",
      (p, n) => body(p, n, { registration: { crossOrigin: true } }),
      "cross_origin",
    ],
    [
      "an assertion inside another site's frame (topOrigin)",
      (p, n) => body(p, n, { assertion: { crossOrigin: true, topOrigin: "https://evil.example" } }),
      "top_origin",
    ],
    [
      "a topOrigin without crossOrigin",
      (p, n) => body(p, n, { registration: { topOrigin: "https://evil.example" } }),
      "top_origin",
    ],
    [
      "a passkey backed up but not backup eligible (BS without BE)",
      (_p, n) => body(createSoftwarePasskey({ origin: ORIGIN, backedUp: true }), n),
      "backup_state",
    ],
    ["an assertion with BS without BE", (p, n) => body(p, n, { assertion: { flags: 0x15 } }), "backup_state"],
    [
      "backup eligibility lost between registration and assertion",
      (_p, n) =>
        body(createSoftwarePasskey({ origin: ORIGIN, backupEligible: true }), n, {
          assertion: { flags: 0x05 },
        }),
      "backup_state",
    ],
    [
      "a request naming another credential id",
      (p, n) => ({ ...body(p, n), credentialId: other().id }),
      "credential_mismatch",
    ],
    [
      "an assertion answered by another credential id",
      (p, n) => body(p, n, { assertion: { credentialId: other().id } }),
      "credential_mismatch",
    ],
    [
      "an assertion of another passkey",
      (p, n) => {
        const b = body(p, n);
        const q = other();
        return { ...b, assertion: q.authenticate(utf8(n)) };
      },
      "credential_mismatch",
    ],
    [
      "a registration whose id is not the attested credential's",
      (p, n) => {
        const b = body(p, n, { registration: { credentialId: other().id } });
        return { ...b, registration: { ...b.registration, id: p.id, rawId: p.id } };
      },
      "credential_mismatch",
    ],
    [
      "a registration naming another key than the one that signs",
      (p, n) => body(p, n, { registration: { publicKey: other().publicKey } }),
      "bad_signature",
    ],
    [
      "an assertion without user verification",
      (p, n) => body(p, n, { assertion: { flags: 0x01 } }),
      "not_verified",
    ],
    [
      "a registration without user verification",
      (p, n) => body(p, n, { registration: { flags: 0x01 } }),
      "not_verified",
    ],
    [
      "a signature counter that did not grow from the registration's",
      (p, n) => body(p, n, { registration: { signCount: 7 }, assertion: { signCount: 7 } }),
      "counter",
    ],
    [
      "a public key off the curve",
      (p, n) => body(p, n, { registration: { publicKey: `0x${"11".repeat(64)}` as Hex } }),
      "bad_key",
    ],
  ] as [string, Make, PasskeyRefusal][])("refuses %s and links nothing", async (_name, make, reason) => {
    const { cookie } = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const nonce = await nonceFor(cookie);
    const res = await link(cookie, make(passkey, nonce));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toEqual({
      code: "bad_request",
      message: passkeyRefusalMessages[reason],
      details: { reason },
    });
    expect(await list(cookie)).toEqual([]);
    // The nonce was not consumed: a good answer with it still links.
    const ok = await link(cookie, body(passkey, nonce));
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("links a synced passkey (backup eligible and backed up, BE and BS)", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const synced = createSoftwarePasskey({ origin: ORIGIN, backupEligible: true, backedUp: true });
    const res = await link(cookie, body(synced, await nonceFor(cookie)));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().passkey).toEqual({
      credentialId: synced.id,
      publicKey: synced.publicKey.toLowerCase(),
    });
  });

  it("refuses a replayed answer: the same body again, and its registration and assertion with a new nonce", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const first = body(passkey, await nonceFor(cookie));
    expect((await link(cookie, first)).statusCode).toBe(201);
    const again = await link(cookie, first);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(m.usedNonce);
    const stranger = await newSignedInUser(t.ctx);
    const replayed = await link(stranger.cookie, { ...first, nonce: await nonceFor(stranger.cookie) });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.details).toEqual({ reason: "wrong_challenge" });
    expect(await list(stranger.cookie)).toEqual([]);
  });

  it("a request to add another device's passkey is checked the same way", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const linked = await link(
      cookie,
      body(createSoftwarePasskey({ origin: ORIGIN }), await nonceFor(cookie)),
    );
    expect(linked.statusCode, linked.body).toBe(201);
    const url = `/api/v1/wallets/${linked.json().address}/passkey-requests`;
    const phone = createSoftwarePasskey({ origin: ORIGIN });
    const nonce = await nonceFor(cookie);
    for (const [answer, reason] of [
      [{ assertion: { crossOrigin: true } }, "cross_origin"],
      [{ assertion: { topOrigin: "https://evil.example" } }, "top_origin"],
      [{ assertion: { flags: 0x15 } }, "backup_state"],
      [{ assertion: { credentialId: other().id } }, "credential_mismatch"],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { cookie },
        payload: body(phone, nonce, answer),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details).toEqual({ reason });
    }
    const asked = await t.app.inject({
      method: "POST",
      url,
      headers: { cookie },
      payload: body(phone, nonce),
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ credentialId: phone.id, publicKey: phone.publicKey.toLowerCase() });
  });

  it("refuses the old raw body (r || s signature, hex authenticator data) with 400", async () => {
    const { cookie } = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const nonce = await nonceFor(cookie);
    const { signature, webauthn } = await passkey.account.sign({ hash: stringToHex(nonce) });
    const res = await link(cookie, {
      nonce,
      credentialId: passkey.id,
      publicKey: passkey.publicKey,
      authenticatorData: webauthn.authenticatorData,
      clientDataJSON: webauthn.clientDataJSON,
      signature,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("validation_failed");
    expect(await list(cookie)).toEqual([]);
  });

  it("refuses a nonce issued to another user, and a malformed body, with 400", async () => {
    const a = await newSignedInUser(t.ctx);
    const b = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const res = await link(b.cookie, body(passkey, await nonceFor(a.cookie)));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.unknownNonce);
    const good = body(passkey, await nonceFor(b.cookie));
    const bad = await link(b.cookie, {
      ...good,
      assertion: { ...good.assertion, response: { signature: "0x12" } },
    });
    expect(bad.statusCode).toBe(400);
    expect(await list(b.cookie)).toEqual([]);
  });

  it("the bundler proxy is for signed-in users and says when no bundler is configured", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/v1/bundler",
      payload: { jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] },
    });
    expect(anonymous.statusCode).toBe(401);
    const { cookie } = await newSignedInUser(t.ctx);
    const notAllowed = await t.app.inject({
      method: "POST",
      url: "/api/v1/bundler",
      headers: { cookie },
      payload: { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: ["0x00"] },
    });
    // Without a bundler the endpoint is unavailable before any call is read; with one, a method not
    // offered is a JSON-RPC -32601 error (test/bundler-proxy.test.ts).
    expect(notAllowed.statusCode).toBe(503);
    // This test app's chain is not local and names no BUNDLER_URL: no bundler.
    const none = await t.app.inject({
      method: "POST",
      url: "/api/v1/bundler",
      headers: { cookie },
      payload: { jsonrpc: "2.0", id: 1, method: "eth_supportedEntryPoints", params: [] },
    });
    expect(none.statusCode).toBe(503);
  });
});
