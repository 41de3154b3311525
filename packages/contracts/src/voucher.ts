import type { Address, Hex, LocalAccount } from "viem";
import { hashTypedData, hexToBigInt, pad, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** EIP-712 domain name of DiginoorMarketplace. */
export const VOUCHER_DOMAIN_NAME = "Diginoor Marketplace";
/** EIP-712 domain version of DiginoorMarketplace. */
export const VOUCHER_DOMAIN_VERSION = "2";
/**
 * Order ids of voucher (wallet) sales are at least 2^64 (`DiginoorCollectible.VOUCHER_ORDER_ID_MIN`); the
 * minter's path (card/INR orders, primary auctions) uses ids below it. See {@link voucherOrderId}.
 */
export const VOUCHER_ORDER_ID_MIN = 2n ** 64n;
/**
 * Longest life of a voucher (expiry minus signing time) the server may sign: `MAX_VOUCHER_LIFETIME` of the
 * marketplace. A voucher no longer than this stays redeemable through a primary fee decrease.
 */
export const MAX_VOUCHER_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * EIP-712 types of the primary-sale voucher, exactly as in DiginoorMarketplace.PURCHASE_VOUCHER_TYPEHASH:
 * `PurchaseVoucher(uint64 catalogueNftId,uint16 edition,uint256 priceWei,address buyer,uint16 platformFeeBps,bytes32 orderId,uint64 expiry)`.
 */
export const purchaseVoucherTypes = {
  PurchaseVoucher: [
    { name: "catalogueNftId", type: "uint64" },
    { name: "edition", type: "uint16" },
    { name: "priceWei", type: "uint256" },
    { name: "buyer", type: "address" },
    { name: "platformFeeBps", type: "uint16" },
    { name: "orderId", type: "bytes32" },
    { name: "expiry", type: "uint64" },
  ],
} as const;

/**
 * A primary-sale voucher signed by an account holding SIGNER_ROLE on the marketplace.
 * - `catalogueNftId`: the catalogue NFT (uint64) the token represents.
 * - `edition`: edition number (uint16, 0 = unnumbered).
 * - `priceWei`: exact ETH the buyer must send; at least the item's floor (`DiginoorCollectible.primaryTerms`).
 * - `buyer`: the only account that may redeem it (msg.sender) and who receives the token.
 * - `platformFeeBps`: the platform's share in basis points, at most the marketplace's `primaryFeeBps()` when
 *   signed; signed, so a later fee change cannot alter what the production house was promised. The rest goes
 *   to the item's payee on the collectible (`primaryTerms(catalogueNftId).payee`), never chosen by the signer.
 * - `orderId`: bytes32, at least 2^64 ({@link voucherOrderId}); the minted token id is `BigInt(orderId)`;
 *   each order mints once.
 * - `expiry`: unix seconds; redeemable while `block.timestamp <= expiry`; at most
 *   {@link MAX_VOUCHER_LIFETIME_SECONDS} after signing.
 */
export interface PurchaseVoucher {
  catalogueNftId: bigint;
  edition: number;
  priceWei: bigint;
  buyer: Address;
  platformFeeBps: number;
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
 * The bytes32 order id of an order: its positive numeric id, left-padded (so token ids stay small).
 * One form only: a bigint. Strings and numbers are refused, because `"123"` and `123n` must never give two
 * ids for one order (PostgreSQL bigints arrive as strings: convert with `BigInt(row.id)` first).
 */
export function toOrderId(orderNumber: bigint): Hex {
  if (typeof orderNumber !== "bigint") {
    throw new TypeError(
      `toOrderId takes the order's numeric id as a bigint (BigInt(row.id)), not a ${typeof orderNumber}`,
    );
  }
  if (orderNumber <= 0n || orderNumber >= 2n ** 256n) {
    throw new RangeError(`order id ${orderNumber} is outside 1 .. 2^256-1`);
  }
  return pad(toHex(orderNumber), { size: 32 });
}

/**
 * The bytes32 order id of a wallet (voucher) order: 2^64 + its numeric id, so it can never be the id of a card
 * order or a primary auction (which use {@link toOrderId} of their number, below 2^64).
 */
export function voucherOrderId(orderNumber: bigint): Hex {
  if (typeof orderNumber !== "bigint" || orderNumber <= 0n || orderNumber >= VOUCHER_ORDER_ID_MIN) {
    throw new RangeError(`voucher order number ${String(orderNumber)} is outside 1 .. 2^64-1`);
  }
  return toOrderId(VOUCHER_ORDER_ID_MIN + orderNumber);
}

/** The token id minted for an order: `BigInt(orderId)`. */
export function orderIdToTokenId(orderId: Hex): bigint {
  return hexToBigInt(orderId);
}

/** The order id of a token id: the token id as bytes32. */
export function tokenIdToOrderId(tokenId: bigint): Hex {
  return pad(toHex(tokenId), { size: 32 });
}

/** A voucher as JSON carries its integers as decimal strings (as the orders API sends it). */
export interface PurchaseVoucherJson {
  catalogueNftId: string;
  edition: number;
  priceWei: string;
  buyer: string;
  platformFeeBps: number;
  orderId: string;
  expiry: string;
}

/** The voucher struct `DiginoorMarketplace.purchase` takes, from its JSON form. */
export function voucherFromJson(v: PurchaseVoucherJson): PurchaseVoucher {
  return {
    catalogueNftId: BigInt(v.catalogueNftId),
    edition: v.edition,
    priceWei: BigInt(v.priceWei),
    buyer: v.buyer as Address,
    platformFeeBps: v.platformFeeBps,
    orderId: v.orderId as Hex,
    expiry: BigInt(v.expiry),
  };
}
