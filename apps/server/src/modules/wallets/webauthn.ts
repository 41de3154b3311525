import { createHash, createPublicKey, verify } from "node:crypto";

/** What {@link verifyPasskeyAssertion} found wrong, or "ok". */
export type AssertionCheck =
  | "ok"
  | "bad_key"
  | "bad_assertion"
  | "wrong_challenge"
  | "not_verified"
  | "bad_signature";

/**
 * Verifies a WebAuthn assertion (navigator.credentials.get) against a P-256 public key, as a relying
 * party does (W3C WebAuthn Level 2, §7.2): the client data is a `webauthn.get` for our challenge and
 * our origin, the authenticator data is for our relying party id with the user present and verified,
 * and the signature over authenticatorData || sha256(clientDataJSON) is the key's (ECDSA P-256, SHA-256).
 * Node's crypto does the cryptography; no registry package does this for raw keys without attestation.
 */
export function verifyPasskeyAssertion(a: {
  /** x || y, 64 bytes. */
  publicKey: Buffer;
  authenticatorData: Buffer;
  clientDataJSON: string;
  /** r || s, 64 bytes. */
  signature: Buffer;
  challenge: Buffer;
  origin: string;
  rpId: string;
}): AssertionCheck {
  if (a.publicKey.length !== 64) return "bad_key";
  let key: ReturnType<typeof createPublicKey>;
  try {
    key = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: a.publicKey.subarray(0, 32).toString("base64url"),
        y: a.publicKey.subarray(32).toString("base64url"),
      },
      format: "jwk",
    });
  } catch {
    return "bad_key";
  }
  let clientData: { type?: unknown; challenge?: unknown; origin?: unknown };
  try {
    clientData = JSON.parse(a.clientDataJSON) as typeof clientData;
  } catch {
    return "bad_assertion";
  }
  if (clientData.type !== "webauthn.get" || clientData.origin !== a.origin) return "bad_assertion";
  if (clientData.challenge !== a.challenge.toString("base64url")) return "wrong_challenge";
  if (a.authenticatorData.length < 37) return "bad_assertion";
  const rpIdHash = createHash("sha256").update(a.rpId).digest();
  if (!a.authenticatorData.subarray(0, 32).equals(rpIdHash)) return "bad_assertion";
  const flags = a.authenticatorData[32] ?? 0;
  // User present (0x01) and user verified (0x04): the account contract requires both as well.
  if ((flags & 0x01) === 0 || (flags & 0x04) === 0) return "not_verified";
  if (a.signature.length !== 64) return "bad_signature";
  const signed = Buffer.concat([
    a.authenticatorData,
    createHash("sha256").update(a.clientDataJSON, "utf8").digest(),
  ]);
  const ok = verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, a.signature);
  return ok ? "ok" : "bad_signature";
}
