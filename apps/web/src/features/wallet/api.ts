import type { NonceResponse, Wallet } from "@diginoor/api/wallets";
import { apiFetch } from "../../lib/api.ts";

export {
  type ChainInfo,
  useChainInfo,
  useLinkedWallets,
  useRates,
  walletsQueryKey,
} from "../../lib/wallet/chain.ts";

export const walletApi = {
  nonce: () => apiFetch<NonceResponse>("/api/v1/wallets/nonce", { method: "POST", body: {} }),
  link: (message: string, signature: string) =>
    apiFetch<Wallet>("/api/v1/wallets", { method: "POST", body: { message, signature } }),
  makeReceiving: (address: string) =>
    apiFetch<Wallet>(`/api/v1/wallets/${address}`, { method: "PATCH", body: { receivesPurchases: true } }),
  unlink: (address: string) => apiFetch<undefined>(`/api/v1/wallets/${address}`, { method: "DELETE" }),
};
