import { and, asc, desc, eq, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  type PasskeyCredentialRow,
  passkeyCredentials,
  type WalletRow,
  walletLinkHistory,
  walletNonces,
  wallets,
} from "./tables.ts";

export async function insertNonce(
  db: Db,
  n: { nonce: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(walletNonces).values(n);
}

export async function findNonce(db: Db, nonce: string) {
  const rows = await db.select().from(walletNonces).where(eq(walletNonces.nonce, nonce)).limit(1);
  return rows[0];
}

/**
 * Marks the nonce used if it belongs to `userId`, is unused and unexpired at `now`; true when this
 * call consumed it (a second, concurrent use finds it used and gets false).
 */
export async function consumeNonce(db: Db, nonce: string, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(walletNonces)
    .set({ usedAt: now })
    .where(
      and(
        eq(walletNonces.nonce, nonce),
        eq(walletNonces.userId, userId),
        isNull(walletNonces.usedAt),
        sql`${walletNonces.expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ nonce: walletNonces.nonce });
  return rows.length === 1;
}

/** Nonces that expired over a day ago are of no use (they are kept a day for clear error messages). */
export async function deleteOldNonces(db: Db, now: Date): Promise<void> {
  await db.delete(walletNonces).where(lt(walletNonces.expiresAt, new Date(now.getTime() - 24 * 3600 * 1000)));
}

export async function findWallet(db: Db, address: string): Promise<WalletRow | undefined> {
  const rows = await db.select().from(wallets).where(eq(wallets.address, address)).limit(1);
  return rows[0];
}

export async function listWallets(db: Db, userId: string): Promise<WalletRow[]> {
  return db
    .select()
    .from(wallets)
    .where(eq(wallets.userId, userId))
    .orderBy(asc(wallets.linkedAt), asc(wallets.address));
}

export async function insertWallet(db: Db, w: WalletRow): Promise<void> {
  await db.insert(wallets).values(w);
}

/** Makes `address` the user's receiving wallet (and no other); false when the user has no such wallet. */
export async function setReceiving(db: Db, userId: string, address: string): Promise<boolean> {
  // Clear first: the partial unique index allows one receiving wallet per user at any moment.
  await db
    .update(wallets)
    .set({ receivesPurchases: false })
    .where(and(eq(wallets.userId, userId), ne(wallets.address, address)));
  const rows = await db
    .update(wallets)
    .set({ receivesPurchases: true })
    .where(and(eq(wallets.userId, userId), eq(wallets.address, address)))
    .returning({ address: wallets.address });
  return rows.length === 1;
}

export async function deleteWallet(db: Db, userId: string, address: string): Promise<WalletRow | undefined> {
  const rows = await db
    .delete(wallets)
    .where(and(eq(wallets.userId, userId), eq(wallets.address, address)))
    .returning();
  return rows[0];
}

/** The most recently linked wallet of the user, if any. */
export async function newestWallet(db: Db, userId: string): Promise<WalletRow | undefined> {
  const rows = await db
    .select()
    .from(wallets)
    .where(eq(wallets.userId, userId))
    .orderBy(desc(wallets.linkedAt), desc(wallets.address))
    .limit(1);
  return rows[0];
}

/** Whether `address` was ever linked to `userId` (linked now, or linked and unlinked since: wallet_link_history). */
export async function everLinked(db: Db, userId: string, address: string): Promise<boolean> {
  const [now] = await db
    .select({ address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.userId, userId), eq(wallets.address, address)))
    .limit(1);
  if (now) return true;
  const [before] = await db
    .select({ address: walletLinkHistory.address })
    .from(walletLinkHistory)
    .where(and(eq(walletLinkHistory.userId, userId), eq(walletLinkHistory.address, address)))
    .limit(1);
  return before !== undefined;
}

/** Locks the user's wallets for the rest of the transaction (linking and unlinking serialise per user). */

export async function lockUserWallets(db: Db, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext('wallets:' || ${userId}))`);
}

export async function insertPasskeyCredential(db: Db, row: PasskeyCredentialRow): Promise<void> {
  await db.insert(passkeyCredentials).values(row);
}

export async function findPasskeyCredential(
  db: Db,
  credentialId: string,
): Promise<PasskeyCredentialRow | undefined> {
  const rows = await db
    .select()
    .from(passkeyCredentials)
    .where(eq(passkeyCredentials.credentialId, credentialId))
    .limit(1);
  return rows[0];
}

export async function listPasskeyCredentials(db: Db, userId: string): Promise<PasskeyCredentialRow[]> {
  return db.select().from(passkeyCredentials).where(eq(passkeyCredentials.userId, userId));
}
