import {
  RECOVERY_DELAY_SECONDS,
  type Wallet,
  type WalletRecovery,
  walletMessages as m,
} from "@diginoor/api/wallets";
import { diginoorPasskeyAccountAbi } from "@diginoor/contracts/generated/diginoorPasskeyAccount";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  newRecoveryCode,
  normalizeRecoveryCode,
  recoveryCodeGuardian,
  signRecoveryWithCode,
} from "@diginoor/contracts/recovery-code";
import { type Address, encodeFunctionData, zeroAddress } from "viem";
import { chainReader } from "../../lib/wallet/viem-chain.ts";
import { createProvenPasskey, passkeysSupported, sendFromPasskeyWallet } from "../../lib/wallet/passkey.ts";
import { Button, ButtonLink } from "../../ui/Button.tsx";
import { failure } from "./failure.ts";
import { type ChainInfo, useChainInfo, walletApi, walletsQueryKey } from "./api.ts";
import { registeredPublicKey } from "./passkey-calls.ts";

export const recoveriesKey = ["wallets", "recoveries"] as const;

/** "Thursday, 3 December 2026 at 3:04 pm": when a recovery takes over, in the viewer's time zone. */
export const takeoverTime = (iso: string) =>
  new Date(iso).toLocaleString("en-IN", { dateStyle: "full", timeStyle: "short" });

/**
 * The wallet page's part of recovery (decision 160) for one passkey wallet: start it when every device is
 * lost (a link is mailed), and while one runs, when the new passkey takes over, the notices the fan gets,
 * and "Cancel the recovery" for a device that still has a passkey of the wallet.
 */
export function WalletRecoveryCard({ info, wallet }: { info: ChainInfo; wallet: Wallet }) {
  const queryClient = useQueryClient();
  const recoveries = useQuery({ queryKey: recoveriesKey, queryFn: () => walletApi.recoveries() });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const mine = (recoveries.data?.items ?? []).filter((r) => r.address === wallet.address);
  const live = mine.find((r) => r.state === "proposing" || r.state === "proposed");
  const lastDone = mine.find((r) => r.state === "completed" || r.state === "cancelled");

  async function start() {
    setBusy(true);
    setError(null);
    try {
      setSentTo((await walletApi.startRecovery(wallet.address)).sentTo);
      await queryClient.invalidateQueries({ queryKey: recoveriesKey });
    } catch (err) {
      setError(failure(err, "Something Went Wrong"));
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      await sendFromPasskeyWallet(info as ChainInfo & { chainId: number }, wallet, [
        {
          to: wallet.address as Address,
          data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName: "cancelRecovery" }),
        },
      ]);
      setCancelled(true);
    } catch (err) {
      setError(
        failure(err, "This device's passkey did not sign (cancelled, or it is not a passkey of this wallet)"),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="wallet-card" aria-labelledby="recovery-title" data-testid="wallet-recovery">
      <h2 id="recovery-title">Recovery</h2>
      <RecoveryCodeSetup info={info} wallet={wallet} />
      {live && !cancelled ? (
        <div className="wallet-notice wallet-notice--warning" role="status" data-testid="recovery-live">
          <strong>
            {live.executableAt
              ? m.recoveryStarted(takeoverTime(live.executableAt))
              : "Recovery starting: the new passkey is being proposed on chain."}
          </strong>
          <p>
            We mailed you when it started, and we mail you and ring the bell again a day before it completes.
            Did not ask for it? Cancel it from any device that still has a passkey of this wallet.
          </p>
          <Button variant="danger" loading={busy} onClick={cancel}>
            Cancel the recovery
          </Button>
        </div>
      ) : cancelled ? (
        <div className="wallet-notice" role="status" data-testid="recovery-cancelled">
          <strong>You cancelled the recovery: the proposed passkey will never sign for this wallet.</strong>
          <p>We will confirm it by mail in a minute or two.</p>
        </div>
      ) : sentTo ? (
        <div className="wallet-notice" role="status" data-testid="recovery-mailed">
          <strong>{m.recoveryMailed(sentTo)}</strong>
        </div>
      ) : (
        <>
          {lastDone ? (
            <p className="wallet-muted">
              {lastDone.state === "completed"
                ? "Your last recovery completed: the wallet answers to the passkey you recovered it with."
                : "Your last recovery was cancelled by a passkey of the wallet."}
            </p>
          ) : null}
          <p>
            Lost every phone and computer with a passkey of this wallet? Recover it with a new passkey: we
            mail you a link, you open it on your new device and make the passkey there. It takes over{" "}
            {RECOVERY_DELAY_SECONDS / 86_400} days later, time in which any passkey of the wallet can cancel
            it.
          </p>
          <Button variant="secondary" loading={busy} onClick={start}>
            Recover this wallet
          </Button>
        </>
      )}
      {error ? (
        <p className="wallet-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The wallet's recovery code (decision 185): twelve words made in this browser and shown once; the
 * wallet's guardian becomes their key's address (`setGuardian`, a sponsored user operation of this
 * device's passkey). The words never leave this device; a new code replaces the old one and cancels any
 * recovery under way.
 */
function RecoveryCodeSetup({ info, wallet }: { info: ChainInfo; wallet: Wallet }) {
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const guardianKey = ["wallets", "guardian", wallet.address] as const;
  const guardian = useQuery({
    queryKey: guardianKey,
    enabled: !!info.chainId,
    queryFn: async () => {
      const reader = chainReader({ ...info, chainId: info.chainId as number });
      const address = wallet.address as Address;
      const code = await reader.getCode({ address });
      if (!code || code === "0x") return (wallet.guardian ?? zeroAddress) as Address;
      return reader.readContract({ address, abi: diginoorPasskeyAccountAbi, functionName: "guardian" });
    },
  });

  async function make() {
    setBusy(true);
    setError(null);
    try {
      const code = newRecoveryCode();
      await sendFromPasskeyWallet(info as ChainInfo & { chainId: number }, wallet, [
        {
          to: wallet.address as Address,
          data: encodeFunctionData({
            abi: diginoorPasskeyAccountAbi,
            functionName: "setGuardian",
            args: [recoveryCodeGuardian(code) as Address],
          }),
        },
      ]);
      setShown(code);
      await queryClient.invalidateQueries({ queryKey: guardianKey });
    } catch (err) {
      setError(
        failure(err, "This device's passkey did not sign (cancelled, or it is not a passkey of this wallet)"),
      );
    } finally {
      setBusy(false);
    }
  }

  if (shown) {
    return (
      <div className="wallet-notice wallet-notice--warning" role="status" data-testid="recovery-code-shown">
        <strong>Your recovery code</strong>
        <p className="wallet-address" data-testid="recovery-code-words">
          {shown}
        </p>
        <p>
          Write these twelve words down and keep them where only you can find them. They are shown this once
          and we never see them. With them you recover this wallet on a new device if every passkey of it is
          lost.
        </p>
        <Button variant="secondary" onClick={() => setShown(null)}>
          I have written them down
        </Button>
      </div>
    );
  }
  const has = guardian.data && guardian.data !== zeroAddress;
  return (
    <div data-testid="recovery-code-setup">
      <p>
        {has
          ? "This wallet has a recovery code (or a guardian you named). A new code replaces it and cancels any recovery under way."
          : "This wallet has no recovery code: if you lose every device with a passkey of it, the wallet is lost."}
      </p>
      <Button variant={has ? "secondary" : "primary"} loading={busy} onClick={make}>
        {has ? "Make a new recovery code" : "Make my recovery code"}
      </Button>
      {error ? (
        <p className="wallet-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * /wallet/recover/:token, opened from the mailed link on the device that will hold the new passkey: the
 * fan types their recovery code and makes the passkey here; the code's key (the wallet's guardian, derived
 * in this browser: the code never leaves it) signs the proposal, our relayer sends it on chain (decision
 * 185), and the page says when it takes over.
 */
export function ConfirmRecovery({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const chain = useChainInfo();
  const recoveries = useQuery({ queryKey: recoveriesKey, queryFn: () => walletApi.recoveries() });
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<WalletRecovery | null>(null);
  // The wallet of the link: the fan's newest recovery still waiting for its confirmation.
  const asked = (recoveries.data?.items ?? []).find((r) => r.state === "requested");

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const normal = normalizeRecoveryCode(code);
      const info = chain.data;
      if (!normal)
        throw new Error("A recovery code is twelve words from the list you were shown: check them");
      if (!asked || !info?.chainId) throw new Error("This recovery link is not waiting for a confirmation");
      const account = asked.address as Address;
      const reader = chainReader({ ...info, chainId: info.chainId });
      const deployed = await reader.getCode({ address: account });
      const nonce = deployed
        ? await reader.readContract({
            address: account,
            abi: diginoorPasskeyAccountAbi,
            functionName: "recoveryNonce",
          })
        : 0n;
      const proof = await createProvenPasskey("recovered");
      const guardianSignature = await signRecoveryWithCode({
        code: normal,
        account,
        chainId: info.chainId,
        newPublicKey: registeredPublicKey(proof.registration),
        nonce,
      });
      setDone(
        await walletApi.confirmRecovery(token, proof, {
          guardian: recoveryCodeGuardian(normal)!,
          guardianSignature,
        }),
      );
      await queryClient.invalidateQueries({ queryKey: walletsQueryKey });
      await queryClient.invalidateQueries({ queryKey: recoveriesKey });
    } catch (err) {
      setError(
        failure(err, "The passkey was not created (cancelled or not allowed on this device); try again"),
      );
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <section className="wallet-card" data-testid="recovery-confirmed">
        <h2>Recovery started</h2>
        <p className="wallet-address">{done.address}</p>
        <div className="wallet-notice" role="status">
          <strong>
            {done.executableAt
              ? m.recoveryStarted(takeoverTime(done.executableAt))
              : "Your new passkey is being proposed on chain."}
          </strong>
          <p>
            Until then your wallet keeps its old passkeys. We have mailed you, and we write again a day before
            it completes and when it is done. Nothing more to do on this device: come back after that date.
          </p>
        </div>
        <ButtonLink to="/wallet" variant="secondary">
          Back to Wallet
        </ButtonLink>
      </section>
    );
  }
  return (
    <section className="wallet-card" data-testid="recovery-confirm">
      <h2>Recover your passkey wallet</h2>
      <p>
        Type the twelve words of your recovery code, then make a new passkey on this phone or computer
        (fingerprint, face or screen lock). The code stays on this device: we never see it. The new passkey
        becomes your wallet's after {RECOVERY_DELAY_SECONDS / 86_400} days, unless a passkey of the wallet
        cancels the recovery before.
      </p>
      <label className="wallet-field">
        <span>Recovery code</span>
        <textarea
          data-testid="recovery-code"
          rows={3}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </label>
      {passkeysSupported() ? (
        <Button loading={busy} onClick={confirm}>
          Make my new passkey
        </Button>
      ) : (
        <p className="wallet-error">
          This browser cannot make passkeys: open the link on your new phone or computer.
        </p>
      )}
      {error ? (
        <p className="wallet-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
