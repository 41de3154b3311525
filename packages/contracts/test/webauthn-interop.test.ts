/**
 * Interop (decision 183): what the server verifies with @simplewebauthn/server and what the wallet's
 * on-chain verifier (OpenZeppelin's ERC7913WebAuthnVerifier, the one our factory installs) accepts agree.
 * The software authenticator's standard JSON (RegistrationResponseJSON / AuthenticationResponseJSON, DER
 * signatures) is verified by SimpleWebAuthn; the same assertion, turned into the user operation's
 * signature where viem builds it (DER -> r || s, low s), is accepted on anvil, and a passkey SimpleWebAuthn
 * refuses for its backup flags is refused on chain too.
 */

import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import { cose, decodeCredentialPublicKey } from "@simplewebauthn/server/helpers";
import { Signature } from "ox";
import { concat, type Hex, numberToHex, parseAbi, type PublicClient, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorAccountFactoryAbi } from "../generated/diginoorAccountFactory.js";
import { encodeWebAuthnSignature } from "../src/passkey-account.js";
import {
  type AuthenticationResponseJSON,
  createSoftwarePasskey,
  type SoftwarePasskey,
} from "../src/software-passkey.js";
import { deployWallets } from "../src/wallets.js";
import { type Fixture, setupFixture } from "./fixture.js";
import { SPONSOR_SIGNER } from "./sponsorship.js";

const ORIGIN = "http://localhost";
const RP_ID = "localhost";
/** IERC7913SignatureVerifier.verify.selector: what the verifier answers for a valid signature. */
const VALID = "0x024ad318";
/** P-256's group order: a DER signature's s above n / 2 is the "high" one of the pair (s, n - s). */
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const verifierAbi = parseAbi([
  "function verify(bytes key, bytes32 hash, bytes signature) view returns (bytes4)",
]);

let f: Fixture;
let verifier: Hex;

beforeAll(async () => {
  f = await setupFixture();
  const wallets = await deployWallets({
    rpcUrl: f.anvil.rpcUrl,
    collectible: f.collectible,
    marketplace: f.marketplace,
    sponsorSigner: SPONSOR_SIGNER,
  });
  verifier = await (f.publicClient as PublicClient).readContract({
    address: wallets.factory,
    abi: diginoorAccountFactoryAbi,
    functionName: "webAuthnVerifier",
  });
}, 120_000);

afterAll(async () => {
  await f?.stop();
});

const onChain = (passkey: SoftwarePasskey, hash: Hex, signature: Hex) =>
  (f.publicClient as PublicClient).readContract({
    address: verifier,
    abi: verifierAbi,
    functionName: "verify",
    args: [passkey.publicKey, hash, signature],
  });

/** The passkey as SimpleWebAuthn registers it (challenge: some server nonce). */
async function registered(passkey: SoftwarePasskey) {
  const challenge = Buffer.from("a server nonce");
  const r = await verifyRegistrationResponse({
    response: passkey.register(challenge),
    expectedChallenge: challenge.toString("base64url"),
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
    supportedAlgorithmIDs: [cose.COSEALG.ES256],
  });
  expect(r.verified).toBe(true);
  if (!r.verified) throw new Error("not registered");
  return r.registrationInfo;
}

/** Signs `hash` the way a user operation is signed (viem's WebAuthn account, which asks navigator.credentials.get). */
async function signUserOpHash(passkey: SoftwarePasskey, hash: Hex) {
  const { signature, webauthn, raw } = await passkey.account.sign({ hash });
  // The credential's standard JSON, as PublicKeyCredential.toJSON() gives it.
  const json = (raw as unknown as { toJSON(): AuthenticationResponseJSON }).toJSON();
  return { signature, webauthn, json };
}

const randomHash = () => toHex(crypto.getRandomValues(new Uint8Array(32)));

describe("SimpleWebAuthn and the on-chain WebAuthn verifier agree", () => {
  it("the software authenticator's registration is a standard one: SimpleWebAuthn reads its id and P-256 key", async () => {
    const passkey = createSoftwarePasskey();
    const info = await registered(passkey);
    expect(info.fmt).toBe("none");
    expect(info.credential.id).toBe(passkey.id);
    expect(info.credentialDeviceType).toBe("singleDevice");
    const key = decodeCredentialPublicKey(info.credential.publicKey);
    expect(key.get(cose.COSEKEYS.alg)).toBe(cose.COSEALG.ES256);
    if (!cose.isCOSEPublicKeyEC2(key)) throw new Error("not an EC2 key");
    expect(key.get(cose.COSEKEYS.crv)).toBe(cose.COSECRV.P256);
    const [x, y] = [key.get(cose.COSEKEYS.x), key.get(cose.COSEKEYS.y)];
    expect(concat([toHex(x!), toHex(y!)])).toBe(passkey.publicKey);
  });

  it("every assertion SimpleWebAuthn verifies is a signature the wallet's verifier accepts, high s or low s", async () => {
    const passkey = createSoftwarePasskey();
    const info = await registered(passkey);
    let counter = info.credential.counter;
    let high = 0;
    let low = 0;
    // ECDSA signatures come with a random s; the authenticator may give either of (s, n - s). Sign until
    // both kinds were seen (each is a coin toss; 64 tries miss one with probability 2^-63).
    for (let i = 0; i < 64 && (high === 0 || low === 0); i++) {
      const hash = randomHash();
      const { signature, webauthn, json } = await signUserOpHash(passkey, hash);
      const checked = await verifyAuthenticationResponse({
        response: json,
        expectedChallenge: Buffer.from(hash.slice(2), "hex").toString("base64url"),
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        credential: { id: info.credential.id, publicKey: info.credential.publicKey, counter },
        requireUserVerification: true,
      });
      expect(checked.verified).toBe(true);
      counter = checked.authenticationInfo.newCounter;
      // The user operation's signature: r || s as viem gives it (ox: DER parsed, s normalised low).
      expect(await onChain(passkey, hash, encodeWebAuthnSignature({ signature, webauthn }))).toBe(VALID);
      const der = Signature.fromDerHex(toHex(Buffer.from(json.response.signature, "base64url")));
      if (der.s > P256_N / 2n) {
        high++;
        expect(BigInt(`0x${signature.slice(66)}`)).toBe(P256_N - der.s);
        // The DER's own r || s, not normalised: OpenZeppelin's P256 refuses a high s (malleability).
        const raw = concat([numberToHex(der.r, { size: 32 }), numberToHex(der.s, { size: 32 })]);
        expect(await onChain(passkey, hash, encodeWebAuthnSignature({ signature: raw, webauthn }))).toBe(
          "0xffffffff",
        );
      } else {
        low++;
      }
    }
    expect(high).toBeGreaterThan(0);
    expect(low).toBeGreaterThan(0);
  });

  it("a passkey backed up but not backup eligible (BS without BE): SimpleWebAuthn refuses it, and so does the chain", async () => {
    const passkey = createSoftwarePasskey({ backedUp: true });
    const challenge = Buffer.from("a server nonce");
    await expect(
      verifyRegistrationResponse({
        response: passkey.register(challenge),
        expectedChallenge: challenge.toString("base64url"),
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
      }),
    ).rejects.toMatchObject({ name: "InvalidBackupFlags" });
    // The same key registered with consistent flags, then answering with BS without BE.
    const info = await registered(createSoftwarePasskey({ privateKeyPem: passkey.privateKeyPem }));
    const hash = randomHash();
    const { signature, webauthn, json } = await signUserOpHash(passkey, hash);
    await expect(
      verifyAuthenticationResponse({
        response: json,
        expectedChallenge: Buffer.from(hash.slice(2), "hex").toString("base64url"),
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        credential: { id: info.credential.id, publicKey: info.credential.publicKey, counter: 0 },
      }),
    ).rejects.toMatchObject({ name: "InvalidBackupFlags" });
    // Every signature of such a passkey is refused by the wallet: it must never be linked.
    expect(await onChain(passkey, hash, encodeWebAuthnSignature({ signature, webauthn }))).toBe("0xffffffff");
    // The same key answering with both flags (a synced passkey) is accepted by both.
    const synced = createSoftwarePasskey({
      backupEligible: true,
      backedUp: true,
      privateKeyPem: passkey.privateKeyPem,
    });
    expect((await registered(synced)).credentialDeviceType).toBe("multiDevice");
    expect(await onChain(synced, hash, encodeWebAuthnSignature(await signUserOpHash(synced, hash)))).toBe(
      VALID,
    );
  });

  it("SimpleWebAuthn alone accepts crossOrigin: true without a topOrigin (Safari's): the server adds that refusal", async () => {
    // Why apps/server/src/modules/wallets/webauthn.ts reads crossOrigin itself (its tests: passkey-wallets.test.ts).
    const passkey = createSoftwarePasskey();
    const info = await registered(passkey);
    const challenge = Buffer.from("another server nonce");
    const checked = await verifyAuthenticationResponse({
      response: passkey.authenticate(challenge, { crossOrigin: true }),
      expectedChallenge: challenge.toString("base64url"),
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential: {
        id: info.credential.id,
        publicKey: info.credential.publicKey,
        counter: info.credential.counter,
      },
    });
    expect(checked.verified).toBe(true);
  });
});
