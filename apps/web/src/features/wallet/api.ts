import type { walletEndpoints as api } from "@diginoor/api/wallets";
import { callApi } from "../../lib/api.ts";

export {
  type ChainInfo,
  useChainInfo,
  useLinkedWallets,
  walletsQueryKey,
} from "../../lib/wallet/chain.ts";

export const walletApi = {
  nonce: () => callApi<typeof api.createWalletNonce>("POST /api/v1/wallets/nonce", {}),
  link: (message: string, signature: string) =>
    callApi<typeof api.linkWallet>("POST /api/v1/wallets", { body: { message, signature } }),
  makeReceiving: (address: string) =>
    callApi<typeof api.updateWallet>("PATCH /api/v1/wallets/{address}", {
      params: { address },
      body: { receivesPurchases: true },
    }),
  unlink: (address: string) =>
    callApi<typeof api.unlinkWallet>("DELETE /api/v1/wallets/{address}", { params: { address } }),
};
