/**
 * Passkey wallets (decision 160): linking a passkey's wallet with a WebAuthn assertion over our nonce,
 * the counterfactual address from our factory on anvil, and every bad assertion refused with nothing linked.
 */
import { walletMessages as m } from "@diginoor/api/wallets";
import { ANVIL_PRIVATE_KEYS } from "@diginoor/contracts/anvil-accounts";
import { diginoorAccountFactoryAbi } from "@diginoor/contracts/generated/diginoorAccountFactory";
import { createSoftwarePasskey, type SoftwarePasskey } from "@diginoor/contracts/software-passkey";
import { toPasskeyAccount } from "@diginoor/contracts/passkey-account";
import { newRecoveryCode, recoveryCodeGuardian } from "@diginoor/contracts/recovery-code";
import {
  type Chain,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
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

  /** The body the web app sends: the passkey's public key and its assertion over the nonce. */
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
    const res = await link(cookie, { ...(await body(passkey, await nonceFor(cookie))), guardian });
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
    const res = await link(cookie, await body(passkey, await nonceFor(cookie)));
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
    const again = await link(cookie, await body(passkey, await nonceFor(cookie)));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(m.alreadyLinked);
  });

  it.each([
    [
      "another challenge",
      async (p: SoftwarePasskey, n: string) => body(p, n, `${n}x`),
      m.passkeyWrongChallenge,
    ],
    [
      "another site's origin",
      async (_p: SoftwarePasskey, n: string) =>
        body(createSoftwarePasskey({ origin: "https://evil.example" }), n),
      m.passkeyBadAssertion,
    ],
    [
      "another relying party id",
      async (_p: SoftwarePasskey, n: string) =>
        body(createSoftwarePasskey({ rpId: "evil.example", origin: ORIGIN }), n),
      m.passkeyBadAssertion,
    ],
    [
      "a signature by another key",
      async (p: SoftwarePasskey, n: string) => ({
        ...(await body(p, n)),
        publicKey: createSoftwarePasskey({ origin: ORIGIN }).publicKey,
      }),
      m.passkeyBadSignature,
    ],
    [
      "no user verification",
      async (p: SoftwarePasskey, n: string) => {
        const b = await body(p, n);
        // Flags byte (33rd) with only user-present: the signature no longer matches either, but the flag is checked first.
        const flagsAt = 2 + 32 * 2;
        return {
          ...b,
          authenticatorData: `${b.authenticatorData.slice(0, flagsAt)}01${b.authenticatorData.slice(flagsAt + 2)}`,
        };
      },
      m.passkeyNotVerified,
    ],
    [
      "a public key off the curve",
      async (p: SoftwarePasskey, n: string) => ({
        ...(await body(p, n)),
        publicKey: `0x${"11".repeat(64)}` as Hex,
      }),
      m.passkeyBadKey,
    ],
  ] as const)("refuses an assertion with %s and links nothing", async (_name, make, message) => {
    const { cookie } = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const nonce = await nonceFor(cookie);
    const res = await link(cookie, await make(passkey, nonce));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toBe(message);
    expect(await list(cookie)).toEqual([]);
    // The nonce was not consumed: a good assertion with it still links.
    const ok = await link(cookie, await body(passkey, nonce));
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("refuses a nonce issued to another user, and a malformed body, with 400", async () => {
    const a = await newSignedInUser(t.ctx);
    const b = await newSignedInUser(t.ctx);
    const passkey = createSoftwarePasskey({ origin: ORIGIN });
    const res = await link(b.cookie, await body(passkey, await nonceFor(a.cookie)));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(m.unknownNonce);
    const bad = await link(b.cookie, {
      ...(await body(passkey, await nonceFor(b.cookie))),
      publicKey: "0x12",
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
    expect(notAllowed.statusCode).toBe(400);
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
