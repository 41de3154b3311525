import { diginoorCollectibleAbi } from "@diginoor/contracts/generated/diginoorCollectible";
import { diginoorMarketplaceAbi } from "@diginoor/contracts/generated/diginoorMarketplace";
import { voucherFromJson } from "@diginoor/contracts/voucher";
import type { WalletPayment } from "@diginoor/api/orders";
import { useMemo } from "react";
import type { Address, Hash, Hex } from "viem";
import { useConfig } from "wagmi";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import type { ReadyChain } from "./chain.ts";
import { WalletStepError } from "./errors.ts";
import { useEnsureWallet } from "./use-wallet-action.ts";

export type Step = (text: string) => void;

/**
 * The marketplace actions a user signs in their own wallet. Each checks the wallet first (linked,
 * connected, right chain), simulates the call so the contract's refusal is told in words before the
 * wallet opens, sends it, and waits for the receipt. `step` reports progress in the spec's words.
 */
export function useMarketActions(chain: ReadyChain) {
  const config = useConfig();
  const ensure = useEnsureWallet(chain);
  const marketplace = chain.marketplace as Address;
  const collectible = chain.collectible as Address;

  return useMemo(() => {
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
      // biome-ignore lint/suspicious/noExplicitAny: one helper for calls of two ABIs
      const { request } = await simulateContract(config, {
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
        const account = await ensure("bid");
        return run(account, market("settle", [tokenId]), step);
      },
      async list(tokenId: bigint, priceWei: bigint, step: Step) {
        const account = await ensure("pay");
        await approveMarketplace(account, step);
        step("Instant sale processing.. Please wait");
        return run(account, market("list", [tokenId, priceWei]), step);
      },
      async createAuction(tokenId: bigint, reserveWei: bigint, days: number, step: Step) {
        const account = await ensure("bid");
        await approveMarketplace(account, step);
        step("Processing Auction.. Please wait");
        return run(account, market("createAuction", [tokenId, reserveWei, days]), step);
      },
      async updatePrice(tokenId: bigint, priceWei: bigint, step: Step) {
        const account = await ensure("pay");
        return run(account, market("updatePrice", [tokenId, priceWei]), step);
      },
      async cancelListing(tokenId: bigint, step: Step) {
        const account = await ensure("pay");
        return run(account, market("cancelListing", [tokenId]), step);
      },
      async cancelAuction(tokenId: bigint, step: Step) {
        const account = await ensure("bid");
        return run(account, market("cancelAuction", [tokenId]), step);
      },
    };
  }, [config, ensure, marketplace, collectible, chain.chainId]);
}
