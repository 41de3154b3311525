import { useEffect } from "react";
import { useParams } from "react-router";
import { ConfirmRecovery } from "../../features/wallet/Recovery.tsx";
import { WalletSkeleton } from "../../features/wallet/Wallet.tsx";
import { RequireAccount } from "../../lib/account.tsx";

/**
 * /wallet/recover/:token: the mailed link of a passkey wallet's recovery, opened on the device that will
 * hold the new passkey; the fan signs in first (the link must be their own).
 */
export function Component() {
  const { token = "" } = useParams();
  useEffect(() => {
    document.title = "Recover your wallet · Diginoor";
  }, []);
  return (
    <div className="wallet-page">
      <div className="wallet-shell wallet-shell--narrow">
        <header className="wallet-intro">
          <h1>Recover your wallet</h1>
        </header>
        <RequireAccount what="your wallet's recovery" loading={<WalletSkeleton />}>
          {() => <ConfirmRecovery token={token} />}
        </RequireAccount>
      </div>
    </div>
  );
}
