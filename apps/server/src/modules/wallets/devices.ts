import {
  type LinkPasskeyRequest,
  PASSKEY_REQUEST_TTL_SECONDS,
  type PasskeyRequest,
  walletMessages as m,
} from "@diginoor/api/wallets";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { type Address, getAddress, type Hex, type PublicClient } from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import * as repo from "./repo.ts";
import type { WalletsService } from "./service.ts";

export interface WalletDevicesDeps {
  database: Database;
  clock: Clock;
  chain?: { publicClient: PublicClient; accountFactory?: Address };
  wallets: Pick<WalletsService, "provePasskey">;
}

interface RequestRow {
  id: string;
  user_id: string;
  address: string;
  credential_id: string;
  public_key: string;
  state: PasskeyRequest["state"];
  created_at: Date;
  expires_at: Date;
}

function toApi(r: RequestRow): PasskeyRequest {
  return {
    id: r.id,
    address: r.address,
    credentialId: r.credential_id,
    publicKey: r.public_key,
    state: r.state,
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
  };
}

/**
 * Whether the deployed account at `address` has the passkey `publicKey` (x || y) among its signers, read
 * on chain (`isPasskey`); `undeployed` when the account has no code yet (its one passkey is then the key
 * its address was made from, which the factory would install).
 */
async function passkeyOnChain(
  chain: { publicClient: PublicClient },
  address: string,
  publicKey: string,
): Promise<boolean | "undeployed"> {
  const code = await chain.publicClient.getCode({ address: address as Address });
  if (!code || code === "0x") return "undeployed";
  return chain.publicClient.readContract({
    address: address as Address,
    abi: diginoorPasskeyAccountAbi,
    functionName: "isPasskey",
    args: [`0x${publicKey.slice(2, 66)}` as Hex, `0x${publicKey.slice(66, 130)}` as Hex],
  });
}

/**
 * Passkeys of the fan's other devices on a passkey wallet (decision 171). The new device, signed in to the
 * same account, creates a passkey and proves it (an assertion over our nonce, as when linking): the server
 * keeps a pending request (public data). A passkey the wallet already has approves it by sending the
 * account's `addPasskey` as a user operation; only then, and only if the account on chain has the key, the
 * server records the credential so the wallet list offers it on every device. The server can refuse or
 * forget a request; it can never add a passkey to an account (the account takes `addPasskey` from itself).
 * Removing is the same the other way: a passkey of the wallet sends `removePasskey`, then the server
 * forgets the credential once the account on chain no longer has the key.
 */
export function createWalletDevices(deps: WalletDevicesDeps) {
  const { database, clock } = deps;
  const q = <T>(sql: string, params?: unknown[]) =>
    database.query<T & Record<string, unknown>>(sql, params) as Promise<T[]>;

  async function passkeyWallet(userId: string, rawAddress: string): Promise<string> {
    const address = getAddress(rawAddress.toLowerCase());
    const [w] = await q<{ kind: string }>("SELECT kind FROM wallets WHERE address = $1 AND user_id = $2", [
      address,
      userId,
    ]);
    if (w?.kind !== "passkey") throw new AppError("not_found", m.notLinked);
    return address;
  }

  async function expireOld(address: string) {
    await q(
      "UPDATE wallet_passkey_requests SET state = 'expired', finished_at = $2 WHERE address = $1 AND state = 'pending' AND expires_at <= $2",
      [address, clock.date()],
    );
  }

  async function pendingRequest(userId: string, rawAddress: string, id: string): Promise<RequestRow> {
    const address = await passkeyWallet(userId, rawAddress);
    await expireOld(address);
    const [r] = await q<RequestRow>("SELECT * FROM wallet_passkey_requests WHERE id = $1 AND address = $2", [
      id,
      address,
    ]);
    if (!r) throw new AppError("not_found", m.passkeyRequestNotFound);
    if (r.state !== "pending") throw AppError.conflict(m.passkeyRequestNotPending);
    return r;
  }

  return {
    /** From the new device: a pending request to add its (proven) passkey to the fan's passkey wallet. */
    async request(userId: string, rawAddress: string, body: LinkPasskeyRequest): Promise<PasskeyRequest> {
      if (!deps.chain?.accountFactory) throw new AppError("unavailable", m.passkeyUnavailable);
      const address = await passkeyWallet(userId, rawAddress);
      const now = clock.date();
      const publicKey = await deps.wallets.provePasskey(userId, body, now);
      return withTransaction(database, async (tx) => {
        if (!(await repo.consumeNonce(tx.db, body.nonce, userId, now)))
          throw AppError.badRequest(m.usedNonce);
        const known = await tx.query(
          "SELECT 1 FROM passkey_credentials WHERE credential_id = $1 OR public_key = $2",
          [body.credentialId, publicKey],
        );
        if (known.length > 0) throw AppError.conflict(m.passkeyKnown);
        // Only the caller's own wallet is touched (issue 34 point 7): their earlier pending request of this
        // credential is replaced; another wallet's pending request of the same credential id (a credential id
        // is public) stays as it is, and this one is refused.
        await tx.query(
          "UPDATE wallet_passkey_requests SET state = 'expired', finished_at = $2 WHERE credential_id = $1 AND address = $3 AND user_id = $4 AND state = 'pending'",
          [body.credentialId, now, address, userId],
        );
        const elsewhere = await tx.query(
          "SELECT 1 FROM wallet_passkey_requests WHERE credential_id = $1 AND state = 'pending'",
          [body.credentialId],
        );
        if (elsewhere.length > 0) throw AppError.conflict(m.passkeyKnown);
        const [row] = await tx.query<RequestRow & Record<string, unknown>>(
          `INSERT INTO wallet_passkey_requests (user_id, address, credential_id, public_key, state, created_at, expires_at)
            VALUES ($1, $2, $3, $4, 'pending', $5, $6) RETURNING *`,
          [
            userId,
            address,
            body.credentialId,
            publicKey,
            now,
            new Date(now.getTime() + PASSKEY_REQUEST_TTL_SECONDS * 1000),
          ],
        );
        return toApi(row!);
      });
    },

    /** The wallet's requests: pending ones and those answered in the last day, newest first. */
    async list(userId: string, rawAddress: string): Promise<PasskeyRequest[]> {
      const address = await passkeyWallet(userId, rawAddress);
      await expireOld(address);
      const rows = await q<RequestRow>(
        `SELECT * FROM wallet_passkey_requests
          WHERE address = $1 AND (state = 'pending' OR created_at > $2)
          ORDER BY created_at DESC LIMIT 20`,
        [address, new Date(clock.now() - 86_400_000)],
      );
      return rows.map(toApi);
    },

    /** After a passkey of the wallet sent `addPasskey`: records the credential if the account has the key. */
    async confirmAdded(userId: string, rawAddress: string, id: string): Promise<PasskeyRequest> {
      const chain = deps.chain;
      if (!chain?.accountFactory) throw new AppError("unavailable", m.passkeyUnavailable);
      const r = await pendingRequest(userId, rawAddress, id);
      if ((await passkeyOnChain(chain, r.address, r.public_key)) !== true)
        throw AppError.conflict(m.passkeyNotOnChain);
      const now = clock.date();
      return withTransaction(database, async (tx) => {
        const [row] = await tx.query<RequestRow & Record<string, unknown>>(
          `UPDATE wallet_passkey_requests SET state = 'added', finished_at = $2
            WHERE id = $1 AND state = 'pending' RETURNING *`,
          [r.id, now],
        );
        if (!row) throw AppError.conflict(m.passkeyRequestNotPending);
        await tx.query(
          `INSERT INTO passkey_credentials (credential_id, address, user_id, public_key, created_at)
            VALUES ($1, $2, $3, $4, $5) ON CONFLICT (credential_id) DO NOTHING`,
          [r.credential_id, r.address, r.user_id, r.public_key, now],
        );
        return toApi(row);
      });
    },

    /**
     * After a passkey of the wallet sent the account's `removePasskey`: forgets the credential, only if the
     * account on chain no longer has its key (an undeployed account still has its first passkey). The
     * server removes nothing on chain; it stops offering a passkey the wallet no longer accepts.
     */
    async confirmRemoved(userId: string, rawAddress: string, credentialId: string): Promise<void> {
      const chain = deps.chain;
      if (!chain?.accountFactory) throw new AppError("unavailable", m.passkeyUnavailable);
      const address = await passkeyWallet(userId, rawAddress);
      const [p] = await q<{ public_key: string }>(
        "SELECT public_key FROM passkey_credentials WHERE credential_id = $1 AND address = $2",
        [credentialId, address],
      );
      if (!p) throw new AppError("not_found", m.passkeyNotFound);
      if ((await passkeyOnChain(chain, address, p.public_key)) !== false)
        throw AppError.conflict(m.passkeyStillOnChain);
      await q("DELETE FROM passkey_credentials WHERE credential_id = $1 AND address = $2", [
        credentialId,
        address,
      ]);
    },

    /** Declines a pending request (from any device of the fan). */
    async decline(userId: string, rawAddress: string, id: string): Promise<void> {
      const r = await pendingRequest(userId, rawAddress, id);
      await q(
        "UPDATE wallet_passkey_requests SET state = 'declined', finished_at = $2 WHERE id = $1 AND state = 'pending'",
        [r.id, clock.date()],
      );
    },
  };
}

export type WalletDevicesService = ReturnType<typeof createWalletDevices>;
