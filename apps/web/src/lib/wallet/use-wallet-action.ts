import { walletMessages as m, chainNameOf, shortAddress, wrongChainMessage } from "@diginoor/api/wallets";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import type { Address } from "viem";
import { useConfig } from "wagmi";
import { connect, getConnection, getConnectors, switchChain } from "wagmi/actions";
import type { ReadyChain } from "./chain.ts";
import { fetchLinkedWallets, walletsQueryKey } from "./chain.ts";
import { WalletStepError } from "./errors.ts";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Before any action that needs a wallet: a linked wallet (else to /wallet with the spec's message,
 * coming back here after), a connected browser wallet (EIP-6963 announced ones first, then a plain
 * window.ethereum), the connected account linked to this user (the receiving one when `receiving`),
 * and the configured chain (offering to switch; the spec's message when the wallet will not).
 * Resolves with the connected address.
 */
export function useEnsureWallet(chain: ReadyChain) {
  const config = useConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  return useCallback(
    async (action: "pay" | "bid", opts: { receiving?: boolean } = {}): Promise<Address> => {
      const wallets = await queryClient.fetchQuery({
        queryKey: walletsQueryKey,
        queryFn: fetchLinkedWallets,
        staleTime: 10_000,
      });
      if (wallets.items.length === 0) {
        const next = encodeURIComponent(location.pathname + location.search);
        navigate(`/wallet?next=${next}`, { state: { reason: m.walletRequired } });
        throw new WalletStepError(m.walletRequired, true);
      }
      const receiving = wallets.items.find((w) => w.receivesPurchases) ?? wallets.items[0]!;
      // A passkey wallet signs no payment in the chain's coin (the paymaster pays gas, not prices): a
      // purchase it would receive is paid by card, and crypto needs a wallet app (decision 160).
      if (opts.receiving && receiving.kind === "passkey")
        throw new WalletStepError(m.passkeyReceivesPurchases);
      let connection = getConnection(config);
      if (connection.status !== "connected") {
        const connectors = getConnectors(config);
        const announced = connectors.filter((c) => c.type === "injected" && c.id !== "injected");
        const plain = connectors.find((c) => c.id === "injected");
        const hasWindowEthereum = typeof window !== "undefined" && "ethereum" in window && !!window.ethereum;
        const connector = announced[0] ?? (hasWindowEthereum ? plain : undefined);
        if (!connector) {
          const onlyPasskeys = wallets.items.every((w) => w.kind === "passkey");
          throw new WalletStepError(onlyPasskeys ? m.cryptoNeedsWalletApp : m.noBrowserWallet);
        }
        await connect(config, { connector, chainId: chain.chainId });
        connection = getConnection(config);
      }
      const address = connection.address;
      if (!address) throw new WalletStepError(m.walletRequired);
      if (opts.receiving && !same(address, receiving.address)) {
        throw new WalletStepError(
          `Switch your browser wallet to ${shortAddress(receiving.address)}, the wallet that receives your purchases`,
        );
      }
      if (!wallets.items.some((w) => same(w.address, address))) {
        throw new WalletStepError(
          `The connected wallet ${shortAddress(address)} is not linked to your account: link it on the Wallet page first`,
        );
      }
      if (connection.chainId !== chain.chainId) {
        try {
          await switchChain(config, { chainId: chain.chainId });
        } catch {
          throw new WalletStepError(wrongChainMessage(action, chain.chainId, chainNameOf(chain.chainId)));
        }
      }
      return address;
    },
    [config, chain.chainId, navigate, location.pathname, location.search, queryClient],
  );
}
