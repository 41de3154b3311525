import type { Address, Hex, LocalAccount } from "viem";
import { hashTypedData, hexToBigInt, isHex, keccak256, pad, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** EIP-712 domain name of DiginoorMarketplace. */
export const VOUCHER_DOMAIN_NAME = "Diginoor Marketplace";
/** EIP-712 domain version of DiginoorMarketplace. */
export const VOUCHER_DOMAIN_VERSION = "1";

/**
 * EIP-712 types of the primary-sale voucher, exactly as in DiginoorMarketplace.PURCHASE_VOUCHER_TYPEHASH:
 * `PurchaseVoucher(uint64 catalogueNftId,uint16 edition,uint256 priceWei,address buyer,address productionHouse,bytes32 orderId,uint64 expiry)`.
 */
export const purchaseVoucherTypes = {
  PurchaseVoucher: [
    { name: "catalogueNftId", type: "uint64" },
    { name: "edition", type: "uint16" },
    { name: "priceWei", type: "uint256" },
    { name: "buyer", type: "address" },
    { name: "productionHouse", type: "address" },
    { name: "orderId", type: "bytes32" },
    { name: "expiry", type: "uint64" },
  ],
} as const;

/**
 * A primary-sale voucher signed by an account holding SIGNER_ROLE on the marketplace.
 * - `catalogueNftId`: the catalogue NFT (uint64) the token represents.
 * - `edition`: edition number (uint16, 0 = unnumbered).
 * - `priceWei`: exact ETH the buyer must send.
 * - `buyer`: the only account that may redeem it (msg.sender) and who receives the token.
 * - `productionHouse`: receives the revenue net of the platform share and becomes the token's royalty
 *   receiver; signed so a buyer cannot redirect revenue.
 * - `orderId`: bytes32, non-zero; the minted token id is `BigInt(orderId)`; each order mints once.
 * - `expiry`: unix seconds; redeemable while `block.timestamp <= expiry`.
 */
export interface PurchaseVoucher {
  catalogueNftId: bigint;
  edition: number;
  priceWei: bigint;
  buyer: Address;
  productionHouse: Address;
  orderId: Hex;
  expiry: bigint;
}

/** The EIP-712 domain of a marketplace deployment (the chain id prevents cross-chain replay). */
export function voucherDomain(chainId: number, marketplace: Address) {
  return {
    name: VOUCHER_DOMAIN_NAME,
    version: VOUCHER_DOMAIN_VERSION,
    chainId,
    verifyingContract: marketplace,
  } as const;
}

/** Options of {@link signPurchaseVoucher}: pass either `account` (a viem LocalAccount) or `privateKey`. */
export type SignPurchaseVoucherOptions = {
  chainId: number;
  marketplace: Address;
  voucher: PurchaseVoucher;
} & ({ account: LocalAccount; privateKey?: undefined } | { privateKey: Hex; account?: undefined });

/**
 * Sign a primary-sale voucher (EIP-712 typed data) for `marketplace` on `chainId`.
 * @returns the 65-byte signature to pass to `DiginoorMarketplace.purchase(voucher, signature)`.
 */
export async function signPurchaseVoucher(opts: SignPurchaseVoucherOptions): Promise<Hex> {
  const account = opts.account ?? privateKeyToAccount(opts.privateKey as Hex);
  return account.signTypedData({
    domain: voucherDomain(opts.chainId, opts.marketplace),
    types: purchaseVoucherTypes,
    primaryType: "PurchaseVoucher",
    message: opts.voucher,
  });
}

/** The EIP-712 digest of a voucher (equals `marketplace.voucherDigest(voucher)`). */
export function purchaseVoucherDigest(chainId: number, marketplace: Address, voucher: PurchaseVoucher): Hex {
  return hashTypedData({
    domain: voucherDomain(chainId, marketplace),
    types: purchaseVoucherTypes,
    primaryType: "PurchaseVoucher",
    message: voucher,
  });
}

/**
 * A bytes32 order id from a server order reference: a bigint / safe integer is left-padded (so token ids
 * stay small), a 0x-prefixed 32-byte hex is returned as is, any other string (e.g. a UUID) is keccak256-hashed.
 */
export function toOrderId(ref: bigint | number | string): Hex {
  if (typeof ref === "bigint" || typeof ref === "number") return pad(toHex(BigInt(ref)), { size: 32 });
  if (isHex(ref) && ref.length === 66) return ref;
  return keccak256(toHex(ref));
}

/** The token id minted for an order: `BigInt(orderId)`. */
export function orderIdToTokenId(orderId: Hex): bigint {
  return hexToBigInt(orderId);
}

/** The order id of a token id: the token id as bytes32. */
export function tokenIdToOrderId(tokenId: bigint): Hex {
  return pad(toHex(tokenId), { size: 32 });
}
