import { type PasskeyRequest, type Wallet, walletMessages as m } from "@diginoor/api/wallets";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { createProvenPasskey, passkeysSupported, sendFromPasskeyWallet } from "../../lib/wallet/passkey.ts";
import { Button } from "../../ui/Button.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { failure } from "./failure.ts";
import { type ChainInfo, walletApi, walletsQueryKey } from "./api.ts";
import { PasskeyList } from "./PasskeyList.tsx";
import { codeOf, passkeyCall } from "./passkey-calls.ts";

const requestsKey = (address: string) => ["wallets", address, "passkey-requests"] as const;

/**
 * "Add a passkey on another device" (decision 171). On the new device (signed in to the same account) the
 * fan makes a passkey; the server keeps the request. On a device whose passkey the wallet already has the
 * fan compares the 6-digit code and approves: that passkey signs the account's `addPasskey` (gas paid by
 * Diginoor), and only then the server records the new passkey. The server cannot add one by itself.
 */
export function PasskeyDevices({ info, wallet }: { info: ChainInfo; wallet: Wallet }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<PasskeyRequest | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const requests = useQuery({
    queryKey: requestsKey(wallet.address),
    queryFn: () => walletApi.passkeyRequests(wallet.address),
    // The new device waits for the other's answer (a few minutes at most); the approving device reads the
    // requests when the page opens or regains focus.
    refetchInterval: (q) => {
      const state = q.state.data?.items.find((r) => r.id === asked?.id)?.state ?? asked?.state;
      return state === "pending" ? 2500 : false;
    },
  });
  const items = requests.data?.items ?? [];
  const mine = asked ? (items.find((r) => r.id === asked.id) ?? asked) : null;
  const mineAdded = mine?.state === "added";
  useEffect(() => {
    // Approved on the other device: this device's wallet list now names its passkey.
    if (mineAdded) void queryClient.invalidateQueries({ queryKey: walletsQueryKey });
  }, [mineAdded, queryClient]);
  const pending = items.filter((r) => r.state === "pending" && r.id !== asked?.id);

  async function refresh() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: walletsQueryKey }),
      queryClient.invalidateQueries({ queryKey: requestsKey(wallet.address) }),
    ]);
  }

  async function askHere() {
    setBusy("ask");
    setError(null);
    try {
      const proof = await createProvenPasskey("another device");
      setAsked(await walletApi.requestPasskey(wallet.address, proof));
      await refresh();
    } catch (err) {
      setError(
        failure(err, "The passkey was not created (cancelled or not allowed on this device); try again"),
      );
    } finally {
      setBusy(null);
    }
  }

  async function approve(r: PasskeyRequest) {
    setBusy(r.id);
    setError(null);
    try {
      await sendFromPasskeyWallet(info as ChainInfo & { chainId: number }, wallet, [
        passkeyCall("addPasskey", wallet.address, r.publicKey),
      ]);
      await walletApi.passkeyAdded(wallet.address, r.id);
      toast.success(m.passkeyAdded);
      await refresh();
    } catch (err) {
      setError(
        failure(err, "This device's passkey did not sign (cancelled, or it is not a passkey of this wallet)"),
      );
    } finally {
      setBusy(null);
    }
  }

  async function decline(r: PasskeyRequest) {
    setBusy(r.id);
    setError(null);
    try {
      await walletApi.declinePasskey(wallet.address, r.id);
      await refresh();
    } catch (err) {
      setError(failure(err, "Something Went Wrong"));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="wallet-card" aria-labelledby="devices-title" data-testid="passkey-devices">
      <h2 id="devices-title">Passkeys of this wallet</h2>
      <PasskeyList info={info} wallet={wallet} busy={busy !== null} onRemoved={refresh} />

      {mine ? (
        <div className="wallet-notice" role="status" data-testid="passkey-asked">
          {mine.state === "pending" ? (
            <>
              <strong>Waiting for your other device</strong>
              <p>
                On a phone or computer that already signs for this wallet, open Wallet and approve the new
                passkey. Check that it shows the same code:
              </p>
              <p className="wallet-code" data-testid="pairing-code">
                {codeOf(mine.publicKey)}
              </p>
            </>
          ) : mine.state === "added" ? (
            <strong>This device's passkey now signs for your wallet.</strong>
          ) : (
            <strong>
              {mine.state === "declined" ? "The request was declined." : "The request expired."} You can ask
              again.
            </strong>
          )}
        </div>
      ) : pending.length > 0 ? null : (
        <div className="wallet-add-device">
          <p>
            Lost phones happen: add a passkey on your other phone or computer. Sign in there, open Wallet and
            choose <em>Add a passkey on this device</em>; then approve it here.
          </p>
          {passkeysSupported() ? (
            <Button variant="secondary" loading={busy === "ask"} disabled={busy !== null} onClick={askHere}>
              Add a passkey on this device
            </Button>
          ) : null}
        </div>
      )}

      {pending.length > 0 ? (
        <div className="wallet-requests">
          {pending.map((r) => (
            <div key={r.id} className="wallet-notice wallet-notice--warning" data-testid="passkey-request">
              <strong>Another device asks to sign for this wallet</strong>
              <p>Approve only if you asked for it just now, on your own device, and it shows this code:</p>
              <p className="wallet-code">{codeOf(r.publicKey)}</p>
              <div className="wallet-actions">
                <Button loading={busy === r.id} disabled={busy !== null} onClick={() => approve(r)}>
                  Approve with this device's passkey
                </Button>
                <Button variant="ghost" disabled={busy !== null} onClick={() => decline(r)}>
                  Decline
                </Button>
              </div>
            </div>
          ))}
        </div>
      ) : null}
      {error ? (
        <p className="wallet-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
