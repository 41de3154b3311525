import {
  type ConfirmWalletRecoveryRequest,
  RECOVERY_LINK_TTL_SECONDS,
  walletMessages as m,
  type WalletRecovery,
} from "@diginoor/api/wallets";
import { diginoorAccountFactoryAbi } from "@diginoor/contracts/generated/diginoorAccountFactory";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { createHash, randomBytes } from "node:crypto";
import { recoveryTypedData } from "@diginoor/contracts/passkey-account";
import { type Address, getAddress, type Hex, type PublicClient, recoverTypedDataAddress } from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { Clock } from "../../platform/clock.ts";
import { withTransaction } from "../../platform/tx.ts";
import type { AccountsService } from "../accounts/service.ts";
import type { Minter } from "../chain/service.ts";
import { deliverOnce, type Mailer, walletRecoveryMail } from "../mail/service.ts";
import type { NotificationsService } from "../notifications/service.ts";
import * as repo from "./repo.ts";
import type { WalletsService } from "./service.ts";

const DAY_MS = 86_400_000;

export interface WalletRecoveryDeps {
  database: Database;
  clock: Clock;
  publicUrl: string;
  chain?: { publicClient: PublicClient; accountFactory?: Address };
  /**
   * The relayer key's nonce-ordered sends (RECOVERY_RELAYER_PRIVATE_KEY): it sends the guardian's signed
   * proposal and completes it, paying the gas; it is no account's guardian. Absent: recovery through us is
   * unavailable (a fan can still send the signed proposal to the chain themselves).
   */
  relayer?: Pick<Minter, "account" | "send">;
  /** Most recoveries relayed per wallet and calendar month (RECOVERY_RELAYS_PER_MONTH). */
  relaysPerMonth?: number;
  wallets: Pick<WalletsService, "provePasskey">;
  mailer: Mailer;
  notifications?: Pick<NotificationsService, "notify">;
  /** Where the user is mailed. */
  accounts: Pick<AccountsService, "mailContact">;
  log?: (level: "info" | "warn", msg: string, extra?: object) => void;
}

interface RecoveryRow {
  id: string;
  user_id: string;
  address: string;
  state: WalletRecovery["state"];
  requested_at: Date;
  link_expires_at: Date;
  new_credential_id: string | null;
  new_public_key: string | null;
  executable_at: Date | null;
  reminded_at: Date | null;
  guardian: string | null;
  guardian_signature: string | null;
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
/** The mail-delivery id (a uuid, as job ids are) of one step of a recovery: each notice is mailed once. */
function deliveryId(recoveryId: string, step: string): string {
  const h = createHash("sha256").update(`wallet-recovery:${recoveryId}:${step}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
const halves = (publicKey: string) =>
  [`0x${publicKey.slice(2, 66)}`, `0x${publicKey.slice(66)}`] as [Hex, Hex];

function toApi(r: RecoveryRow): WalletRecovery {
  return {
    id: r.id,
    address: r.address,
    state: r.state,
    executableAt: r.executable_at?.toISOString() ?? null,
    newPasskey:
      r.new_credential_id && r.new_public_key
        ? { credentialId: r.new_credential_id, publicKey: r.new_public_key }
        : null,
    requestedAt: r.requested_at.toISOString(),
  };
}

/** "Thursday 3 December 2026, 15:04 UTC": when a recovery may complete, in the notices. */
const when = (d: Date) =>
  `${d.toLocaleString("en-GB", { timeZone: "UTC", dateStyle: "full", timeStyle: "short" })} UTC`;

/**
 * Recovery of a passkey wallet whose every passkey is lost (decision 160). The fan, signed in, asks for
 * a link mailed to the account's address; from the device of a new passkey they open it and confirm with
 * that passkey (an assertion over our nonce, as when linking) and with their recovery code, whose key (the
 * wallet's guardian, derived in the browser) signs the proposal. Our relayer key then deploys the account
 * if it never was (anyone may: the factory binds it to the old key and the guardian) and sends the signed
 * proposal on chain (decision 185: it cannot propose anything by itself),
 * where the account makes it wait 7 days; any passkey of the wallet can cancel it meanwhile. A job follows
 * each proposal: a notice when it is on chain, another a day before it can complete, completes it when the
 * chain's time allows (the wallet's passkey record follows), or notices that it was cancelled.
 */
export function createWalletRecovery(deps: WalletRecoveryDeps) {
  const { database, clock } = deps;
  const base = deps.publicUrl.replace(/\/+$/, "");
  const log = deps.log ?? (() => {});
  const q = <T>(sql: string, params?: unknown[]) =>
    database.query<T & Record<string, unknown>>(sql, params) as Promise<T[]>;

  function ready() {
    const chain = deps.chain;
    const relayer = deps.relayer;
    if (!chain?.accountFactory || !relayer) throw new AppError("unavailable", m.recoveryUnavailable);
    return { chain, relayer, factory: chain.accountFactory };
  }

  const readAccount = <T>(chain: { publicClient: PublicClient }, address: string, functionName: string) =>
    chain.publicClient.readContract({
      address: address as Address,
      abi: diginoorPasskeyAccountAbi,
      functionName,
    } as never) as Promise<T>;

  async function chainTime(chain: { publicClient: PublicClient }): Promise<number> {
    return Number((await chain.publicClient.getBlock()).timestamp) * 1000;
  }

  /** A notice of step `step` of recovery `r`: a bell notification and a mail (each once). */
  async function notice(r: RecoveryRow, step: string, n: { subject: string; bell: string; lines: string[] }) {
    const { subject, lines } = n;
    const link = "/wallet";
    await deps.notifications?.notify(
      r.user_id,
      { kind: "wallet_recovery", text: n.bell, link, source: `wallet-recovery:${r.id}:${step}` },
      { mail: false },
    );
    await deliverOnce(deps, deliveryId(r.id, step), async (db) => {
      const contact = await deps.accounts.mailContact(r.user_id, db);
      if (!contact) return null;
      return {
        to: contact.email,
        ...walletRecoveryMail(contact.name, { kind: "notice", subject, lines, url: `${base}${link}` }),
      };
    });
  }

  const cancelHint =
    "If you did not ask for this, open your wallet on any device that still has a passkey of it and cancel the recovery.";

  /** The wallet's first passkey (the one its address was made for). */
  async function firstKey(address: string): Promise<string> {
    const [old] = await q<{ public_key: string }>(
      "SELECT public_key FROM passkey_credentials WHERE address = $1 ORDER BY created_at, credential_id LIMIT 1",
      [address],
    );
    if (!old) throw new Error(`wallet recovery: no passkey recorded for ${address}`);
    return old.public_key;
  }

  /**
   * Whether `signature` is the wallet's guardian's proposal of `newKey` (decision 185), as the account will
   * judge it: by the guardian on chain and its next nonce, or, for a never-used account, by the guardian
   * its address was made with (nonce 0). Throws the refusal otherwise, before anything is sent.
   */
  async function checkGuardianSignature(
    address: string,
    guardian: Address,
    newKey: string,
    signature: Hex,
  ): Promise<void> {
    const { chain, factory } = ready();
    const code = await chain.publicClient.getCode({ address: address as Address });
    let nonce = 0n;
    if (code && code !== "0x") {
      const onChain = await readAccount<Address>(chain, address, "guardian");
      if (getAddress(onChain) !== getAddress(guardian)) throw AppError.badRequest(m.recoveryNotGuardian);
      nonce = await readAccount<bigint>(chain, address, "recoveryNonce");
    } else {
      const made = await chain.publicClient.readContract({
        address: factory,
        abi: diginoorAccountFactoryAbi,
        functionName: "accountAddress",
        args: [...halves(await firstKey(address)), guardian],
      });
      if (getAddress(made) !== getAddress(address)) throw AppError.badRequest(m.recoveryNotGuardian);
    }
    const chainId = await chain.publicClient.getChainId();
    const signer = await recoverTypedDataAddress({
      ...recoveryTypedData({ account: address as Address, chainId, publicKey: newKey as Hex, nonce }),
      signature,
    }).catch(() => undefined);
    if (!signer || getAddress(signer) !== getAddress(guardian))
      throw AppError.badRequest(m.recoveryNotGuardian);
  }

  /** Relays (or finds on chain) the guardian's signed proposal of a confirmed recovery; the row becomes `proposed`. */
  async function propose(r: RecoveryRow): Promise<RecoveryRow> {
    const { chain, relayer, factory } = ready();
    const [qx, qy] = halves(r.new_public_key!);
    let pending = await pendingOf(chain, r.address);
    if (pending.qx !== qx || pending.qy !== qy || pending.executableAt === 0) {
      const code = await chain.publicClient.getCode({ address: r.address as Address });
      if (!r.guardian || !r.guardian_signature)
        throw new Error(`wallet recovery ${r.id}: no guardian signature`);
      if (!code || code === "0x") {
        // Never used: deploy it for its (lost) passkey and its guardian first; the factory binds the
        // address to both. The first passkey's (the address is its key's): passkeys of other devices are
        // added on chain, which deploys the account, so an undeployed account has that one only.
        await relayer.send({
          chain: null,
          address: factory,
          abi: diginoorAccountFactoryAbi,
          functionName: "createAccount",
          args: [...halves(await firstKey(r.address)), r.guardian as Address],
        });
      }
      const hash = await relayer.send({
        chain: null,
        address: r.address as Address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "proposeRecoveryWithSignature",
        args: [qx, qy, r.guardian_signature as Hex],
      });
      await q("UPDATE wallet_recoveries SET proposal_tx = $2 WHERE id = $1", [r.id, hash]);
      pending = await pendingOf(chain, r.address);
    }
    const [row] = await q<RecoveryRow>(
      `UPDATE wallet_recoveries SET state = 'proposed', executable_at = $2
        WHERE id = $1 AND state = 'proposing' RETURNING *`,
      [r.id, new Date(pending.executableAt * 1000)],
    );
    if (!row) return (await q<RecoveryRow>("SELECT * FROM wallet_recoveries WHERE id = $1", [r.id]))[0]!;
    await notice(row, "proposed", {
      subject: "A recovery of your Diginoor passkey wallet has started",
      bell: `A new passkey takes over your passkey wallet on ${when(row.executable_at!)}. Not you? Cancel it with a passkey of the wallet.`,
      lines: [
        `A new passkey was proposed for your passkey wallet ${row.address} with your recovery code, after a recovery link mailed to you was confirmed.`,
        `It takes over on ${when(row.executable_at!)}, and from then on the old passkeys can no longer sign.`,
        cancelHint,
      ],
    });
    log("info", "wallet recovery proposed", { id: row.id, address: row.address });
    return row;
  }

  async function pendingOf(chain: { publicClient: PublicClient }, address: string) {
    const code = await chain.publicClient.getCode({ address: address as Address });
    if (!code || code === "0x") return { qx: "0x" as Hex, qy: "0x" as Hex, executableAt: 0 };
    const p = await readAccount<{ qx: Hex; qy: Hex; executableAt: number }>(
      chain,
      address,
      "pendingRecovery",
    );
    return { qx: p.qx, qy: p.qy, executableAt: Number(p.executableAt) };
  }

  /** One step of a live recovery: propose, remind, complete, or notice its cancellation. */
  async function follow(r: RecoveryRow): Promise<RecoveryRow["state"]> {
    const { chain, relayer } = ready();
    if (r.state === "proposing") return (await propose(r)).state;
    if (r.state !== "proposed" || !r.executable_at || !r.new_public_key) return r.state;
    const [qx, qy] = halves(r.new_public_key);
    const pending = await pendingOf(chain, r.address);
    const installed = await chain.publicClient.readContract({
      address: r.address as Address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "isPasskey",
      args: [qx, qy],
    });
    if (pending.executableAt === 0 || pending.qx !== qx || pending.qy !== qy) {
      return installed ? finish(r, "completed") : finish(r, "cancelled");
    }
    const now = await chainTime(chain);
    if (now >= pending.executableAt * 1000) {
      await relayer.send({
        chain: null,
        address: r.address as Address,
        abi: diginoorPasskeyAccountAbi,
        functionName: "completeRecovery",
        args: [],
      });
      return finish(r, "completed");
    }
    if (now >= pending.executableAt * 1000 - DAY_MS && !r.reminded_at) {
      await q("UPDATE wallet_recoveries SET reminded_at = $2 WHERE id = $1", [r.id, clock.date()]);
      await notice(r, "reminder", {
        subject: "Your passkey wallet's recovery completes in a day",
        bell: `Your passkey wallet's recovery completes on ${when(r.executable_at)}. Not you? Cancel it now with a passkey of the wallet.`,
        lines: [
          `The new passkey proposed for your passkey wallet ${r.address} takes over on ${when(r.executable_at)}.`,
          cancelHint,
        ],
      });
    }
    return r.state;
  }

  /** Ends a recovery: on completion the wallet's passkey record becomes the new passkey's. */
  async function finish(r: RecoveryRow, state: "completed" | "cancelled"): Promise<RecoveryRow["state"]> {
    const done = await withTransaction(database, async (tx) => {
      const [row] = await tx.query<RecoveryRow & Record<string, unknown>>(
        `UPDATE wallet_recoveries SET state = $2, finished_at = $3 WHERE id = $1 AND state = 'proposed' RETURNING *`,
        [r.id, state, clock.date()],
      );
      if (row && state === "completed") {
        // The account now answers to the new passkey only (completeRecovery removed every other one).
        await tx.query("DELETE FROM passkey_credentials WHERE address = $1", [r.address]);
        await tx.query(
          `INSERT INTO passkey_credentials (credential_id, address, user_id, public_key, created_at)
            VALUES ($2, $1, $3, $4, $5)
            ON CONFLICT (credential_id) DO UPDATE SET address = EXCLUDED.address, public_key = EXCLUDED.public_key`,
          [r.address, r.new_credential_id, r.user_id, r.new_public_key, clock.date()],
        );
      }
      return row;
    });
    if (!done) return r.state;
    if (state === "completed")
      await notice(r, "completed", {
        subject: "Your passkey wallet was recovered",
        bell: "Your passkey wallet was recovered: it now answers to your new passkey.",
        lines: [
          `Your passkey wallet ${r.address} now answers to the new passkey; the old passkeys can no longer sign for it.`,
        ],
      });
    else
      await notice(r, "cancelled", {
        subject: "The recovery of your passkey wallet was cancelled",
        bell: "A passkey of your wallet cancelled its recovery: the proposed passkey will not take over.",
        lines: [
          `A passkey of your wallet ${r.address} cancelled its recovery: the proposed new passkey will not take over.`,
        ],
      });
    log("info", `wallet recovery ${state}`, { id: r.id, address: r.address });
    return state;
  }

  return {
    /** Mails a recovery link for one of the fan's passkey wallets (any older unused link is revoked). */
    async start(userId: string, rawAddress: string): Promise<{ id: string; sentTo: string }> {
      ready();
      const address = getAddress(rawAddress.toLowerCase());
      const [wallet] = await q<{ kind: string }>(
        "SELECT kind FROM wallets WHERE address = $1 AND user_id = $2",
        [address, userId],
      );
      if (!wallet) throw new AppError("not_found", m.notLinked);
      if (wallet.kind !== "passkey") throw AppError.badRequest(m.recoveryNotPasskey);
      const live = await q(
        "SELECT 1 FROM wallet_recoveries WHERE address = $1 AND state IN ('proposing', 'proposed')",
        [address],
      );
      if (live.length > 0) throw AppError.conflict(m.recoveryPending);
      const contact = await deps.accounts.mailContact(userId);
      if (!contact) throw new AppError("not_found", m.notLinked);
      const token = randomBytes(32).toString("base64url");
      const now = clock.date();
      const id = await withTransaction(database, async (tx) => {
        await tx.query(
          "UPDATE wallet_recoveries SET state = 'expired', finished_at = $2 WHERE address = $1 AND state = 'requested'",
          [address, now],
        );
        const [row] = await tx.query<{ id: string }>(
          `INSERT INTO wallet_recoveries (user_id, address, token_hash, state, requested_at, link_expires_at)
            VALUES ($1, $2, $3, 'requested', $4, $5) RETURNING id`,
          [userId, address, hashOf(token), now, new Date(now.getTime() + RECOVERY_LINK_TTL_SECONDS * 1000)],
        );
        return row!.id;
      });
      await deliverOnce(deps, deliveryId(id, "link"), async () => ({
        to: contact.email,
        ...walletRecoveryMail(contact.name, { kind: "link", url: `${base}/wallet/recover/${token}` }),
      }));
      return { id, sentTo: contact.email };
    },

    /**
     * From the mailed link, signed in as the same fan, with the new passkey's proof and the guardian's
     * signature of it (the fan's recovery code, in their browser): the recovery is confirmed and the
     * signed proposal relayed (a failure there leaves it `proposing` for the job). At most
     * `relaysPerMonth` per wallet and calendar month: each costs us a proposal and a completion.
     */
    async confirm(userId: string, body: ConfirmWalletRecoveryRequest): Promise<WalletRecovery> {
      ready();
      const now = clock.date();
      const publicKey = await deps.wallets.provePasskey(userId, body, now);
      const [link] = await q<{ address: string; user_id: string }>(
        "SELECT address, user_id FROM wallet_recoveries WHERE token_hash = $1",
        [hashOf(body.token)],
      );
      if (!link || link.user_id !== userId) throw AppError.badRequest(m.recoveryBadLink);
      await checkGuardianSignature(
        link.address,
        body.guardian as Address,
        publicKey,
        body.guardianSignature as Hex,
      );
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const confirmed = await withTransaction(database, async (tx) => {
        const [r] = await tx.query<RecoveryRow & Record<string, unknown>>(
          "SELECT * FROM wallet_recoveries WHERE token_hash = $1 FOR UPDATE",
          [hashOf(body.token)],
        );
        if (!r || r.user_id !== userId || r.state !== "requested" || r.link_expires_at <= now)
          throw AppError.badRequest(m.recoveryBadLink);
        if (!(await repo.consumeNonce(tx.db, body.nonce, userId, now)))
          throw AppError.badRequest(m.usedNonce);
        if (await repo.findPasskeyCredential(tx.db, body.credentialId))
          throw AppError.conflict(m.linkedElsewhere);
        const [relayed] = await tx.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM wallet_recoveries WHERE address = $1 AND confirmed_at >= $2",
          [r.address, month],
        );
        if ((relayed?.n ?? 0) >= (deps.relaysPerMonth ?? 3)) throw AppError.conflict(m.recoveryMonthlyLimit);
        try {
          const [row] = await tx.query<RecoveryRow & Record<string, unknown>>(
            `UPDATE wallet_recoveries SET state = 'proposing', new_credential_id = $2, new_public_key = $3, confirmed_at = $4,
                guardian = $5, guardian_signature = $6
              WHERE id = $1 RETURNING *`,
            [
              r.id,
              body.credentialId,
              publicKey,
              now,
              getAddress(body.guardian),
              body.guardianSignature.toLowerCase(),
            ],
          );
          return row!;
        } catch (err) {
          if ((err as { code?: string }).code === "23505") throw AppError.conflict(m.recoveryPending);
          throw err;
        }
      });
      try {
        return toApi(await propose(confirmed));
      } catch (err) {
        log("warn", "wallet recovery: the proposal failed; the job retries", {
          id: confirmed.id,
          err: String(err),
        });
        return toApi(confirmed);
      }
    },

    async list(userId: string): Promise<WalletRecovery[]> {
      const rows = await q<RecoveryRow>(
        "SELECT * FROM wallet_recoveries WHERE user_id = $1 ORDER BY requested_at DESC LIMIT 20",
        [userId],
      );
      return rows.map(toApi);
    },

    /** The job's tick: every live recovery one step on; unused links expire. Returns the states reached. */
    async followAll(): Promise<Record<string, number>> {
      if (!deps.chain?.accountFactory || !deps.relayer) return {};
      await q(
        "UPDATE wallet_recoveries SET state = 'expired', finished_at = $1 WHERE state = 'requested' AND link_expires_at <= $1",
        [clock.date()],
      );
      const live = await q<RecoveryRow>(
        "SELECT * FROM wallet_recoveries WHERE state IN ('proposing', 'proposed') ORDER BY requested_at",
      );
      const counts: Record<string, number> = {};
      for (const r of live) {
        try {
          const s = await follow(r);
          counts[s] = (counts[s] ?? 0) + 1;
        } catch (err) {
          log("warn", "wallet recovery: a step failed; retried on the next tick", {
            id: r.id,
            err: String(err),
          });
          counts.failed = (counts.failed ?? 0) + 1;
        }
      }
      return counts;
    },
  };
}

export type WalletRecoveryService = ReturnType<typeof createWalletRecovery>;
