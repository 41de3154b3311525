import {
  BaseError,
  ContractFunctionRevertedError,
  InsufficientFundsError,
  UserRejectedRequestError,
} from "viem";
import { ApiError } from "../api.ts";
import { passkeyErrorMessage } from "./passkey-errors.ts";

/** Why a wallet step stopped, in the user's words (the spec's texts where it has them). */
export class WalletStepError extends Error {
  /** True when the user was sent elsewhere to fix it (e.g. to /wallet to link a wallet). */
  constructor(
    message: string,
    readonly redirected = false,
  ) {
    super(message);
  }
}

const reverts: Record<string, string> = {
  BidTooLow: "Someone bid first: enter a bid of at least the new minimum",
  BidBelowReserve: "Your bid is below the reserve price",
  AuctionEnded: "This auction has ended",
  AuctionNotFound: "This auction is not open",
  AuctionNotEnded: "This auction has not ended yet",
  AuctionNotStarted: "Nobody has bid on this auction yet",
  AuctionHasBids: "An auction with bids cannot be cancelled",
  SellerCannotBid: "You cannot bid on your own auction",
  BuyerIsSeller: "You cannot buy your own listing",
  NotTokenOwner: "Only the owner of this NFT can do that",
  NotListed: "This NFT is no longer for sale",
  ListingStale: "This NFT is no longer for sale",
  PriceMismatch: "The price changed; look at the new price and try again",
  VoucherExpired: "This price has expired; start the purchase again",
  // The contract hashes the caller as the voucher's buyer: from another wallet the signature does not match.
  InvalidSignature: "Pay from the wallet that receives your purchases, or start the purchase again",
  EnforcedPause: "The marketplace is paused for maintenance; try again later",
  OrderAlreadyMinted: "This order has already been paid",
  AlreadyListed: "This NFT is already on sale",
  TokenOnAuction: "This NFT is on auction",
};

/** A message for anything a wallet step can throw. */
export function walletErrorMessage(err: unknown, symbol = "ETH"): string {
  if (err instanceof WalletStepError || err instanceof ApiError) return err.message;
  // A passkey's fingerprint, face or screen lock refused or cancelled: plain words, not the browser's.
  const passkey = passkeyErrorMessage(err);
  if (passkey) return passkey;
  if (err instanceof BaseError) {
    if (err.walk((e) => e instanceof UserRejectedRequestError))
      return "You cancelled the request in your wallet";
    if (err.walk((e) => e instanceof InsufficientFundsError))
      return `Your wallet does not have enough ${symbol} for this`;
    const revert = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      const name = revert.data?.errorName;
      if (name && reverts[name]) return reverts[name];
      return revert.reason ?? "The blockchain refused the transaction";
    }
    return err.shortMessage;
  }
  if (err instanceof Error && /rejected|denied/i.test(err.message))
    return "You cancelled the request in your wallet";
  return "Something went wrong with the wallet; try again";
}
