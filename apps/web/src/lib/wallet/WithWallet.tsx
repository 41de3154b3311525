import type { ReactNode } from "react";
import { WagmiProvider } from "wagmi";
import { type ReadyChain, readyChain, useChainInfo } from "./chain.ts";
import { createWalletConfig } from "./wagmi.ts";

// One wagmi config per chain for the page's lifetime: every wallet-using part of a page shares its
// connection state, and moving between such pages keeps the wallet connected.
const configs = new Map<number, ReturnType<typeof createWalletConfig>>();
function configFor(chain: ReadyChain) {
  let config = configs.get(chain.chainId);
  if (!config) {
    config = createWalletConfig(chain);
    configs.set(chain.chainId, config);
  }
  return config;
}

/**
 * Gives its children wagmi (and so a browser wallet) on the configured chain. This module and wagmi
 * load only with the parts of pages that need a wallet (lazy chunks), never with the home page.
 */
export function WithWallet({
  children,
  loading,
  unavailable,
}: {
  children: (chain: ReadyChain) => ReactNode;
  loading: ReactNode;
  unavailable: ReactNode;
}) {
  const info = useChainInfo();
  if (info.isPending) return <>{loading}</>;
  const chain = readyChain(info.data);
  if (!chain) return <>{unavailable}</>;
  return <WagmiProvider config={configFor(chain)}>{children(chain)}</WagmiProvider>;
}
