import { diginoorAccountFactoryAbi } from "@diginoor/contracts/generated/diginoorAccountFactory";
import {
  type LinkPasskeyRequest,
  type LinkWalletRequest,
  type NonceResponse,
  passkeyRefusalMessages,
  SIWE_MAX_LIFETIME_SECONDS,
  SIWE_NONCE_TTL_SECONDS,
  type Wallet,
  walletMessages as m,
} from "@diginoor/api/wallets";
import { randomBytes } from "node:crypto";
import { type Address, getAddress, type Hex, type PublicClient } from "viem";
import { createSiweMessage, parseSiweMessage, type SiweMessage } from "viem/siwe";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { type Tx, withTransaction } from "../../platform/tx.ts";
import * as repo from "./repo.ts";
import type { PasskeyCredentialRow, WalletRow } from "./tables.ts";
import { verifyNewPasskey } from "./webauthn.ts";

/** A wallet's clock may run a little ahead of ours; an issued-at this far ahead is still accepted. */
const CLOCK_SKEW_MS = 60_000;

export interface WalletsServiceDeps {
  database: Database;
  clock: Clock;
  /** PUBLIC_URL: its host is the SIWE domain, the URL itself the SIWE uri. */
  publicUrl: string;
  /** The configured chain; without it linking is refused (reading and unlinking still work). */
  chain?: { chainId: number; publicClient: PublicClient; accountFactory?: Address };
  /** Called after a wallet is linked (committed): what waited for the user's wallet can go on. */
  onLinked?: (userId: string) => Promise<unknown>;
  /**
   * How many tokens an address owns, from the indexer's ownership tables (its service, not its repo).
   * A passkey wallet that owns any cannot be unlinked; without this reader no passkey wallet can be.
   */
  tokensOwned?: (address: string) => Promise<number>;
}

/** A wallet as the API shows it; `passkeys` are the wallet's credentials, the first (the account's key) first. */
export function toApi(w: WalletRow, passkeys: PasskeyCredentialRow[] = []): Wallet {
  const mine = passkeys
    .filter((p) => p.address === w.address)
    .sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.credentialId.localeCompare(b.credentialId),
    );
  const first = mine[0];
  return {
    address: w.address,
    kind: w.kind,
    passkey: first ? { credentialId: first.credentialId, publicKey: first.publicKey } : null,
    passkeys: mine.map((p) => ({
      credentialId: p.credentialId,
      publicKey: p.publicKey,
      addedAt: p.createdAt.toISOString(),
    })),
    receivesPurchases: w.receivesPurchases,
    chainId: w.chainId,
    linkedAt: w.linkedAt.toISOString(),
    guardian: w.guardian ?? null,
  };
}

const bad = (message: string, details?: unknown) => new AppError("bad_request", message, details);

/**
 * A SIWE nonce: 128 bits from the operating system's cryptographic source, as 32 hex digits (EIP-4361
 * wants at least 8 alphanumeric characters and recommends enough entropy to resist guessing; viem's
 * generateSiweNonce slides a window over one Math.random buffer, so each nonce is the last shifted).
 */
function newNonce(): string {
  return randomBytes(16).toString("hex");
}

/** The EIP-4361 text of parsed fields as viem writes it, or undefined when a field cannot be written. */
function standardForm(fields: SiweMessage): string | undefined {
  try {
    return createSiweMessage(fields);
  } catch {
    return undefined; // an invalid date, domain, URI or address
  }
}

/** Someone else's wallet is "not found" too: whose wallet an address is stays private. */
const notLinked = () => new AppError("not_found", m.notLinked);

/** Wallets linked to accounts by Sign-In with Ethereum (EIP-4361), verified with viem. */
export function createWalletsService(deps: WalletsServiceDeps) {
  const { database, clock } = deps;
  const publicUrl = new URL(deps.publicUrl);
  const expectedDomain = publicUrl.host;
  const expectedUri = deps.publicUrl;

  function requireChain() {
    if (!deps.chain) throw new AppError("unavailable", m.chainUnavailable);
    return deps.chain;
  }

  /** Everything the message itself must say, checked before the nonce and the signature. */
  function checkMessage(message: string, now: Date) {
    const chain = requireChain();
    const parsed = parseSiweMessage(message);
    if (!parsed.address || !parsed.domain || !parsed.uri || !parsed.nonce || !parsed.issuedAt) {
      throw bad(m.badMessage);
    }
    if (!parsed.chainId || !parsed.version) throw bad(m.badMessage);
    // Only the standard form (issue 23 point 10): viem's parser finds the fields anywhere in the text,
    // so an extra line, a lower-case address or a field out of place would pass unseen. The message is
    // written again from the fields it parsed to, and must be that exact text.
    if (standardForm(parsed as SiweMessage) !== message) throw bad(m.notStandard);
    if (parsed.domain !== expectedDomain) throw bad(m.wrongDomain(expectedDomain));
    if (parsed.uri !== expectedUri) throw bad(m.wrongUri(expectedUri));
    if (parsed.chainId !== chain.chainId) throw bad(m.wrongChain(chain.chainId));
    if (parsed.version !== "1") throw bad(m.wrongVersion);
    const issuedAt = parsed.issuedAt.getTime();
    if (Number.isNaN(issuedAt)) throw bad(m.badMessage);
    if (issuedAt > now.getTime() + CLOCK_SKEW_MS) throw bad(m.issuedInFuture);
    // The Expiration Time is optional (EIP-4361): without one, the nonce's own lifetime bounds the
    // message (checkNonce); with one, it must come within SIWE_MAX_LIFETIME_SECONDS and not be past.
    if (parsed.expirationTime) {
      const expiresAt = parsed.expirationTime.getTime();
      if (Number.isNaN(expiresAt)) throw bad(m.badMessage);
      if (expiresAt - issuedAt > SIWE_MAX_LIFETIME_SECONDS * 1000) throw bad(m.tooLong);
      if (expiresAt <= now.getTime()) throw bad(m.expired);
    }
    if (parsed.notBefore && parsed.notBefore.getTime() > now.getTime()) throw bad(m.notYetValid);
    return {
      address: getAddress(parsed.address),
      nonce: parsed.nonce,
      chain,
    };
  }

  async function checkNonce(nonce: string, userId: string, now: Date): Promise<void> {
    const row = await repo.findNonce(database.db, nonce);
    if (!row || row.userId !== userId) throw bad(m.unknownNonce);
    if (row.usedAt) throw bad(m.usedNonce);
    if (row.expiresAt.getTime() <= now.getTime()) throw bad(m.expiredNonce);
  }

  /**
   * The row of a wallet about to be linked (inside the user's wallet lock): refused when the address is
   * linked already; the user's first wallet receives their purchases.
   */
  async function newWalletRow(
    tx: Tx,
    w: {
      address: string;
      userId: string;
      chainId: number;
      now: Date;
      kind: WalletRow["kind"];
      guardian?: string;
    },
  ): Promise<WalletRow> {
    const existing = await repo.findWallet(tx.db, w.address);
    if (existing) throw AppError.conflict(existing.userId === w.userId ? m.alreadyLinked : m.linkedElsewhere);
    const first = (await repo.listWallets(tx.db, w.userId)).length === 0;
    return {
      address: w.address,
      userId: w.userId,
      chainId: w.chainId,
      receivesPurchases: first,
      linkedAt: w.now,
      kind: w.kind,
      guardian: w.guardian ?? null,
    };
  }

  /** Runs the onLinked hook; its failure never undoes the link (the orders reconciler retries). */
  async function linked<T>(userId: string, wallet: T): Promise<T> {
    await deps.onLinked?.(userId).catch(() => {});
    return wallet;
  }

  /**
   * The fan made this passkey and holds it: its WebAuthn registration and an assertion of the same
   * credential, both over a nonce we issued them (challenge = the nonce's UTF-8 bytes), for our origin and
   * relying party id, user verified (decision 183). Returns the public key (x || y, lower case); the
   * caller consumes the nonce in the transaction that uses the passkey.
   */
  async function provePasskey(userId: string, body: LinkPasskeyRequest, now: Date): Promise<Hex> {
    await checkNonce(body.nonce, userId, now);
    const check = await verifyNewPasskey({
      credentialId: body.credentialId,
      registration: body.registration,
      assertion: body.assertion,
      expected: {
        challenge: Buffer.from(body.nonce, "utf8").toString("base64url"),
        origin: publicUrl.origin,
        rpId: publicUrl.hostname,
      },
    });
    if (!check.ok) throw bad(passkeyRefusalMessages[check.reason], { reason: check.reason });
    return check.publicKey as Hex;
  }

  /** Refuses (409 wallet_not_empty) when the address owns a token or a non-zero coin balance. */
  async function refuseIfHolding(address: Address): Promise<void> {
    const chain = requireChain();
    if (!deps.tokensOwned) throw new AppError("unavailable", m.chainUnavailable);
    const [tokens, balance] = await Promise.all([
      deps.tokensOwned(address),
      chain.publicClient.getBalance({ address }),
    ]);
    if (tokens > 0 || balance > 0n) {
      throw new AppError("wallet_not_empty", m.walletNotEmpty(tokens, balance > 0n), {
        tokens,
        balanceWei: balance.toString(),
      });
    }
  }

  async function listFor(userId: string): Promise<Wallet[]> {
    const [rows, passkeys] = await Promise.all([
      repo.listWallets(database.db, userId),
      repo.listPasskeyCredentials(database.db, userId),
    ]);
    return rows.map((w) => toApi(w, passkeys));
  }

  return {
    /** A fresh single-use nonce for this user's next SIWE message. */
    async issueNonce(userId: string): Promise<NonceResponse> {
      requireChain();
      const now = clock.date();
      const expiresAt = new Date(now.getTime() + SIWE_NONCE_TTL_SECONDS * 1000);
      const nonce = newNonce();
      await repo.insertNonce(database.db, { nonce, userId, createdAt: now, expiresAt });
      await repo.deleteOldNonces(database.db, now);
      return {
        nonce,
        domain: expectedDomain,
        uri: expectedUri,
        chainId: requireChain().chainId,
        expiresAt: expiresAt.toISOString(),
      };
    },

    /**
     * Verifies the signed message (domain, uri, chain, nonce, times, signature: EOAs and
     * smart-contract wallets through ERC-1271/6492) and links the address to the user. The nonce is
     * consumed in the same transaction as the link; a refused request changes nothing.
     */
    async link(userId: string, body: LinkWalletRequest): Promise<Wallet> {
      const now = clock.date();
      const { address, nonce, chain } = checkMessage(body.message, now);
      await checkNonce(nonce, userId, now);
      // The signature before anything is said about the address (issue 34 point 7): whether it is linked,
      // and to whom, is told only to whoever holds its key. It may need an RPC call (contract wallets).
      const valid = await chain.publicClient
        .verifySiweMessage({
          message: body.message,
          signature: body.signature as Hex,
          address: address as Address,
          domain: expectedDomain,
          nonce,
          time: now,
        })
        .catch(() => false);
      if (!valid) throw bad(m.badSignature);

      const wallet = await withTransaction(database, async (tx: Tx) => {
        await repo.lockUserWallets(tx.db, userId);
        if (!(await repo.consumeNonce(tx.db, nonce, userId, now))) throw bad(m.usedNonce);
        const row = await newWalletRow(tx, { address, userId, chainId: chain.chainId, now, kind: "siwe" });
        try {
          await repo.insertWallet(tx.db, row);
        } catch (err) {
          // Another account linked the same address at the same moment.
          if (isUniqueViolation(err)) throw AppError.conflict(m.linkedElsewhere);
          throw err;
        }
        return toApi(row);
      });
      return linked(userId, wallet);
    },

    /**
     * Links the passkey wallet of a new passkey: the fan's WebAuthn assertion over a nonce we issued
     * (challenge = the nonce's UTF-8 bytes, our origin and relying party id, user verified) proves they
     * hold the passkey; the wallet is our factory's counterfactual account of that key (deployed by its
     * first user operation). The nonce is consumed in the same transaction as the link.
     */
    async linkPasskey(userId: string, body: LinkPasskeyRequest): Promise<Wallet> {
      const now = clock.date();
      const chain = requireChain();
      const factory = chain.accountFactory;
      if (!factory) throw new AppError("unavailable", m.passkeyUnavailable);
      const publicKey = await provePasskey(userId, body, now);
      const address = getAddress(
        await chain.publicClient.readContract({
          address: factory,
          abi: diginoorAccountFactoryAbi,
          functionName: "accountAddress",
          // With the fan's guardian (their recovery code's key) when given: it is part of the address (decision 185).
          args: body.guardian
            ? [`0x${publicKey.slice(2, 66)}`, `0x${publicKey.slice(66)}`, getAddress(body.guardian)]
            : [`0x${publicKey.slice(2, 66)}`, `0x${publicKey.slice(66)}`],
        }),
      );
      const wallet = await withTransaction(database, async (tx: Tx) => {
        await repo.lockUserWallets(tx.db, userId);
        if (!(await repo.consumeNonce(tx.db, body.nonce, userId, now))) throw bad(m.usedNonce);
        const row = await newWalletRow(tx, {
          address,
          userId,
          chainId: chain.chainId,
          now,
          kind: "passkey",
          guardian: body.guardian ? getAddress(body.guardian) : undefined,
        });
        if (await repo.findPasskeyCredential(tx.db, body.credentialId)) {
          throw AppError.conflict(m.linkedElsewhere);
        }
        const credential: PasskeyCredentialRow = {
          credentialId: body.credentialId,
          address,
          userId,
          publicKey,
          createdAt: now,
        };
        try {
          await repo.insertWallet(tx.db, row);
          await repo.insertPasskeyCredential(tx.db, credential);
        } catch (err) {
          if (isUniqueViolation(err)) throw AppError.conflict(m.linkedElsewhere);
          throw err;
        }
        return toApi(row, [credential]);
      });
      return linked(userId, wallet);
    },

    list: listFor,
    provePasskey,

    /** The wallet that receives the user's purchases, or undefined when none is linked. */
    async receivingWallet(userId: string): Promise<Wallet | undefined> {
      return (await listFor(userId)).find((x) => x.receivesPurchases);
    },

    /** Whether `address` is or ever was linked to the user's account (issue 34 point 7: no resale to oneself). */
    everLinked: (userId: string, address: string) =>
      repo.everLinked(database.db, userId, getAddress(address.toLowerCase())),

    /** The user an address is linked to, if any. */
    async ownerOf(address: string): Promise<string | undefined> {
      return (await repo.findWallet(database.db, getAddress(address.toLowerCase())))?.userId;
    },

    async makeReceiving(userId: string, rawAddress: string): Promise<Wallet> {
      const address = getAddress(rawAddress.toLowerCase());
      return withTransaction(database, async (tx) => {
        await repo.lockUserWallets(tx.db, userId);
        // Not the user's wallet: the transaction rolls back the other wallets' flags too.
        if (!(await repo.setReceiving(tx.db, userId, address))) throw notLinked();
        const row = await repo.findWallet(tx.db, address);
        if (!row) throw notLinked();
        return toApi(row, await repo.listPasskeyCredentials(tx.db, userId));
      });
    },

    /**
     * Unlinks one of the user's wallets; if it received purchases, the newest remaining one does. A passkey
     * wallet holding any token or any coin is refused (issue 35 item 2): only this account's passkey
     * reaches it, so unlinking would strand what it holds. An empty one can be linked again later.
     */
    async unlink(userId: string, rawAddress: string): Promise<void> {
      const address = getAddress(rawAddress.toLowerCase());
      // What it holds is read before the transaction: the indexer's reader and the chain are outside it
      // (PGlite is one connection, a query beside an open transaction would wait for it forever).
      const row = await repo.findWallet(database.db, address);
      if (!row || row.userId !== userId) throw notLinked();
      if (row.kind === "passkey") await refuseIfHolding(address);
      await withTransaction(database, async (tx) => {
        await repo.lockUserWallets(tx.db, userId);
        const gone = await repo.deleteWallet(tx.db, userId, address);
        if (!gone) throw notLinked();
        if (gone.receivesPurchases) {
          const next = await repo.newestWallet(tx.db, userId);
          if (next) await repo.setReceiving(tx.db, userId, next.address);
        }
      });
    },
  };
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
}

export type WalletsService = ReturnType<typeof createWalletsService>;

// Data rights (decision 170): this module's part of the archive and of the erasure.
export { eraseWallets, exportWallets, linkedAddresses } from "./personal-data.ts";
