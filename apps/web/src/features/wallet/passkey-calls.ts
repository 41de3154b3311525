import type { RegistrationResponse } from "@diginoor/api/wallets";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { passkeyPairingCode } from "@diginoor/contracts/passkey-account";
import { base64URLStringToBuffer } from "@simplewebauthn/browser";
import { type Address, bytesToHex, encodeFunctionData, type Hex } from "viem";

const halves = (publicKey: string) =>
  [`0x${publicKey.slice(2, 66)}`, `0x${publicKey.slice(66, 130)}`] as readonly [Hex, Hex];

/**
 * The account's own call adding or removing a passkey (sent as a user operation signed by a passkey it
 * has; the contract never removes the last one).
 */
export function passkeyCall(functionName: "addPasskey" | "removePasskey", wallet: string, publicKey: string) {
  return {
    to: wallet as Address,
    data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName, args: halves(publicKey) }),
  };
}

/** The pairing code of a key as the server gave it; a dash if it is not a P-256 key (nothing to compare). */
export function codeOf(publicKey: string): string {
  try {
    return passkeyPairingCode(publicKey as Hex);
  } catch {
    return "—";
  }
}

/** DER of a P-256 key's SubjectPublicKeyInfo up to its point: id-ecPublicKey, prime256v1, uncompressed (04). */
const P256_SPKI_PREFIX = "3059301306072a8648ce3d020106082a8648ce3d03010703420004";

/**
 * The public key (x || y, hex) of the passkey a registration made, from the SubjectPublicKeyInfo the
 * browser gives with it (AuthenticatorAttestationResponse.getPublicKey(), in the JSON as
 * `response.publicKey`). Needed before the server has seen the passkey: the recovery code's key signs the
 * new passkey's coordinates (decision 185). The server checks that signature against the key it verifies
 * from the attestation, so a wrong key here is refused there, never proposed.
 */
export function registeredPublicKey(registration: RegistrationResponse): Hex {
  const spki = registration.response.publicKey;
  const der = spki ? bytesToHex(new Uint8Array(base64URLStringToBuffer(spki))) : undefined;
  if (!der || der.length !== 2 + 182 || !der.startsWith(`0x${P256_SPKI_PREFIX}`))
    throw new Error("This browser did not give the new passkey's public key (a P-256 key is needed)");
  return `0x${der.slice(2 + P256_SPKI_PREFIX.length)}`;
}
