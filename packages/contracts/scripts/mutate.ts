/**
 * Mutation testing of the contracts: apply one deliberate break at a time to the Solidity sources, rebuild
 * with solc-js, and run the contract tests (stopping at the first failure). A mutant is *caught* when some
 * test fails; a mutant that lets every test pass *survived* and shows a hole in the tests.
 *
 * Usage: npm run mutate -w packages/contracts [-- --only <id,id>] [-- --write]
 *   --write  also writes the report to docs/mutation.md
 * The sources are restored (and the original build regenerated) whatever happens, also on Ctrl-C.
 * Exit code 1 when a mutant survived or did not apply.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(pkg, "../..");
const MARKET = "contracts/DiginoorMarketplace.sol";
const COLLECTIBLE = "contracts/DiginoorCollectible.sol";

interface Mutant {
  id: string;
  file: string;
  what: string;
  find: string;
  replace: string;
  /** Which occurrence of `find` to mutate (0-based) when it appears more than once. */
  nth?: number;
  /** Run only the fuzz for this mutant (to show the fuzz alone catches it). */
  fuzzOnly?: boolean;
}

/**
 * The test file expected to catch each mutant: it runs first (one anvil instead of ten), then the other
 * example tests, then the fuzz. A mutant is caught whichever test fails.
 */
const FIRST: Record<string, string> = {
  "buy-no-zombie-check": "listings",
  "buy-ignores-epoch": "audit",
  "update-dead-listing": "audit",
  "list-already-listed": "listings",
  "list-silent-overwrite": "audit",
  "list-no-approval-check": "listings",
  "cancel-anyone": "listings",
  "buy-own-listing": "listings",
  "buy-fee-at-sale-time": "audit",
  "buy-royalty-as-fee": "listings",
  "buy-price-guard": "listings",
  "auction-keeps-stale-listing": "audit",
  "extension-le": "auctions",
  "extension-none": "auctions",
  "settle-one-second-early": "auctions",
  "bid-at-end": "auctions",
  "reserve-off-by-one": "auctions",
  "increment-zero": "auctions",
  "increment-halved": "auctions",
  "seller-bids": "auctions",
  "settle-fee-at-settle-time": "audit",
  "cancel-auction-with-bids": "auctions",
  "no-fair-end": "audit",
  "fair-end-no-window": "audit",
  "pause-forever": "audit",
  "no-pause-cooldown": "audit",
  "settle-blocked-by-pause": "audit",
  "settle-during-pause": "auctions",
  "voucher-fee-ignored": "audit",
  "voucher-fee-uncapped": "audit",
  "voucher-not-cancellable": "audit",
  "voucher-expiry-off-by-one": "primary",
  "voucher-buyer-tx-origin": "primary",
  "voucher-any-signer": "primary",
  "fee-increase-immediate": "admin",
  "fee-increase-early": "audit",
  "payout-lost": "listings",
  "withdraw-twice": "admin",
  "rescue-auctioned": "audit",
  "treasury-collectible": "audit",
  "approve-no-version": "audit",
  "revoke-no-epoch": "audit",
  "transfer-no-version": "listings",
  "royalty-receiver-minter": "audit",
  "royalty-doubled": "collectible",
  "royalty-uncapped": "collectible",
  // issue 22
  "primary-below-floor": "audit3",
  "primary-without-terms": "audit3",
  "primary-any-order-id": "audit3",
  "minter-any-order-id": "audit3",
  "terms-by-anyone": "audit3",
  "mint-primary-anyone": "audit3",
  "fee-grace-none": "audit3",
  "fee-grace-forever": "audit3",
  "cancel-redeemed": "audit3",
  "fee-increase-never-lapses": "audit3",
  "increment-at-bid-time": "audit3",
  "royalty-keeps-listing": "audit3",
  "royalty-in-escrow": "audit3",
  "royalty-receiver-marketplace": "audit3",
  "ends-at-stored": "audit3",
  "fees-not-accrued": "audit3",
  "withdraw-fees-twice": "audit3",
  "set-treasury-keeps-fees": "audit3",
  "primary-floor-exclusive": "audit3",
  "terms-payee-unchecked": "audit3",
  "cancel-voucher-anyone": "audit",
  "fee-grace-forgets-earlier": "audit3",
  "fee-grace-too-long": "audit3",
  "paused-event-no-end": "audit3",
  "unpaused-event-no-window": "audit3",
  "ends-at-during-pause-stored": "audit3",
  "minimum-bid-today": "audit3",
  "fees-accrue-to-one-sale": "audit3",
  // issue 22, primary purchase gas: the indexer takes a primary sale's payee and buyer from the mint's events
  "primary-event-proceeds-as-fee": "primary",
  "primary-credit-to-buyer": "primary",
  "primary-credit-overwrites": "primary",
  "primary-credit-includes-fee": "primary",
  "primary-pushed-again": "primary",
  "minted-event-buyer-as-receiver": "primary",
};

const STALE = "if (version != l.tokenVersion || epoch != l.ownerEpoch) revert ListingStale(tokenId);";

export const MUTANTS: Mutant[] = [
  // The audit found the fuzz passed with the zombie-listing check removed from buy: the fuzz alone must catch it now.
  {
    id: "fuzz-buy-no-zombie-check",
    file: MARKET,
    what: "buy skips the liveness check; only the fuzz runs",
    find: STALE,
    replace: "",
    nth: 1,
    fuzzOnly: true,
  },
  // ---- listings
  {
    id: "buy-no-zombie-check",
    file: MARKET,
    what: "buy skips the liveness check (zombie listings)",
    find: STALE,
    replace: "",
    nth: 1,
  },
  {
    id: "buy-ignores-epoch",
    file: MARKET,
    what: "buy ignores approval revocations (finding 1)",
    find: STALE,
    replace: "if (version != l.tokenVersion) revert ListingStale(tokenId);",
    nth: 1,
  },
  {
    id: "update-dead-listing",
    file: MARKET,
    what: "updatePrice works on a dead listing (finding 6)",
    find: STALE,
    replace: "",
    nth: 0,
  },
  {
    id: "list-already-listed",
    file: MARKET,
    what: "list never reports AlreadyListed",
    find: "if (existing.tokenVersion == version && existing.ownerEpoch == epoch) revert AlreadyListed(tokenId);",
    replace: "",
  },
  {
    id: "list-silent-overwrite",
    file: MARKET,
    what: "overwriting a dead listing is not announced (finding 6)",
    find: "            emit ListingCancelled(tokenId, address(0));\n        }\n        if (!collectible.isApprovedForAll",
    replace: "        }\n        if (!collectible.isApprovedForAll",
  },
  {
    id: "list-no-approval-check",
    file: MARKET,
    what: "list does not require the marketplace's approval",
    find: "            revert MarketplaceNotApproved(tokenId);",
    replace: "",
  },
  {
    id: "cancel-anyone",
    file: MARKET,
    what: "anyone can cancel a listing",
    find: "if (collectible.ownerOf(tokenId) != msg.sender) revert NotListingSeller(tokenId, msg.sender);",
    replace: "",
  },
  {
    id: "buy-own-listing",
    file: MARKET,
    what: "a seller can buy their own listing",
    find: "if (seller == msg.sender) revert BuyerIsSeller(tokenId);",
    replace: "",
  },
  {
    id: "buy-fee-at-sale-time",
    file: MARKET,
    what: "buy charges today's fee, not the listing's (finding 4)",
    find: "uint256 fee = (msg.value * l.feeBps) / BPS;",
    replace: "uint256 fee = (msg.value * _config.feeBps) / BPS;",
  },
  {
    id: "buy-royalty-as-fee",
    file: MARKET,
    what: "buy computes the royalty from the fee rate",
    find: "uint256 royalty = (msg.value * l.royaltyBps) / BPS;",
    replace: "uint256 royalty = (msg.value * l.feeBps) / BPS;",
  },
  {
    id: "buy-price-guard",
    file: MARKET,
    what: "buy ignores the expected price (front-running guard)",
    find: "if (l.price != expectedPrice) revert PriceMismatch(expectedPrice, l.price);",
    replace: "",
  },
  // ---- auctions
  {
    id: "auction-keeps-stale-listing",
    file: MARKET,
    what: "createAuction leaves a dead listing behind (finding 3)",
    find: "            delete _listings[tokenId];\n            emit ListingCancelled(tokenId, address(0));",
    replace: "",
  },
  {
    id: "extension-le",
    file: MARKET,
    what: "a bid with exactly 15 minutes left extends (<= for <)",
    find: "if (endTime < block.timestamp + EXTENSION_WINDOW) {",
    replace: "if (endTime <= block.timestamp + EXTENSION_WINDOW) {",
  },
  {
    id: "extension-none",
    file: MARKET,
    what: "late bids never extend the auction",
    find: "if (endTime < block.timestamp + EXTENSION_WINDOW) {",
    replace: "if (false) {",
  },
  {
    id: "settle-one-second-early",
    file: MARKET,
    what: "settle allowed one second before the end",
    find: "if (block.timestamp < end) revert AuctionNotEnded(tokenId, end);",
    replace: "if (block.timestamp + 1 < end) revert AuctionNotEnded(tokenId, end);",
  },
  {
    id: "bid-at-end",
    file: MARKET,
    what: "a bid at the end second is accepted (>= for >)",
    find: "if (block.timestamp >= fairEnd) revert AuctionEnded(tokenId, fairEnd);",
    replace: "if (block.timestamp > fairEnd) revert AuctionEnded(tokenId, fairEnd);",
  },
  {
    id: "reserve-off-by-one",
    file: MARKET,
    what: "a first bid one wei below the reserve is accepted",
    find: "if (msg.value < previousAmount) revert BidBelowReserve(previousAmount, msg.value);",
    replace: "if (msg.value + 1 < previousAmount) revert BidBelowReserve(previousAmount, msg.value);",
  },
  {
    id: "increment-zero",
    file: MARKET,
    what: "the minimum increment may be 0 wei",
    find: "uint256 minimum = previousAmount + (increment == 0 ? 1 : increment);",
    replace: "uint256 minimum = previousAmount + increment;",
  },
  {
    id: "increment-halved",
    file: MARKET,
    what: "the minimum increment is half the rule",
    find: "uint256 increment = (previousAmount * a.minIncrementBps) / BPS;",
    replace: "uint256 increment = (previousAmount * a.minIncrementBps) / (2 * BPS);",
  },
  {
    id: "seller-bids",
    file: MARKET,
    what: "the seller may bid on their own auction",
    find: "if (msg.sender == seller) revert SellerCannotBid(tokenId);",
    replace: "",
  },
  {
    id: "settle-fee-at-settle-time",
    file: MARKET,
    what: "settle charges today's fee, not the auction's (finding 4)",
    find: "uint256 fee = (uint256(a.amount) * a.feeBps) / BPS;",
    replace: "uint256 fee = (uint256(a.amount) * cfg.feeBps) / BPS;",
  },
  {
    id: "cancel-auction-with-bids",
    file: MARKET,
    what: "an auction with bids can be cancelled",
    find: "if (a.highestBidder != address(0)) revert AuctionHasBids(tokenId);",
    replace: "",
  },
  // ---- pause
  {
    id: "no-fair-end",
    file: MARKET,
    what: "a pause over an auction's end hands it to the leader (finding 2)",
    find: "uint256 fairEnd = _fairEnd(endTime, cfg);",
    replace: "uint256 fairEnd = endTime;",
  },
  {
    id: "fair-end-no-window",
    file: MARKET,
    what: "no 15-minute window after the pause",
    find: "if (pausedAt != 0 && pausedAt < endTime && unpausedAt + EXTENSION_WINDOW > endTime) {\n            return unpausedAt + EXTENSION_WINDOW;",
    replace:
      "if (pausedAt != 0 && pausedAt < endTime && unpausedAt > endTime) {\n            return unpausedAt;",
  },
  {
    id: "pause-forever",
    file: MARKET,
    what: "a pause never ends by itself (funds locked, finding 2)",
    find: "uint40 public constant MAX_PAUSE_DURATION = 7 days;",
    replace: "uint40 public constant MAX_PAUSE_DURATION = 700 days;",
  },
  {
    id: "no-pause-cooldown",
    file: MARKET,
    what: "pauses may follow each other at once",
    find: "            revert PauseCooldown(uint256(last.unpausedAt) + PAUSE_COOLDOWN);",
    replace: "",
  },
  {
    id: "settle-blocked-by-pause",
    file: MARKET,
    what: "a pause blocks settling auctions that had ended before it",
    find: "if (_isPaused(cfg) && end > cfg.pausedAt) revert EnforcedPause();",
    replace: "if (_isPaused(cfg)) revert EnforcedPause();",
  },
  {
    id: "settle-during-pause",
    file: MARKET,
    what: "settle ignores the pause entirely",
    find: "if (_isPaused(cfg) && end > cfg.pausedAt) revert EnforcedPause();",
    replace: "",
  },
  // ---- primary sales and fees
  {
    id: "voucher-fee-ignored",
    file: MARKET,
    what: "purchase uses today's primary fee, not the signed one (finding 4)",
    find: "uint256 fee = (msg.value * voucher.platformFeeBps) / BPS;",
    replace: "uint256 fee = (msg.value * cfg.primaryFeeBps) / BPS;",
  },
  {
    id: "voucher-fee-uncapped",
    file: MARKET,
    what: "a voucher may carry a fee above the on-chain rate",
    find: "if (voucher.platformFeeBps > cfg.primaryFeeBps) _checkGraceFee(voucher.platformFeeBps, voucher.expiry, cfg);",
    replace: "",
  },
  {
    id: "voucher-not-cancellable",
    file: MARKET,
    what: "cancelled vouchers are still redeemable",
    find: "if (voucherCancelled[digest]) revert VoucherIsCancelled(digest);",
    replace: "",
  },
  {
    id: "voucher-expiry-off-by-one",
    file: MARKET,
    what: "a voucher is refused at its expiry second",
    find: "if (block.timestamp > voucher.expiry) revert VoucherExpired(voucher.expiry);",
    replace: "if (block.timestamp >= voucher.expiry) revert VoucherExpired(voucher.expiry);",
  },
  {
    id: "voucher-buyer-tx-origin",
    file: MARKET,
    what: "the voucher's buyer is hashed as tx.origin, not the caller: a contract the buyer calls can redeem the buyer's voucher for itself",
    find: "                voucher.priceWei,\n                msg.sender,",
    replace: "                voucher.priceWei,\n                tx.origin,",
  },
  {
    id: "voucher-any-signer",
    file: MARKET,
    what: "any signature is accepted",
    find: "if (!hasRole(SIGNER_ROLE, signer)) revert InvalidSignature(signer);",
    replace: "",
  },
  {
    id: "fee-increase-immediate",
    file: MARKET,
    what: "a fee increase applies at once (finding 4)",
    find: "        uint16 current = _config.feeBps;\n        if (bps <= current) {",
    replace: "        uint16 current = _config.feeBps;\n        if (true) {",
  },
  {
    id: "fee-increase-early",
    file: MARKET,
    what: "an announced fee increase applies before its time",
    find: "return effectiveAt != 0 && block.timestamp >= effectiveAt",
    replace: "return effectiveAt != 0",
  },
  // ---- payouts, rescue, payees
  {
    id: "payout-lost",
    file: MARKET,
    what: "a failed payout is not credited",
    find: "            pendingWithdrawals[to] += amount;",
    replace: "",
  },
  {
    id: "withdraw-twice",
    file: MARKET,
    what: "withdraw does not clear the balance",
    find: "        pendingWithdrawals[msg.sender] = 0;",
    replace: "",
  },
  {
    id: "rescue-auctioned",
    file: MARKET,
    what: "the admin can take an auctioned token (finding 5)",
    find: "if (_auctions[tokenId].seller != address(0) || collectible.ownerOf(tokenId) != address(this)) {",
    replace: "if (collectible.ownerOf(tokenId) != address(this)) {",
  },
  {
    id: "treasury-collectible",
    file: MARKET,
    what: "the treasury may be the collectible (finding 7)",
    find: " || payee == address(collectible)) {",
    replace: ") {",
  },
  // ---- collectible
  {
    id: "approve-no-version",
    file: COLLECTIBLE,
    what: "a single-token approval change keeps listings alive (finding 1)",
    find: "        super.approve(to, tokenId);\n        unchecked {\n            _tokenData[tokenId].version += 1;\n        }",
    replace: "        super.approve(to, tokenId);",
  },
  {
    id: "revoke-no-epoch",
    file: COLLECTIBLE,
    what: "revoking an operator keeps listings alive (finding 1)",
    find: "                approvalEpoch[_msgSender()] += 1;",
    replace: "",
  },
  {
    id: "transfer-no-version",
    file: COLLECTIBLE,
    what: "transfers do not bump the version (zombie listings)",
    find: "        if (from != address(0)) {\n            unchecked {\n                _tokenData[tokenId].version += 1;",
    replace:
      "        if (false) {\n            unchecked {\n                _tokenData[tokenId].version += 1;",
  },
  {
    id: "royalty-receiver-minter",
    file: COLLECTIBLE,
    what: "a minter may be a royalty receiver (finding 7)",
    find: "\n                || hasRole(MINTER_ROLE, receiver)",
    replace: "",
  },
  {
    id: "royalty-doubled",
    file: COLLECTIBLE,
    what: "royaltyInfo pays twice the rate",
    find: "royaltyAmount = (salePrice * d.royaltyBps) / BPS_DENOMINATOR;",
    replace: "royaltyAmount = (salePrice * d.royaltyBps) / (BPS_DENOMINATOR / 2);",
  },
  {
    id: "royalty-uncapped",
    file: COLLECTIBLE,
    what: "royalties above 15% are accepted",
    find: "if (royaltyBps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(royaltyBps, MAX_ROYALTY_BPS);",
    replace: "",
  },
  // ---- issue 22 (third audit)
  {
    id: "primary-below-floor",
    file: COLLECTIBLE,
    what: "a voucher below the item's floor mints (finding 1)",
    find: "if (priceWei < terms.floorWei) revert PriceBelowFloor(terms.floorWei, priceWei);",
    replace: "",
  },
  {
    id: "primary-without-terms",
    file: COLLECTIBLE,
    what: "an item without primary terms is sold by voucher (finding 1)",
    find: "if (payee == address(0)) revert NoPrimaryTerms(catalogueNftId);",
    replace: "",
  },
  {
    id: "primary-any-order-id",
    file: COLLECTIBLE,
    what: "a voucher may use an order id of the minter's range (finding 1)",
    find: "if (uint256(orderId) < VOUCHER_ORDER_ID_MIN) revert NotVoucherOrderId(orderId);",
    replace: "",
  },
  {
    id: "minter-any-order-id",
    file: COLLECTIBLE,
    what: "the minter may use an order id of the voucher range (finding 1)",
    find: "if (uint256(orderId) >= VOUCHER_ORDER_ID_MIN) revert NotMinterOrderId(orderId);",
    replace: "",
  },
  {
    id: "terms-by-anyone",
    file: COLLECTIBLE,
    what: "anyone (the signer) may set an item's payee and floor (finding 1)",
    find: "if (msg.sender != defaultAdmin()) _checkRole(MINTER_ROLE);",
    replace: "",
  },
  {
    id: "mint-primary-anyone",
    file: COLLECTIBLE,
    what: "any minter may call mintPrimary (finding 1)",
    find: "if (msg.sender != marketplace) revert NotMarketplace(msg.sender);",
    replace: "",
  },
  {
    id: "fee-grace-none",
    file: MARKET,
    what: "a primary fee decrease breaks vouchers in flight (finding 2)",
    find: "if (bps > p.primaryFeeGraceBps || expiry > p.primaryFeeGraceUntil) {",
    replace: "if (bps > 0) {",
  },
  {
    id: "fee-grace-forever",
    file: MARKET,
    what: "the old primary fee stays acceptable for vouchers of any expiry (finding 2)",
    find: "if (bps > p.primaryFeeGraceBps || expiry > p.primaryFeeGraceUntil) {",
    replace: "if (bps > p.primaryFeeGraceBps) {",
  },
  {
    id: "cancel-redeemed",
    file: MARKET,
    what: "cancelling a minted order succeeds (finding 3)",
    find: "if (collectible.isOrderMinted(v.orderId)) revert VoucherAlreadyRedeemed(v.orderId);",
    replace: "",
  },
  {
    id: "fee-increase-never-lapses",
    file: MARKET,
    what: "an announced fee increase can be applied any time later (finding 7)",
    find: "\n            && block.timestamp <= uint256(effectiveAt) + FEE_INCREASE_WINDOW;",
    replace: ";",
  },
  {
    id: "increment-at-bid-time",
    file: MARKET,
    what: "a live auction takes today's minimum increment (finding 7)",
    find: "uint256 increment = (previousAmount * a.minIncrementBps) / BPS;",
    replace: "uint256 increment = (previousAmount * cfg.minIncrementBps) / BPS;",
  },
  {
    id: "royalty-keeps-listing",
    file: COLLECTIBLE,
    what: "a royalty change leaves the live listing alive (finding 7)",
    find: "        unchecked {\n            d.version += 1;\n        }\n        emit TokenRoyaltyUpdated",
    replace: "        emit TokenRoyaltyUpdated",
  },
  {
    id: "royalty-in-escrow",
    file: COLLECTIBLE,
    what: "the royalty of an auctioned token can be redirected (finding 7)",
    find: "if (_requireOwned(tokenId) == marketplace) revert TokenInEscrow(tokenId);",
    replace: "_requireOwned(tokenId);",
  },
  {
    id: "royalty-receiver-marketplace",
    file: COLLECTIBLE,
    what: "the marketplace whose role was revoked may be a royalty receiver (finding 6)",
    find: " || receiver == marketplace",
    replace: "",
  },
  {
    id: "ends-at-stored",
    file: MARKET,
    what: "auctionEndsAt shows the stored end until it passes (finding 5)",
    find: "        return _fairEnd(endTime, cfg);\n    }",
    replace: "        return block.timestamp >= endTime ? _fairEnd(endTime, cfg) : endTime;\n    }",
  },
  {
    id: "fees-not-accrued",
    file: MARKET,
    what: "platform fees are not credited to the treasury",
    find: "if (fee != 0) _config.accruedFees += SafeCast.toUint128(fee);",
    replace: "",
  },
  {
    id: "withdraw-fees-twice",
    file: MARKET,
    what: "withdrawFees does not reset the accrued fees",
    find: "        _config.accruedFees = 0;\n        address to = _treasury;",
    replace: "        address to = _treasury;",
  },
  {
    id: "set-treasury-keeps-fees",
    file: MARKET,
    what: "a new treasury receives the fees accrued under the previous one",
    find: "            emit FeesWithdrawn(previous, fees);\n            _pay(previous, fees);",
    replace: "            emit FeesWithdrawn(previous, fees);\n            _pay(newTreasury, fees);",
  },
  // ---- issue 22, second pass: the rest of the new code (floor and payee registry, per-voucher cancellation,
  // fee grace, pause events and views, the per-auction increment in the view, fees in the config slot)
  {
    id: "primary-floor-exclusive",
    file: COLLECTIBLE,
    what: "a voucher exactly at the item's floor is refused (finding 1)",
    find: "if (priceWei < terms.floorWei) revert PriceBelowFloor(terms.floorWei, priceWei);",
    replace: "if (priceWei <= terms.floorWei) revert PriceBelowFloor(terms.floorWei, priceWei);",
  },
  {
    id: "terms-payee-unchecked",
    file: COLLECTIBLE,
    what: "an item's payee may be one that can never be paid (the marketplace; findings 1, 6)",
    find: "if (payee != address(0)) _checkRoyaltyReceiver(payee);",
    replace: "",
  },
  {
    id: "cancel-voucher-anyone",
    file: MARKET,
    what: "anyone may cancel a voucher (finding 3)",
    find: "if (!hasRole(SIGNER_ROLE, msg.sender) && msg.sender != defaultAdmin()) {",
    replace: "if (false) {",
  },
  {
    id: "fee-grace-forgets-earlier",
    file: MARKET,
    what: "a second fee decrease ends the first one's grace (finding 2)",
    find: "if (block.timestamp <= p.primaryFeeGraceUntil && p.primaryFeeGraceBps > grace) {",
    replace: "if (false) {",
  },
  {
    id: "fee-grace-too-long",
    file: MARKET,
    what: "the old primary fee stays acceptable for two voucher lifetimes (finding 2)",
    find: "p.primaryFeeGraceUntil = uint40(block.timestamp) + MAX_VOUCHER_LIFETIME;",
    replace: "p.primaryFeeGraceUntil = uint40(block.timestamp) + 2 * MAX_VOUCHER_LIFETIME;",
  },
  {
    id: "paused-event-no-end",
    file: MARKET,
    what: "Paused does not say when the pause ends by itself (finding 5)",
    find: "emit Paused(msg.sender, block.timestamp + MAX_PAUSE_DURATION);",
    replace: "emit Paused(msg.sender, block.timestamp);",
  },
  {
    id: "unpaused-event-no-window",
    file: MARKET,
    what: "Unpaused announces the unpause time, not the end of the bidding window (finding 5)",
    find: "emit Unpaused(msg.sender, cfg.pausedAt, block.timestamp + EXTENSION_WINDOW);",
    replace: "emit Unpaused(msg.sender, cfg.pausedAt, block.timestamp);",
  },
  {
    id: "ends-at-during-pause-stored",
    file: MARKET,
    what: "during a pause, auctionEndsAt shows the stored end (finding 5)",
    find: "            return latest > endTime ? latest : endTime;",
    replace: "            return endTime;",
  },
  {
    id: "minimum-bid-today",
    file: MARKET,
    what: "the minimumBid view uses today's increment, not the auction's (finding 7)",
    find: "uint256 increment = (amount * a.minIncrementBps) / BPS;",
    replace: "uint256 increment = (amount * _config.minIncrementBps) / BPS;",
  },
  {
    id: "fees-accrue-to-one-sale",
    file: MARKET,
    what: "each accrual overwrites the fees accrued before it",
    find: "if (fee != 0) _config.accruedFees += SafeCast.toUint128(fee);",
    replace: "if (fee != 0) _config.accruedFees = SafeCast.toUint128(fee);",
  },
  {
    id: "primary-event-proceeds-as-fee",
    file: MARKET,
    what: "PrimaryPurchase reports the payee's proceeds as the platform fee (the indexer's sale record)",
    find: "emit PrimaryPurchase(tokenId, msg.value, fee);",
    replace: "emit PrimaryPurchase(tokenId, msg.value, msg.value - fee);",
  },
  {
    id: "minted-event-buyer-as-receiver",
    file: COLLECTIBLE,
    what: "CollectibleMinted names the buyer as royalty receiver (the indexer's payee of a primary sale)",
    find: "emit CollectibleMinted(tokenId, catalogueNftId, edition, royaltyReceiver, bps);",
    replace: "emit CollectibleMinted(tokenId, catalogueNftId, edition, to, bps);",
  },
  // ---- issue 22, fourth pass: the studio's primary proceeds are credited (decision 106)
  {
    id: "primary-credit-to-buyer",
    file: MARKET,
    what: "a primary sale credits the studio's share to the buyer",
    find: "pendingWithdrawals[payee] += msg.value - fee;",
    replace: "pendingWithdrawals[msg.sender] += msg.value - fee;",
  },
  {
    id: "primary-credit-overwrites",
    file: MARKET,
    what: "a primary sale's credit replaces the studio's unwithdrawn balance instead of adding to it",
    find: "pendingWithdrawals[payee] += msg.value - fee;",
    replace: "pendingWithdrawals[payee] = msg.value - fee;",
  },
  {
    id: "primary-credit-includes-fee",
    file: MARKET,
    what: "the studio is credited the whole price, the platform fee too (totals not conserved)",
    find: "pendingWithdrawals[payee] += msg.value - fee;",
    replace: "pendingWithdrawals[payee] += msg.value;",
  },
  {
    id: "primary-pushed-again",
    file: MARKET,
    what: "the studio's share is pushed to it again (a payee that rejects ETH is called during the sale)",
    find: "pendingWithdrawals[payee] += msg.value - fee;",
    replace: "_pay(payee, msg.value - fee);",
  },
];

function apply(source: string, m: Mutant): string | undefined {
  let from = -1;
  for (let i = 0; i <= (m.nth ?? 0); i++) {
    from = source.indexOf(m.find, from + 1);
    if (from < 0) return undefined;
  }
  if (m.nth === undefined && source.indexOf(m.find, from + 1) >= 0) return undefined; // ambiguous
  return source.slice(0, from) + m.replace + source.slice(from + m.find.length);
}

const { values } = parseArgs({
  options: { only: { type: "string" }, write: { type: "boolean", default: false } },
});
const chosen = values.only ? MUTANTS.filter((m) => values.only?.split(",").includes(m.id)) : MUTANTS;
const originals = new Map([MARKET, COLLECTIBLE].map((f) => [f, readFileSync(join(pkg, f), "utf8")]));
let restored = false;
const restore = () => {
  if (restored) return;
  restored = true;
  for (const [f, text] of originals) writeFileSync(join(pkg, f), text);
  execFileSync("npx", ["tsx", "scripts/build.ts"], { cwd: pkg, stdio: "ignore" });
};
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    restore();
    process.exit(130);
  });

type Result = {
  m: Mutant;
  outcome: "caught" | "survived" | "not applied" | "does not compile";
  by?: string;
  seconds: number;
};
const results: Result[] = [];
try {
  for (const m of chosen) {
    const started = Date.now();
    const original = originals.get(m.file) as string;
    const mutated = apply(original, m);
    const done = (outcome: Result["outcome"], by?: string) => {
      const r = { m, outcome, by, seconds: Math.round((Date.now() - started) / 1000) };
      results.push(r);
      console.log(`${outcome.padEnd(16)} ${m.id.padEnd(28)} ${r.seconds}s ${by ?? ""}`);
    };
    for (const [f, text] of originals) writeFileSync(join(pkg, f), text);
    if (!mutated) {
      done("not applied");
      continue;
    }
    writeFileSync(join(pkg, m.file), mutated);
    const build = spawnSync("npx", ["tsx", "scripts/build.ts"], { cwd: pkg, encoding: "utf8" });
    if (build.status !== 0) {
      done("does not compile");
      continue;
    }
    // The example-based tests first (fast); the fuzz only for what they miss.
    const run = (files: string[]) =>
      spawnSync("npx", ["vitest", "run", "--project", "contracts", "--bail", "1", ...files], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      });
    const fuzz = "packages/contracts/test/fuzz.test.ts";
    const first = FIRST[m.id] ? `packages/contracts/test/${FIRST[m.id]}.test.ts` : undefined;
    const others = readdirSync(join(pkg, "test"))
      .filter((f) => f.endsWith(".test.ts") && f !== "fuzz.test.ts")
      .map((f) => `packages/contracts/test/${f}`)
      .filter((f) => f !== first);
    let test = run(m.fuzzOnly ? [fuzz] : first ? [first] : others);
    if (test.status === 0 && !m.fuzzOnly && first) test = run(others);
    if (test.status === 0 && !m.fuzzOnly) test = run([fuzz]);
    if (test.status === 0) {
      done("survived");
    } else {
      const failed = /FAIL\s+\|contracts\|\s+(test\/\S+\.ts)\s*>\s*([^\n]+)/.exec(test.stdout + test.stderr);
      done("caught", failed ? `${failed[1]} > ${failed[2]?.trim()}` : "");
    }
  }
} finally {
  restore();
}

const caught = results.filter((r) => r.outcome === "caught").length;
const report = [
  "# Mutation testing: contracts",
  "",
  "Written by `npm run mutate -w packages/contracts -- --write` (`packages/contracts/scripts/mutate.ts`). Each",
  "mutant is one deliberate break of `DiginoorMarketplace.sol` or `DiginoorCollectible.sol`; the contracts are",
  "rebuilt with solc-js and the contract tests run until the first failure. A mutant is caught when a test",
  "fails. Rerun after changing the contracts or their tests; every mutant must be caught.",
  "",
  `**${caught} of ${results.length} mutants caught.**`,
  "",
  "| Mutant | Break | Outcome | First failing test |",
  "|---|---|---|---|",
  ...results.map(
    (r) => `| \`${r.m.id}\` | ${r.m.what} | ${r.outcome} | ${(r.by ?? "").replace(/\|/g, "\\|")} |`,
  ),
  "",
].join("\n");
if (values.write) writeFileSync(join(root, "docs/mutation.md"), report);
console.log(`\n${caught} of ${results.length} mutants caught`);
process.exit(caught === results.length ? 0 : 1);
