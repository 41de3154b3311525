// The new passkey's public key as the recovery page reads it from the registration (decision 185: the
// recovery code's key signs its coordinates before the server has seen it): a real P-256 key made by
// WebCrypto, its SubjectPublicKeyInfo as a browser's getPublicKey() gives it, and the raw point to compare.
import type { RegistrationResponse } from "@diginoor/api/wallets";
import { bufferToBase64URLString } from "@simplewebauthn/browser";
import { bytesToHex } from "viem";
import { describe, expect, it } from "vitest";
import { registeredPublicKey } from "./passkey-calls.ts";

const registration = (publicKey: string | undefined) =>
  ({
    id: "cred",
    rawId: "cred",
    type: "public-key",
    response: { clientDataJSON: "e30", attestationObject: "oA", ...(publicKey ? { publicKey } : {}) },
    clientExtensionResults: {},
  }) as RegistrationResponse;

async function keyPair(namedCurve: "P-256" | "P-384") {
  const { publicKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, true, ["sign"]);
  const spki = await crypto.subtle.exportKey("spki", publicKey);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", publicKey));
  return { spki: bufferToBase64URLString(spki), point: bytesToHex(raw.slice(1)) };
}

describe("registeredPublicKey", () => {
  it("gives x || y of the P-256 key in the registration's SubjectPublicKeyInfo", async () => {
    for (let i = 0; i < 5; i++) {
      const { spki, point } = await keyPair("P-256");
      expect(registeredPublicKey(registration(spki))).toBe(point);
    }
  });

  it("refuses a registration without the key, another curve's key, and a cut key", async () => {
    const message = /did not give the new passkey's public key/;
    expect(() => registeredPublicKey(registration(undefined))).toThrow(message);
    const p384 = (await keyPair("P-384")).spki;
    expect(() => registeredPublicKey(registration(p384))).toThrow(message);
    const { spki } = await keyPair("P-256");
    expect(() => registeredPublicKey(registration(spki.slice(0, -4)))).toThrow(message);
  });
});
