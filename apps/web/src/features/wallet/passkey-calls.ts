import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { passkeyPairingCode } from "@diginoor/contracts/passkey-account";
import { type Address, encodeFunctionData, type Hex } from "viem";

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
