/**
 * The server's sponsorship in tests (decision 186): the paymaster pays only for an operation the server's
 * sponsorship key signed, over the operation's fields and a validity window.
 */
import type { Address, Hex, PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { encodeSponsorship, type SponsoredOperation, sponsorshipTypedData } from "../src/passkey-account.js";

/** The server's sponsorship key in tests: the paymaster pays only for operations it signed. */
export const SPONSOR_KEY: Hex = "0x5c1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19";
/** Its address, the `sponsorSigner` given to deployWallets. */
export const SPONSOR_SIGNER: Address = privateKeyToAccount(SPONSOR_KEY).address;

export interface SponsorshipWindow {
  /** First second the sponsorship is good (default a minute before the chain's latest block). */
  validAfter?: number;
  /** Last second the sponsorship is good (default ten minutes after the chain's latest block). */
  validUntil?: number;
}

/**
 * What the server does for a sponsored operation: sign `op` for `paymaster` with `key` (the sponsorship
 * key unless told otherwise) and return the paymasterData (validAfter || validUntil || signature).
 */
export async function sponsorSignature(
  client: PublicClient,
  paymaster: Address,
  op: SponsoredOperation,
  window: SponsorshipWindow = {},
  key: Hex = SPONSOR_KEY,
): Promise<Hex> {
  const now = Number((await client.getBlock()).timestamp);
  const validAfter = window.validAfter ?? now - 60;
  const validUntil = window.validUntil ?? now + 600;
  const chainId = client.chain?.id ?? (await client.getChainId());
  const signature = await privateKeyToAccount(key).signTypedData(
    sponsorshipTypedData({ paymaster, chainId, op, validAfter, validUntil }),
  );
  return encodeSponsorship(validAfter, validUntil, signature);
}

/** The `sponsor` of diginoorPaymasterFields for `paymaster`: the sponsorship key signs every operation. */
export const sponsorWith =
  (client: PublicClient, paymaster: Address, key: Hex = SPONSOR_KEY) =>
  (op: SponsoredOperation): Promise<Hex> =>
    sponsorSignature(client, paymaster, op, {}, key);
