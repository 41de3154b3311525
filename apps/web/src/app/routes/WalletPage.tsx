import { useEffect } from "react";
import { useChainInfo } from "../../features/wallet/api.ts";
import { WalletIntro, Wallets, WalletSkeleton } from "../../features/wallet/Wallet.tsx";
import { RequireAccount } from "../../lib/account.tsx";

/**
 * /wallet: connect and link a wallet; visitors sign in first. wagmi and viem load with this route's
 * chunk, never in the first load.
 */
export function Component() {
  // Asked for at once, alongside the session.
  const chain = useChainInfo();

  useEffect(() => {
    document.title = "Wallet · Diginoor";
  }, []);

  return (
    <div className="wallet-page">
      <div className="wallet-shell">
        <WalletIntro />
        <RequireAccount what="your wallets" loading={<WalletSkeleton />}>
          {() => <Wallets chain={chain} />}
        </RequireAccount>
      </div>
    </div>
  );
}
