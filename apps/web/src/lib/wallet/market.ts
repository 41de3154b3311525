import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { voucherFromJson } from "@diginoor/contracts/voucher";
import type { WalletPayment } from "@diginoor/api/orders";
import type { Wallet } from "@diginoor/api/wallets";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { type Address, encodeFunctionData, type Hash, type Hex } from "viem";
import { useConfig } from "wagmi";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { fetchLinkedWallets, type ReadyChain, walletsQueryKey } from "./chain.ts";
import { WalletStepError } from "./errors.ts";
import { type PasskeyCall, sendFromPasskeyWallet } from "./passkey.ts";
import { useEnsureWallet } from "./use-wallet-action.ts";

export type Step = (text: string) => void;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The marketplace actions a user signs in their own wallet. Each checks the wallet first (linked,
 * connected, right chain), simulates the call so the contract's refusal is told in words before the
 * wallet opens, sends it, and waits for the receipt. `step` reports progress in the spec's words.
 * A token held by the fan's passkey wallet (decision 160) is acted on from that wallet instead: one user
 * operation signed with the passkey, gas paid by our paymaster, sent through the bundler.
 */
export function useMarketActions(chain: ReadyChain) {
  const config = useConfig();
  const ensure = useEnsureWallet(chain);
  const queryClient = useQueryClient();
  const marketplace = chain.marketplace as Address;
  const collectible = chain.collectible as Address;

  return useMemo(() => {
    /** The fan's passkey wallet that holds `tokenId` (or put it up for auction), if one does. */
    async function passkeyHolder(tokenId: bigint): Promise<Wallet | undefined> {
      if (!chain.accountFactory) return undefined;
      const wallets = await queryClient.fetchQuery({
        queryKey: walletsQueryKey,
        queryFn: fetchLinkedWallets,
        staleTime: 10_000,
      });
      const passkeys = wallets.items.filter((w) => w.kind === "passkey");
      if (passkeys.length === 0) return undefined;
      let holder = await readContract(config, {
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "ownerOf",
        args: [tokenId],
        chainId: chain.chainId,
      });
      if (same(holder, marketplace)) {
        const auction = await readContract(config, {
          address: marketplace,
          abi: diginoorMarketplaceAbi,
          functionName: "getAuction",
          args: [tokenId],
          chainId: chain.chainId,
        });
        holder = auction.seller;
      }
      return passkeys.find((w) => same(w.address, holder));
    }

    const call = (
      address: Address,
      abi: typeof diginoorMarketplaceAbi | typeof diginoorCollectibleAbi,
      functionName: string,
      args: readonly unknown[],
    ): PasskeyCall => ({
      to: address,
      // biome-ignore lint/suspicious/noExplicitAny: one helper for calls of two ABIs
      data: encodeFunctionData({ abi, functionName, args } as any),
    });

    /** The approval of the marketplace, when the passkey wallet has not given it yet (same user operation). */
    async function approvalCalls(wallet: Wallet): Promise<PasskeyCall[]> {
      const approved = await readContract(config, {
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isApprovedForAll",
        args: [wallet.address as Address, marketplace],
        chainId: chain.chainId,
      });
      return approved
        ? []
        : [call(collectible, diginoorCollectibleAbi, "setApprovalForAll", [marketplace, true])];
    }

    async function viaPasskey(wallet: Wallet, calls: PasskeyCall[], step: Step): Promise<Hash> {
      step("Confirm with your passkey (fingerprint, face or screen lock); Diginoor pays the gas");
      const hash = await sendFromPasskeyWallet(chain, wallet, calls).catch((err: unknown) => {
        const message =
          err instanceof Error
            ? ((err as { shortMessage?: string }).shortMessage ?? err.message)
            : String(err);
        throw new WalletStepError(message);
      });
      step("Transaction submitted to the blockchain, Please wait");
      return hash;
    }

    async function run(
      account: Address,
      call: {
        address: Address;
        abi: typeof diginoorMarketplaceAbi | typeof diginoorCollectibleAbi;
        functionName: string;
        args: readonly unknown[];
        value?: bigint;
      },
      step: Step,
      onSent?: (hash: Hash) => void | Promise<void>,
    ): Promise<Hash> {
      const { request } = await simulateContract(config, {
        // biome-ignore lint/suspicious/noExplicitAny: one helper for calls of two ABIs
        ...(call as any),
        account,
        chainId: chain.chainId,
      });
      step("Please confirm in your wallet");
      const hash = await writeContract(config, request);
      await onSent?.(hash);
      step("Transaction submitted to the blockchain, Please wait");
      const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.chainId });
      if (receipt.status !== "success") throw new WalletStepError("The transaction failed on the blockchain");
      return hash;
    }

    async function approveMarketplace(account: Address, step: Step) {
      const approved = await readContract(config, {
        address: collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isApprovedForAll",
        args: [account, marketplace],
        chainId: chain.chainId,
      });
      if (approved) return;
      step("Approval processing.. Please wait");
      await run(
        account,
        {
          address: collectible,
          abi: diginoorCollectibleAbi,
          functionName: "setApprovalForAll",
          args: [marketplace, true],
        },
        step,
      );
      step("NFT Approved");
    }

    const market = (functionName: string, args: readonly unknown[], value?: bigint) => ({
      address: marketplace,
      abi: diginoorMarketplaceAbi,
      functionName,
      args,
      ...(value !== undefined ? { value } : {}),
    });

    return {
      /** Checks the wallet (linked, connected, right chain) without sending anything. */
      ensureWallet: (action: "pay" | "bid", receiving = false) => ensure(action, { receiving }),
      /** Primary purchase: redeems the server-signed voucher of a wallet order from the receiving wallet. */
      async purchase(payment: WalletPayment, step: Step, onSent: (hash: Hash) => Promise<void>) {
        const account = await ensure("pay", { receiving: true });
        step("Processing Payment");
        return run(
          account,
          market(
            "purchase",
            [voucherFromJson(payment.voucher), payment.signature as Hex],
            BigInt(payment.valueWei),
          ),
          step,
          onSent,
        );
      },
      async bid(tokenId: bigint, wei: bigint, step: Step) {
        const account = await ensure("bid");
        step("Processing Bid, Please wait");
        return run(account, market("bid", [tokenId], wei), step);
      },
      async buy(tokenId: bigint, priceWei: bigint, step: Step) {
        const account = await ensure("pay");
        step("Buy processing.. Please wait");
        return run(account, market("buy", [tokenId, priceWei], priceWei), step);
      },
      async settle(tokenId: bigint, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (pk) return viaPasskey(pk, [call(marketplace, diginoorMarketplaceAbi, "settle", [tokenId])], step);
        const account = await ensure("bid");
        return run(account, market("settle", [tokenId]), step);
      },
      async list(tokenId: bigint, priceWei: bigint, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (pk) {
          return viaPasskey(
            pk,
            [
              ...(await approvalCalls(pk)),
              call(marketplace, diginoorMarketplaceAbi, "list", [tokenId, priceWei]),
            ],
            step,
          );
        }
        const account = await ensure("pay");
        await approveMarketplace(account, step);
        step("Instant sale processing.. Please wait");
        return run(account, market("list", [tokenId, priceWei]), step);
      },
      async createAuction(tokenId: bigint, reserveWei: bigint, days: number, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (pk) {
          return viaPasskey(
            pk,
            [
              ...(await approvalCalls(pk)),
              call(marketplace, diginoorMarketplaceAbi, "createAuction", [tokenId, reserveWei, days]),
            ],
            step,
          );
        }
        const account = await ensure("bid");
        await approveMarketplace(account, step);
        step("Processing Auction.. Please wait");
        return run(account, market("createAuction", [tokenId, reserveWei, days]), step);
      },
      async updatePrice(tokenId: bigint, priceWei: bigint, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (pk)
          return viaPasskey(
            pk,
            [call(marketplace, diginoorMarketplaceAbi, "updatePrice", [tokenId, priceWei])],
            step,
          );
        const account = await ensure("pay");
        return run(account, market("updatePrice", [tokenId, priceWei]), step);
      },
      async cancelListing(tokenId: bigint, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (pk)
          return viaPasskey(
            pk,
            [call(marketplace, diginoorMarketplaceAbi, "cancelListing", [tokenId])],
            step,
          );
        const account = await ensure("pay");
        return run(account, market("cancelListing", [tokenId]), step);
      },
      async cancelAuction(tokenId: bigint, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (pk)
          return viaPasskey(
            pk,
            [call(marketplace, diginoorMarketplaceAbi, "cancelAuction", [tokenId])],
            step,
          );
        const account = await ensure("bid");
        return run(account, market("cancelAuction", [tokenId]), step);
      },
      /** Whether `tokenId` is held by the fan's passkey wallet (its actions need no wallet app and no gas). */
      passkeyHolder,
      /**
       * "Send to my own wallet": the passkey wallet transfers the token to `to`, another wallet of the fan's
       * (sponsored). A plain transferFrom: safeTransferFrom's receiver hook would run code we did not write
       * on our gas, so our paymaster does not pay for it (decision 186).
       */
      async sendToOwnWallet(tokenId: bigint, to: Address, step: Step) {
        const pk = await passkeyHolder(tokenId);
        if (!pk) throw new WalletStepError("Only a token in your passkey wallet can be sent from here");
        return viaPasskey(
          pk,
          [call(collectible, diginoorCollectibleAbi, "transferFrom", [pk.address as Address, to, tokenId])],
          step,
        );
      },
    };
  }, [config, ensure, queryClient, marketplace, collectible, chain]);
}
