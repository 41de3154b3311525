import type { LinkPasskeyRequest, walletEndpoints as api } from "@diginoor/api/wallets";
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
  /** Passkeys of other devices (decision 171). */
  requestPasskey: (address: string, body: LinkPasskeyRequest) =>
    callApi<typeof api.requestWalletPasskey>("POST /api/v1/wallets/{address}/passkey-requests", {
      params: { address },
      body,
    }),
  passkeyRequests: (address: string) =>
    callApi<typeof api.listWalletPasskeyRequests>("GET /api/v1/wallets/{address}/passkey-requests", {
      params: { address },
    }),
  passkeyAdded: (address: string, id: string) =>
    callApi<typeof api.confirmWalletPasskey>("POST /api/v1/wallets/{address}/passkey-requests/{id}/added", {
      params: { address, id },
    }),
  passkeyRemoved: (address: string, credentialId: string) =>
    callApi<typeof api.removedWalletPasskey>(
      "POST /api/v1/wallets/{address}/passkeys/{credentialId}/removed",
      { params: { address, credentialId } },
    ),
  declinePasskey: (address: string, id: string) =>
    callApi<typeof api.declineWalletPasskey>("DELETE /api/v1/wallets/{address}/passkey-requests/{id}", {
      params: { address, id },
    }),
  /** Recovery of a passkey wallet whose every passkey is lost (decision 160). */
  startRecovery: (address: string) =>
    callApi<typeof api.startWalletRecovery>("POST /api/v1/wallets/recovery", { body: { address } }),
  /** The new passkey's proof and the guardian's signature of it (the recovery code's key, decision 185). */
  confirmRecovery: (
    token: string,
    proof: LinkPasskeyRequest,
    guardian: { guardian: string; guardianSignature: string },
  ) =>
    callApi<typeof api.confirmWalletRecovery>("POST /api/v1/wallets/recovery/confirm", {
      body: { ...proof, token, ...guardian },
    }),
  recoveries: () => callApi<typeof api.listWalletRecoveries>("GET /api/v1/wallets/recovery", {}),
};
