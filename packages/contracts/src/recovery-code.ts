/**
 * A passkey wallet's recovery code (decision 185): twelve BIP-39 English words (128 bits of entropy),
 * made in the fan's browser when the wallet is set up and shown once. The key it derives (BIP-44's first
 * Ethereum account, viem's `mnemonicToAccount`) is the wallet's guardian: its address is all the account,
 * and our server, ever learn. A fan who lost every device types the code on a new one; the browser signs
 * the account's EIP-712 `Recovery` naming the new passkey, which anyone may relay.
 */
import type { Address, Hex, LocalAccount } from "viem";
import { english, generateMnemonic, mnemonicToAccount } from "viem/accounts";
import { recoveryTypedData } from "./passkey-account.js";

export const RECOVERY_CODE_WORDS = 12;

/** A new recovery code: twelve words from the BIP-39 English list, 128 bits from the platform's CSPRNG. */
export function newRecoveryCode(): string {
  return generateMnemonic(english, 128);
}

/** The code as typed (any case, spacing, line breaks) in its canonical form, or null if it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const words = typed
    .trim()
    .toLowerCase()
    .split(/[\s,.-]+/u)
    .filter(Boolean);
  if (words.length !== RECOVERY_CODE_WORDS) return null;
  if (!words.every((w) => english.includes(w))) return null;
  return words.join(" ");
}

/** The guardian key of a recovery code (null for text that is no code). */
export function recoveryCodeKey(code: string): LocalAccount | null {
  const normal = normalizeRecoveryCode(code);
  return normal ? mnemonicToAccount(normal) : null;
}

/** The guardian address a recovery code stands for (what the factory binds into the account's address). */
export function recoveryCodeGuardian(code: string): Address | null {
  return recoveryCodeKey(code)?.address ?? null;
}

/** The guardian's signature proposing `newPublicKey` for `account` (nonce: the account's `recoveryNonce()`). */
export async function signRecoveryWithCode(args: {
  code: string;
  account: Address;
  chainId: number;
  newPublicKey: Hex;
  nonce: bigint;
}): Promise<Hex> {
  const key = recoveryCodeKey(args.code);
  if (!key?.signTypedData) throw new Error("not a recovery code");
  return key.signTypedData(
    recoveryTypedData({
      account: args.account,
      chainId: args.chainId,
      publicKey: args.newPublicKey,
      nonce: args.nonce,
    }),
  );
}
