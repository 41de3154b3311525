import { type Chain, defineChain } from "viem";
import { polygon, polygonAmoy } from "viem/chains";
import { createConfig, http, injected } from "wagmi";
import { walletConnect } from "wagmi/connectors";
import type { ChainInfo } from "./chain.ts";

/** The viem chain of the configured chain id (Polygon's own definitions when it is Polygon). */
export function chainOf(info: ChainInfo & { chainId: number }): Chain {
  if (info.chainId === polygon.id) return polygon;
  if (info.chainId === polygonAmoy.id) return polygonAmoy;
  const symbol = info.nativeSymbol ?? "ETH";
  return defineChain({
    id: info.chainId,
    name: info.chainName ?? `Chain ${info.chainId}`,
    nativeCurrency: { name: symbol, symbol, decimals: 18 },
    rpcUrls: { default: { http: info.rpcUrl ? [info.rpcUrl] : [] } },
  });
}

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
