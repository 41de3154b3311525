import { createConfig, http, injected } from "wagmi";
import { walletConnect } from "wagmi/connectors";
import type { ChainInfo } from "./chain.ts";
import { chainOf } from "./viem-chain.ts";

/**
 * wagmi for the wallet pages only (this module is in their lazy chunk, never in the home page's):
 * every EIP-6963 wallet the browser announces (wagmi's multi-injected discovery through mipd), the
 * plain `window.ethereum` as "Browser wallet", and WalletConnect when the server has a project id.
 */
export function createWalletConfig(info: ChainInfo & { chainId: number }) {
  const chain = chainOf(info);
  const projectId = info.walletConnectProjectId;
  return createConfig({
    chains: [chain],
    multiInjectedProviderDiscovery: true,
    connectors: [
      injected({ shimDisconnect: true }),
      ...(projectId ? [walletConnect({ projectId, showQrModal: true })] : []),
    ],
    transports: { [chain.id]: http(info.rpcUrl ?? undefined) },
    ssr: false,
  });
}
