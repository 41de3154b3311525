import { signPurchaseVoucher, toOrderId, voucherOrderId } from "@diginoor/contracts/voucher";
import type { Order } from "@diginoor/api/orders";
import { type Address, getAddress, type Hex, type LocalAccount } from "viem";
import type { OrderRow } from "./repo.ts";

/** Where a wallet order is paid: the chain and the marketplace its voucher is redeemed at. */
export interface VoucherDomain {
  chainId: number;
  marketplace: Address;
}

/**
 * The on-chain order id of an order: wallet (voucher) orders use the voucher range (2^64 + number), card
 * orders the number itself, so a voucher can never take a card order's id (docs/decisions/109).
 */
export function onChainOrderId(o: Pick<OrderRow, "number" | "provider">): Hex {
  return o.provider === "wallet" ? voucherOrderId(BigInt(o.number)) : toOrderId(BigInt(o.number));
}

/** The token id an order mints (decimal), or a resale order's listed token. */
export function orderTokenId(
  o: Pick<OrderRow, "number" | "provider"> & Partial<Pick<OrderRow, "resale_token_id">>,
): string {
  return o.resale_token_id ?? BigInt(onChainOrderId(o)).toString();
}

/** The purchase voucher of a wallet order, from its row (the terms it was created with). */
export function voucherOf(o: OrderRow, catalogueNumber: bigint) {
  if (o.edition === null) throw new Error(`order ${o.id} is a ticket order: it has no voucher`);
  return {
    catalogueNftId: catalogueNumber,
    edition: o.edition,
    priceWei: BigInt(o.price_wei ?? "0"),
    buyer: getAddress(o.buyer_address ?? ""),
    platformFeeBps: o.platform_fee_bps ?? 0,
    orderId: onChainOrderId(o),
    expiry: BigInt(o.voucher_expiry ?? Math.floor(o.reserved_until.getTime() / 1000)),
  };
}

/** Signs a wallet order's voucher with the signer key (once, when the order is made). */
export function signVoucher(
  domain: VoucherDomain,
  signer: LocalAccount,
  o: OrderRow,
  catalogueNumber: bigint,
): Promise<Hex> {
  return signPurchaseVoucher({
    chainId: domain.chainId,
    marketplace: domain.marketplace,
    voucher: voucherOf(o, catalogueNumber),
    account: signer,
  });
}

/** What the buyer's wallet sends: the voucher and its stored signature (nothing is signed here). */
export function paymentOf(
  domain: VoucherDomain,
  o: OrderRow,
  catalogueNumber: bigint,
  signature: string,
): NonNullable<Order["payment"]> {
  const voucher = voucherOf(o, catalogueNumber);
  return {
    chainId: domain.chainId,
    marketplace: domain.marketplace,
    valueWei: voucher.priceWei.toString(),
    voucher: {
      ...voucher,
      catalogueNftId: voucher.catalogueNftId.toString(),
      priceWei: voucher.priceWei.toString(),
      expiry: voucher.expiry.toString(),
    },
    signature: signature as Hex,
  };
}
