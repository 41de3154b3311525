/**
 * A software WebAuthn authenticator for Node tests and scripts: a P-256 key in memory that answers
 * `navigator.credentials.create` and `navigator.credentials.get` the way a platform authenticator does
 * (authenticator data with the user present and verified flags, client data JSON with the challenge,
 * "none" attestation, DER signatures), in the standard JSON form (`PublicKeyCredential.toJSON()`:
 * RegistrationResponseJSON / AuthenticationResponseJSON, WebAuthn Level 3), and as the credential object
 * viem's `toWebAuthnAccount` and ox parse exactly as they parse a browser's. Never for real funds.
 */
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { PublicKey } from "ox";
import { Authenticator } from "ox/webauthn";
import { bytesToHex, type Hex } from "viem";
import { toWebAuthnAccount, type WebAuthnAccount } from "viem/account-abstraction";

/** `navigator.credentials.create()`'s answer as `PublicKeyCredential.toJSON()` writes it (WebAuthn L3). */
export interface RegistrationResponseJSON {
  id: string;
  rawId: string;
  type: "public-key";
  response: {
    clientDataJSON: string;
    attestationObject: string;
    authenticatorData: string;
    transports: string[];
    publicKeyAlgorithm: number;
  };
  authenticatorAttachment: "platform";
  clientExtensionResults: { credProps?: { rk?: boolean } };
}

/** `navigator.credentials.get()`'s answer as `PublicKeyCredential.toJSON()` writes it (WebAuthn L3). */
export interface AuthenticationResponseJSON {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  authenticatorAttachment: "platform";
  clientExtensionResults: { credProps?: { rk?: boolean } };
}

/**
 * How one answer is made, for tests playing a faulty or hostile client: everything defaults to what an
 * honest platform authenticator on a top-level page of `origin` answers.
 */
export interface AnswerOptions {
  origin?: string;
  rpId?: string;
  /** Client data's `crossOrigin` (default false) and `topOrigin` (default absent). */
  crossOrigin?: boolean;
  topOrigin?: string;
  /**
   * Authenticator data flags: default user present (0x01) and verified (0x04), with the backup flags
   * the passkey was made with (BE 0x08, BS 0x10); attested credential data (0x40) is added to a registration.
   */
  flags?: number;
  /** The credential id the answer names (default the passkey's). */
  credentialId?: string;
  /** Registration only: the public key (x || y) the attested credential data names (default the passkey's). */
  publicKey?: Hex;
  /** The signature counter (default: one more than the last answer's). */
  signCount?: number;
}

export interface SoftwarePasskey {
  /** Credential id (base64url). */
  id: string;
  /** Uncompressed public key without the 0x04 prefix: x || y (64 bytes), as viem's credentials carry it. */
  publicKey: Hex;
  /** PKCS#8 PEM of the private key (so a test can rebuild the same passkey). */
  privateKeyPem: string;
  /** viem WebAuthn account signing with this key. */
  account: WebAuthnAccount;
  /** The answer to `navigator.credentials.create` with `challenge`: this passkey being made. */
  register(challenge: Uint8Array, options?: AnswerOptions): RegistrationResponseJSON;
  /** The answer to `navigator.credentials.get` with `challenge`: an assertion of this passkey. */
  authenticate(challenge: Uint8Array, options?: AnswerOptions): AuthenticationResponseJSON;
}

const base64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");
const fromHex = (h: Hex) => Buffer.from(h.slice(2), "hex");

function toBytes(source: unknown): Uint8Array {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  throw new Error("challenge is not a BufferSource");
}

const arrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const BACKUP_ELIGIBLE = 0x08;
const BACKED_UP = 0x10;
const ATTESTED_CREDENTIAL_DATA = 0x40;

/**
 * Create a passkey (a new P-256 key unless `privateKeyPem` is given) for relying party `rpId`, answering
 * as a browser page at `origin` (default `http://<rpId>`). `backupEligible` / `backedUp` set the BE / BS
 * flags of its answers (default neither, as a device-bound passkey and Chromium's virtual authenticator).
 */
export function createSoftwarePasskey(
  opts: {
    rpId?: string;
    origin?: string;
    privateKeyPem?: string;
    backupEligible?: boolean;
    backedUp?: boolean;
    /**
     * The credential id (base64url) the authenticator gives this passkey; by default one derived from its
     * key. A hostile client can name any id, another fan's included (ids are public: every assertion has it).
     */
    id?: string;
  } = {},
): SoftwarePasskey {
  const rpId = opts.rpId ?? "localhost";
  const privateKey: KeyObject = opts.privateKeyPem
    ? createPrivateKey(opts.privateKeyPem)
    : generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey;
  const jwk = privateKey.export({ format: "jwk" }) as { x: string; y: string };
  const publicKey = bytesToHex(
    Buffer.concat([Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]),
  );
  const id = opts.id ?? base64url(createHash("sha256").update(publicKey).digest().subarray(0, 16));
  const defaultFlags =
    USER_PRESENT |
    USER_VERIFIED |
    (opts.backupEligible ? BACKUP_ELIGIBLE : 0) |
    (opts.backedUp ? BACKED_UP : 0);
  let signCount = 0;

  function clientData(type: "webauthn.create" | "webauthn.get", challenge: Uint8Array, o: AnswerOptions) {
    const rp = o.rpId ?? rpId;
    // The members in the order browsers write them (type first, then challenge: the account contract
    // reads their positions).
    const data: Record<string, unknown> = {
      type,
      challenge: base64url(challenge),
      origin: o.origin ?? opts.origin ?? `http://${rp}`,
      crossOrigin: o.crossOrigin ?? false,
    };
    if (o.topOrigin !== undefined) data.topOrigin = o.topOrigin;
    return Buffer.from(JSON.stringify(data));
  }

  function nextCount(o: AnswerOptions) {
    signCount = o.signCount ?? signCount + 1;
    return signCount;
  }

  function assertion(challenge: Uint8Array, o: AnswerOptions = {}) {
    const clientDataJSON = clientData("webauthn.get", challenge, o);
    const authenticatorData = fromHex(
      Authenticator.getAuthenticatorData({
        rpId: o.rpId ?? rpId,
        flag: o.flags ?? defaultFlags,
        signCount: nextCount(o),
      }),
    );
    const signed = Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]);
    const signature = sign("sha256", signed, privateKey); // DER, as authenticators answer
    const credentialId = o.credentialId ?? id;
    return { credentialId, clientDataJSON, authenticatorData, signature };
  }

  const toJSON = (a: ReturnType<typeof assertion>): AuthenticationResponseJSON => ({
    id: a.credentialId,
    rawId: a.credentialId,
    type: "public-key",
    response: {
      clientDataJSON: base64url(a.clientDataJSON),
      authenticatorData: base64url(a.authenticatorData),
      signature: base64url(a.signature),
    },
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
  });

  const getFn = async (options?: { publicKey?: { challenge?: unknown; rpId?: string } }) => {
    const a = assertion(toBytes(options?.publicKey?.challenge), { rpId: options?.publicKey?.rpId });
    // A PublicKeyCredential as the browser gives it, with its toJSON (WebAuthn Level 3).
    return {
      id: a.credentialId,
      rawId: arrayBuffer(Buffer.from(a.credentialId, "base64url")),
      type: "public-key",
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: arrayBuffer(a.clientDataJSON),
        authenticatorData: arrayBuffer(a.authenticatorData),
        signature: arrayBuffer(a.signature),
      },
      getClientExtensionResults: () => ({}),
      toJSON: () => toJSON(a),
    } as never;
  };

  return {
    id,
    publicKey,
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    account: toWebAuthnAccount({ credential: { id, publicKey }, getFn, rpId }),
    register(challenge, o = {}) {
      const credentialId = o.credentialId ?? id;
      const clientDataJSON = clientData("webauthn.create", challenge, o);
      const authData = Authenticator.getAuthenticatorData({
        rpId: o.rpId ?? rpId,
        flag: (o.flags ?? defaultFlags) | ATTESTED_CREDENTIAL_DATA,
        signCount: nextCount(o),
        credential: {
          id: Buffer.from(credentialId, "base64url"),
          publicKey: PublicKey.from(`0x04${(o.publicKey ?? publicKey).slice(2)}`),
        },
      });
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: base64url(clientDataJSON),
          attestationObject: base64url(fromHex(Authenticator.getAttestationObject({ authData }))),
          authenticatorData: base64url(fromHex(authData)),
          transports: ["internal"],
          publicKeyAlgorithm: -7,
        },
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
      };
    },
    authenticate: (challenge, o) => toJSON(assertion(challenge, o)),
  };
}
