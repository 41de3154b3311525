/**
 * A software WebAuthn authenticator for Node tests and scripts: a P-256 key in memory that answers
 * `navigator.credentials.get` the way a platform authenticator does (authenticator data with the user
 * present and verified flags, client data JSON with the challenge, DER signature), so viem's
 * `toWebAuthnAccount` and ox parse it exactly as they parse a browser's. Never for real funds.
 */
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { bytesToHex, type Hex } from "viem";
import { toWebAuthnAccount, type WebAuthnAccount } from "viem/account-abstraction";

export interface SoftwarePasskey {
  /** Credential id (base64url). */
  id: string;
  /** Uncompressed public key without the 0x04 prefix: x || y (64 bytes), as viem's credentials carry it. */
  publicKey: Hex;
  /** PKCS#8 PEM of the private key (so a test can rebuild the same passkey). */
  privateKeyPem: string;
  /** viem WebAuthn account signing with this key. */
  account: WebAuthnAccount;
}

const base64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");

function toBytes(source: unknown): Uint8Array {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  throw new Error("challenge is not a BufferSource");
}

/**
 * Create a passkey (a new P-256 key unless `privateKeyPem` is given) for relying party `rpId`, answering
 * as a browser page at `origin` (default `http://<rpId>`).
 */
export function createSoftwarePasskey(
  opts: { rpId?: string; origin?: string; privateKeyPem?: string } = {},
): SoftwarePasskey {
  const rpId = opts.rpId ?? "localhost";
  const privateKey: KeyObject = opts.privateKeyPem
    ? createPrivateKey(opts.privateKeyPem)
    : generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey;
  const jwk = privateKey.export({ format: "jwk" }) as { x: string; y: string };
  const publicKey = bytesToHex(
    Buffer.concat([Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]),
  );
  const id = base64url(createHash("sha256").update(publicKey).digest().subarray(0, 16));
  let signCount = 0;
  const getFn = async (options?: { publicKey?: { challenge?: unknown; rpId?: string } }) => {
    const challenge = toBytes(options?.publicKey?.challenge);
    const rp = options?.publicKey?.rpId ?? rpId;
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: "webauthn.get",
        challenge: base64url(challenge),
        origin: opts.origin ?? `http://${rp}`,
        crossOrigin: false,
      }),
    );
    signCount += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(signCount);
    // flags: user present (0x01) and user verified (0x04)
    const authenticatorData = Buffer.concat([
      createHash("sha256").update(rp).digest(),
      Buffer.from([0x05]),
      counter,
    ]);
    const signed = Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]);
    const signature = sign("sha256", signed, privateKey); // DER, as authenticators answer
    const ab = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    return {
      id,
      type: "public-key",
      response: {
        clientDataJSON: ab(clientDataJSON),
        authenticatorData: ab(authenticatorData),
        signature: ab(signature),
      },
    } as never;
  };
  return {
    id,
    publicKey,
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    account: toWebAuthnAccount({ credential: { id, publicKey }, getFn, rpId }),
  };
}
