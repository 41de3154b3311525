import { createPublicKey } from "node:crypto";
import type { AuthenticationResponse, PasskeyRefusal, RegistrationResponse } from "@diginoor/api/wallets";
import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { cose, decodeClientDataJSON, decodeCredentialPublicKey } from "@simplewebauthn/server/helpers";

/** What {@link verifyNewPasskey} found: the passkey's public key, or why it refused. */
export type PasskeyCheck = { ok: true; publicKey: `0x${string}` } | { ok: false; reason: PasskeyRefusal };

/** The checks of one ceremony, as the relying party expects it. */
interface Expected {
  /** base64url of the challenge's bytes. */
  challenge: string;
  origin: string;
  rpId: string;
}

const refuse = (reason: PasskeyRefusal): PasskeyCheck => ({ ok: false, reason });

/**
 * The client data's members the library leaves to us (WebAuthn Level 3 §7.1 and §7.2, the steps on
 * topOrigin and crossOrigin), read first so the refusal names them: our pages are never framed by
 * another site, so `crossOrigin` must be absent or false and `topOrigin` absent. @simplewebauthn/server
 * checks neither in a registration, and in an assertion accepts `crossOrigin: true` without a
 * `topOrigin` (Safari's).
 * Challenge, origin and type are checked here only to say which was wrong; the library checks them too.
 */
function clientDataRefusal(
  clientDataJSON: string,
  type: "webauthn.create" | "webauthn.get",
  expected: Expected,
): PasskeyRefusal | undefined {
  let data: {
    type?: unknown;
    challenge?: unknown;
    origin?: unknown;
    crossOrigin?: unknown;
    topOrigin?: unknown;
  };
  try {
    data = decodeClientDataJSON(clientDataJSON) as typeof data;
  } catch {
    return "bad_response";
  }
  if (typeof data !== "object" || data === null || data.type !== type) return "bad_response";
  if (data.topOrigin !== undefined) return "top_origin";
  if (data.crossOrigin !== undefined && data.crossOrigin !== false) return "cross_origin";
  if (data.challenge !== expected.challenge) return "wrong_challenge";
  if (data.origin !== expected.origin) return "wrong_origin";
  return undefined;
}

/** The refusal a @simplewebauthn/server error stands for (its errors carry a name or a fixed message). */
function libraryRefusal(err: unknown): PasskeyRefusal {
  const { name, message } = err instanceof Error ? err : { name: "", message: String(err) };
  if (name === "InvalidBackupFlags") return "backup_state";
  if (name === "UnexpectedRPIDHash") return "wrong_rp_id";
  if (/^User (verification|presence|not present)/.test(message)) return "not_verified";
  if (/^Response counter value/.test(message)) return "counter";
  if (/public key alg|missing numeric alg/.test(message)) return "bad_key";
  return "bad_response";
}

/** x || y of an ES256 (ECDSA P-256, SHA-256) COSE key on the curve, or undefined for any other key. */
function p256Coordinates(coseKey: Uint8Array<ArrayBuffer>): `0x${string}` | undefined {
  let key: ReturnType<typeof decodeCredentialPublicKey>;
  try {
    key = decodeCredentialPublicKey(coseKey);
  } catch {
    return undefined;
  }
  if (!cose.isCOSEPublicKeyEC2(key)) return undefined;
  if (key.get(cose.COSEKEYS.alg) !== cose.COSEALG.ES256 || key.get(cose.COSEKEYS.crv) !== cose.COSECRV.P256)
    return undefined;
  const x = key.get(cose.COSEKEYS.x);
  const y = key.get(cose.COSEKEYS.y);
  if (x?.length !== 32 || y?.length !== 32) return undefined;
  try {
    // Node refuses a point off the curve (the account contract's addPasskey would too).
    createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: Buffer.from(x).toString("base64url"),
        y: Buffer.from(y).toString("base64url"),
      },
      format: "jwk",
    });
  } catch {
    return undefined;
  }
  return `0x${Buffer.concat([x, y]).toString("hex")}`;
}

/**
 * Verifies a new passkey as a WebAuthn Level 3 relying party, with @simplewebauthn/server: its
 * registration (`navigator.credentials.create`, verifyRegistrationResponse) and an assertion of the same
 * credential (`navigator.credentials.get`, verifyAuthenticationResponse), both over `challenge`, for our
 * origin and relying party id, top-level (not cross-origin), with the user present and verified.
 *
 * The registration's attestation is "none" in practice (we ask for none), which signs nothing: the
 * assertion is what proves the fan holds the key the registration names. `credentialId` (the request's)
 * must be the credential the authenticator attested (its authenticator data), the registration's `id`,
 * and the assertion's `id`. The key must be ES256 on P-256, the account contract's only kind. Backup
 * flags (§6.1.3): BS without BE is refused (WebAuthn forbids it, and OpenZeppelin's WebAuthn verifier,
 * which checks every user operation of the wallet, would refuse every signature of such a passkey), and
 * BE must be the same in the assertion as at registration (§7.2: a credential's backup eligibility never
 * changes). The signature counter must grow from registration to assertion unless the authenticator
 * keeps none (both 0).
 */
export async function verifyNewPasskey(a: {
  credentialId: string;
  registration: RegistrationResponse;
  assertion: AuthenticationResponse;
  expected: Expected;
}): Promise<PasskeyCheck> {
  const { expected } = a;
  const early =
    clientDataRefusal(a.registration.response.clientDataJSON, "webauthn.create", expected) ??
    clientDataRefusal(a.assertion.response.clientDataJSON, "webauthn.get", expected);
  if (early) return refuse(early);
  // Both ceremonies: our challenge, origin and relying party id, the user present and verified.
  const ours = {
    expectedChallenge: expected.challenge,
    expectedOrigin: expected.origin,
    expectedRPID: expected.rpId,
    requireUserVerification: true,
  };

  let registered: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    registered = await verifyRegistrationResponse({
      ...ours,
      response: toLibrary(a.registration) as RegistrationResponseJSON,
      requireUserPresence: true,
      supportedAlgorithmIDs: [cose.COSEALG.ES256],
    });
  } catch (err) {
    return refuse(libraryRefusal(err));
  }
  if (!registered.verified) return refuse("bad_response");
  const { credential, credentialDeviceType } = registered.registrationInfo;
  if (
    credential.id !== a.registration.id ||
    a.credentialId !== credential.id ||
    a.assertion.id !== credential.id
  )
    return refuse("credential_mismatch");
  const publicKey = p256Coordinates(credential.publicKey);
  if (!publicKey) return refuse("bad_key");

  let asserted: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    asserted = await verifyAuthenticationResponse({
      ...ours,
      response: toLibrary(a.assertion) as AuthenticationResponseJSON,
      credential: { id: credential.id, publicKey: credential.publicKey, counter: credential.counter },
    });
  } catch (err) {
    return refuse(libraryRefusal(err));
  }
  if (!asserted.verified) return refuse("bad_signature");
  if (asserted.authenticationInfo.credentialDeviceType !== credentialDeviceType)
    return refuse("backup_state");
  return { ok: true, publicKey };
}

/** The request's JSON as the library types it (`null` attachment or user handle: absent). */
function toLibrary<T extends RegistrationResponse | AuthenticationResponse>(r: T) {
  const { authenticatorAttachment, ...rest } = r;
  const response = { ...r.response } as Record<string, unknown>;
  if (response.userHandle === null) delete response.userHandle;
  return { ...rest, response, ...(authenticatorAttachment ? { authenticatorAttachment } : {}) };
}
