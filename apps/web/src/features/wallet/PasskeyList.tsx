import { type Wallet, walletMessages as m } from "@diginoor/api/wallets";
import { useRef, useState } from "react";
import { passkeysOfThisDevice, sendFromPasskeyWallet } from "../../lib/wallet/passkey.ts";
import { Button } from "../../ui/Button.tsx";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { type ChainInfo, walletApi } from "./api.ts";
import { failure } from "./failure.ts";
import { codeOf, passkeyCall } from "./passkey-calls.ts";

type Passkey = Wallet["passkeys"][number];

const labelOf = (i: number) => (i === 0 ? "First passkey" : `Passkey ${i + 1}`);

/**
 * The wallet's passkeys (label, pairing code, when added, "this device" when this browser made or signed
 * with it) and "Remove" for a lost device's: after a Yes, this device's passkey signs the account's
 * `removePasskey` (gas paid by Diginoor, through the bundler), then the server forgets the passkey once the
 * chain no longer has it. The wallet's only passkey has no Remove: the contract keeps at least one.
 */
export function PasskeyList({
  info,
  wallet,
  busy,
  onRemoved,
}: {
  info: ChainInfo;
  wallet: Wallet;
  busy: boolean;
  onRemoved: () => Promise<unknown>;
}) {
  const toast = useToast();
  const [asking, setAsking] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<{ credentialId: string; message: string } | null>(null);
  // Removed on chain but not yet recorded (the server call failed): a retry only tells the server.
  const removedOnChain = useRef(new Set<string>());
  const here = passkeysOfThisDevice();
  const only = wallet.passkeys.length <= 1;
  const askingLabel = asking ? labelOf(wallet.passkeys.indexOf(asking)) : "";

  async function remove(p: Passkey) {
    setRemoving(p.credentialId);
    setError(null);
    try {
      if (!removedOnChain.current.has(p.credentialId)) {
        await sendFromPasskeyWallet(info as ChainInfo & { chainId: number }, wallet, [
          passkeyCall("removePasskey", wallet.address, p.publicKey),
        ]);
        removedOnChain.current.add(p.credentialId);
      }
      await walletApi.passkeyRemoved(wallet.address, p.credentialId);
      toast.success(m.passkeyRemoved);
      await onRemoved();
    } catch (err) {
      setError({
        credentialId: p.credentialId,
        message: failure(
          err,
          "This device's passkey did not sign (cancelled, or it is not a passkey of this wallet): the passkey was not removed",
        ),
      });
    } finally {
      setRemoving(null);
    }
  }

  return (
    <>
      <ul className="wallet-list" aria-label="Passkeys">
        {wallet.passkeys.map((p, i) => (
          <li key={p.credentialId} className="wallet-row" data-testid="passkey-row">
            <span className="wallet-tags">
              <strong>{labelOf(i)}</strong>
              {here.includes(p.credentialId) ? (
                <span className="wallet-badge wallet-badge--quiet">This device</span>
              ) : null}
              <span className="wallet-muted">code {codeOf(p.publicKey)}</span>
            </span>
            <span className="wallet-muted">added {new Date(p.addedAt).toLocaleDateString("en-IN")}</span>
            {only ? null : (
              <span className="wallet-row-actions">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove ${labelOf(i)}`}
                  loading={removing === p.credentialId}
                  disabled={busy || removing !== null}
                  onClick={() => setAsking(p)}
                >
                  Remove
                </Button>
              </span>
            )}
            {error?.credentialId === p.credentialId ? (
              <p className="wallet-error" role="alert">
                {error.message}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      {only && wallet.passkeys.length === 1 ? (
        <p className="wallet-muted" data-testid="only-passkey">
          {m.passkeyOnlyOne}
        </p>
      ) : null}
      <Dialog open={asking !== null} onClose={() => setAsking(null)} title="Remove a passkey">
        {asking ? (
          <>
            <p>
              Remove <strong>{askingLabel}</strong> (code {codeOf(asking.publicKey)}, added{" "}
              {new Date(asking.addedAt).toLocaleDateString("en-IN")}) from your wallet? The device holding it
              will no longer sign for this wallet. This device's passkey signs the change.
            </p>
            {here.includes(asking.credentialId) ? (
              <p className="wallet-error">
                This is this device's own passkey: after removing it, this device can no longer use the
                wallet.
              </p>
            ) : null}
            <div className="wallet-actions">
              <Button
                onClick={() => {
                  const p = asking;
                  setAsking(null);
                  void remove(p);
                }}
              >
                Yes
              </Button>
              <Button variant="secondary" onClick={() => setAsking(null)}>
                No
              </Button>
            </div>
          </>
        ) : null}
      </Dialog>
    </>
  );
}
