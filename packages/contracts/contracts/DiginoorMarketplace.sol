// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlDefaultAdminRules} from
    "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {DiginoorCollectible} from "./DiginoorCollectible.sol";

/**
 * @title DiginoorMarketplace
 * @notice Primary sales against server-signed EIP-712 vouchers (mint to the buyer), fixed-price resale
 * listings (approval based, no custody) and English auctions (token escrowed while the auction runs).
 *
 * Safety: every state-changing external function is `nonReentrant` (transient-storage guard) and follows
 * checks-effects-interactions. Resale and auction payouts and outbid refunds are pushed with a gas cap (PAYOUT_GAS)
 * and fall back to a withdrawable balance, so no payee (seller, royalty receiver, outbid bidder) can block others;
 * a primary sale's payee (the studio) is always credited and withdraws ({withdraw}), decision 106.
 * Platform fees accrue in the marketplace and go to the treasury through {withdrawFees} (anyone may call).
 * Invariant: address(this).balance == sum(escrowed highest bids) + sum(pendingWithdrawals) + accruedFees().
 * Pause stops purchases, listings, price updates, sales, auctions, bids and the settlement of auctions
 * that were still running when it began; it never stops cancelling, withdrawing or settling an auction that
 * had ended before it. A pause lasts at most MAX_PAUSE_DURATION, and an auction that was running when a
 * pause began takes bids until EXTENSION_WINDOW after the pause ends (docs/decisions/108); `Unpaused` says
 * until when, and {auctionEndsAt} always returns that fair end.
 * Terms are fixed when agreed: a listing and an auction record the fee, royalty and (auction) increment rates
 * of their creation; a voucher carries the primary fee it was signed with and stays redeemable until its
 * expiry through a fee decrease; fee increases take effect FEE_INCREASE_DELAY later and lapse if not applied
 * within FEE_INCREASE_WINDOW after that.
 * Primary sales (docs/decisions/109): the admin or a minter sets each catalogue item's payee and floor price on
 * the collectible; a voucher (signed by SIGNER_ROLE) can sell an item only at or above its floor, pays its
 * payee, and uses an order id of the voucher range (>= 2^64), so the signer key alone cannot mint below the
 * floor, redirect the studio's money, or take an order id of the minter's path (card/INR orders, below 2^64).
 */
contract DiginoorMarketplace is AccessControlDefaultAdminRules, EIP712, ReentrancyGuardTransient {
    /// @notice Role whose signatures are accepted on purchase vouchers (held by a key of its own, not the minter's).
    bytes32 public constant SIGNER_ROLE = keccak256("SIGNER_ROLE");
    /// @notice EIP-712 type of the primary-sale voucher.
    bytes32 public constant PURCHASE_VOUCHER_TYPEHASH = keccak256(
        "PurchaseVoucher(uint64 catalogueNftId,uint16 edition,uint256 priceWei,address buyer,uint16 platformFeeBps,bytes32 orderId,uint64 expiry)"
    );
    /// @notice Longest life of a voucher the server signs (expiry - signing time). A voucher signed before a
    /// primary fee decrease keeps its signed fee this long after the decrease, so it stays valid until expiry.
    uint40 public constant MAX_VOUCHER_LIFETIME = 1 days;

    uint256 private constant BPS = 10_000;

    /// @notice Upper bound of the resale platform fee (10%).
    uint16 public constant MAX_FEE_BPS = 1_000;
    /// @notice Upper bound of the platform's share of a primary sale (50%).
    uint16 public constant MAX_PRIMARY_FEE_BPS = 5_000;
    /// @notice Upper bound of the auction minimum increment (50%).
    uint16 public constant MAX_MIN_INCREMENT_BPS = 5_000;
    /// @notice Longest auction, in days.
    uint16 public constant MAX_AUCTION_DAYS = 30;
    /// @notice A bid in the last 15 minutes pushes the end to 15 minutes after the bid.
    uint40 public constant EXTENSION_WINDOW = 15 minutes;
    /// @notice Gas forwarded with pushed ETH payouts (plus the 2,300 call stipend).
    uint256 public constant PAYOUT_GAS = 10_000;
    /// @notice A fee increase takes effect this long after it is announced (decreases take effect at once).
    uint40 public constant FEE_INCREASE_DELAY = 7 days;
    /// @notice An announced fee increase lapses if it is not applied within this long after its effective time.
    uint40 public constant FEE_INCREASE_WINDOW = 7 days;
    /// @notice A pause ends by itself after this long, so nothing is locked for ever (even with no admin left).
    uint40 public constant MAX_PAUSE_DURATION = 7 days;
    /// @notice Time between the end of a pause and the next pause; longer than EXTENSION_WINDOW, so the
    /// bidding window that follows a pause is never cut short by another one.
    uint40 public constant PAUSE_COOLDOWN = 1 hours;

    /// @dev Everything the hot paths read and the fee accrual they write, in one slot: 128 + 16 + 16 + 16 + 40
    /// = 216 bits. `pausedAt` is the start of the current (or an expired, never lifted) pause; 0 when not
    /// paused. `accruedFees`: platform fees not yet sent to the treasury; in the slot the operation has already
    /// read, accruing a fee costs a warm write (2,900) instead of a cold slot's 5,000. 128 bits hold 3.4e38 wei,
    /// over 10^12 times all the ether there is (checked arithmetic all the same). The treasury (read only by
    /// {withdrawFees} and {setTreasury}) has a slot of its own.
    struct Config {
        uint128 accruedFees;
        uint16 feeBps;
        uint16 primaryFeeBps;
        uint16 minIncrementBps;
        uint40 pausedAt;
    }

    /// @dev The last pause that was lifted by `unpause` (or replaced after it expired).
    struct PauseHistory {
        uint40 pausedAt;
        uint40 unpausedAt;
    }

    /// @dev Announced fee increases: each applies (through {applyFeeIncreases}) once its time has come and
    /// before it lapses. `primaryFeeGraceBps`: the highest primary fee a voucher expiring by
    /// `primaryFeeGraceUntil` may carry (the fee before the last decrease; 0 when none).
    struct PendingFees {
        uint16 feeBps;
        uint40 feeEffectiveAt;
        uint16 primaryFeeBps;
        uint40 primaryFeeEffectiveAt;
        uint16 primaryFeeGraceBps;
        uint40 primaryFeeGraceUntil;
    }

    /// @dev One slot: 96 + 32 + 32 + 16 + 16 = 192 bits. The seller is not stored: a listing is live only while
    /// the token's version and its owner's approval epoch are those recorded at listing time, and the
    /// version changes with every transfer, so a live listing's seller is the token's current owner.
    /// `feeBps` and `royaltyBps` are the terms the seller agreed to when listing.
    struct Listing {
        uint96 price;
        uint32 tokenVersion;
        uint32 ownerEpoch;
        uint16 feeBps;
        uint16 royaltyBps;
    }

    /// @notice What {getListing} returns: the live listing of a token (all zero when there is none).
    struct ListingView {
        address seller;
        uint96 price;
        uint16 feeBps;
        uint16 royaltyBps;
    }

    /// @dev Two slots. `amount` is the reserve price until the first bid (highestBidder == 0), then the
    /// highest bid. `endTime` is 0 until the first bid starts the clock. `feeBps`/`royaltyBps`/`minIncrementBps`:
    /// the terms at creation, used at settlement and for every bid.
    struct Auction {
        address seller;
        uint40 endTime;
        uint8 durationDays;
        uint16 feeBps;
        uint16 royaltyBps;
        uint16 minIncrementBps;
        address highestBidder;
        uint96 amount;
    }

    /// @notice Server-signed primary-sale voucher. The catalogue item's payee (its primary terms on the
    /// collectible, DiginoorCollectible.primaryTerms) receives the
    /// revenue net of the platform share `platformFeeBps`, which is signed so a later fee change cannot alter
    /// what the production house was promised.
    struct PurchaseVoucher {
        uint64 catalogueNftId;
        uint16 edition;
        uint256 priceWei;
        address buyer;
        uint16 platformFeeBps;
        bytes32 orderId;
        uint64 expiry;
    }

    /// @notice A voucher as its buyer redeems it with {purchase}: the signed PurchaseVoucher without `buyer`, which is
    /// the caller (hashed from msg.sender: one calldata word less, docs/gas.md). A voucher signed for another buyer
    /// recovers another signer and is refused (InvalidSignature).
    struct Redemption {
        uint64 catalogueNftId;
        uint16 edition;
        uint256 priceWei;
        uint16 platformFeeBps;
        bytes32 orderId;
        uint64 expiry;
    }

    /// @notice The collectible this marketplace trades and mints.
    DiginoorCollectible public immutable collectible;

    Config private _config;
    address private _treasury;
    PauseHistory private _lastPause;
    PendingFees private _pendingFees;
    mapping(uint256 tokenId => Listing) private _listings;
    mapping(uint256 tokenId => Auction) private _auctions;
    /// @notice ETH an account can withdraw: a primary sale payee's proceeds, and payouts (or outbid refunds) whose
    /// push failed.
    mapping(address account => uint256) public pendingWithdrawals;
    /// @notice Vouchers cancelled before they expired (by EIP-712 digest, see {voucherDigest}).
    mapping(bytes32 digest => bool) public voucherCancelled;

    // ------------------------------------------------------------------ errors
    error EnforcedPause();
    error ExpectedPause();
    error PauseCooldown(uint256 allowedAt);
    error InvalidAddress();
    error InvalidPayee(address payee);
    error FeeTooHigh(uint256 bps, uint256 maxBps);
    error InvalidIncrement(uint256 bps);
    error NoFeeIncreaseDue();
    error VoucherExpired(uint64 expiry);
    error VoucherIsCancelled(bytes32 digest);
    error VoucherAlreadyRedeemed(bytes32 orderId);

    error VoucherFeeTooHigh(uint256 bps, uint256 maxBps);
    error InvalidSignature(address recovered);
    error WrongPayment(uint256 expected, uint256 sent);
    error InvalidPrice();
    error NotTokenOwner(uint256 tokenId, address caller);
    error MarketplaceNotApproved(uint256 tokenId);
    error AlreadyListed(uint256 tokenId);
    error TokenOnAuction(uint256 tokenId);
    error NotListed(uint256 tokenId);
    error NotListingSeller(uint256 tokenId, address caller);
    error BuyerIsSeller(uint256 tokenId);
    error PriceMismatch(uint256 expected, uint256 actual);
    error ListingStale(uint256 tokenId);
    error FeesExceedPrice(uint256 price, uint256 royalty, uint256 fee);
    error InvalidDuration(uint256 durationDays);
    error AuctionNotFound(uint256 tokenId);
    error NotAuctionSeller(uint256 tokenId, address caller);
    error SellerCannotBid(uint256 tokenId);
    error BidBelowReserve(uint256 reservePrice, uint256 bid);
    error BidTooLow(uint256 minimumBid, uint256 bid);
    error BidTooHigh(uint256 bid);
    error AuctionEnded(uint256 tokenId, uint256 endTime);
    error AuctionNotStarted(uint256 tokenId);
    error AuctionNotEnded(uint256 tokenId, uint256 endTime);
    error AuctionHasBids(uint256 tokenId);
    error NotStuck(uint256 tokenId);
    error NothingToWithdraw();
    error WithdrawFailed(address to, uint256 amount);

    // ------------------------------------------------------------------ events
    /// @notice Trading paused; the pause ends by itself at `endsBy` (MAX_PAUSE_DURATION) unless lifted earlier.
    event Paused(address indexed account, uint256 endsBy);
    /// @notice The pause that began at `pausedAt` was lifted. Every auction that was running at `pausedAt` and
    /// would have ended before `biddingUntil` now ends at `biddingUntil` (EXTENSION_WINDOW after the unpause).
    /// A pause that ends by itself at `endsBy` has the same effect with biddingUntil = endsBy + EXTENSION_WINDOW.
    event Unpaused(address indexed account, uint256 pausedAt, uint256 biddingUntil);
    event TreasuryUpdated(address indexed previousTreasury, address indexed newTreasury);
    event FeeUpdated(uint16 previousBps, uint16 newBps);
    event PrimaryFeeUpdated(uint16 previousBps, uint16 newBps);
    /// @notice A fee increase was announced; it can be applied from `effectiveAt`. `primary` tells which fee.
    event FeeIncreaseScheduled(bool indexed primary, uint16 newBps, uint256 effectiveAt);
    event MinIncrementUpdated(uint16 previousBps, uint16 newBps);
    /// @notice The voucher with EIP-712 digest `digest` (for order `orderId`) can no longer be redeemed; a new
    /// voucher for the same order (e.g. repriced) still can.
    event VoucherCancelled(bytes32 indexed orderId, bytes32 indexed digest, address indexed by);
    /// @notice Accrued platform fees were sent to the treasury.
    event FeesWithdrawn(address indexed treasury, uint256 amount);
    /// @notice The admin returned a token that was sent to the marketplace outside an auction.
    event TokenRescued(uint256 indexed tokenId, address indexed to);

    /// @notice A voucher was redeemed for `price`, of which `platformFee` accrued to the treasury and the rest was
    /// credited to the item's payee's {pendingWithdrawals}. The collectible's `CollectibleMinted` and `Transfer` (from 0) just before it in the same
    /// transaction name the item, edition, payee (its royalty receiver) and buyer (the `to`), so this event does not
    /// repeat them (each word of an event costs 256 gas, an indexed field 375; docs/gas.md).
    event PrimaryPurchase(uint256 indexed tokenId, uint256 price, uint256 platformFee);
    /// @notice A token was listed at `price` on the terms `feeBps` (platform) and `royaltyBps`.
    event Listed(uint256 indexed tokenId, address indexed seller, uint256 price, uint16 feeBps, uint16 royaltyBps);
    event ListingPriceUpdated(uint256 indexed tokenId, address indexed seller, uint256 previousPrice, uint256 newPrice);
    /// @notice A listing was removed. `seller` is the caller for an explicit cancel; it is 0 when a dead
    /// listing (its token moved or its approval was revoked since) is cleared by a new listing or an
    /// auction: that listing's seller is the one of its `Listed` event.
    event ListingCancelled(uint256 indexed tokenId, address indexed seller);
    /// @notice A listing was bought. `sellerProceeds = price - royaltyAmount - platformFee`.
    event Sale(
        uint256 indexed tokenId,
        address indexed seller,
        address indexed buyer,
        uint256 price,
        address royaltyReceiver,
        uint256 royaltyAmount,
        uint256 platformFee,
        uint256 sellerProceeds
    );
    event AuctionCreated(
        uint256 indexed tokenId,
        address indexed seller,
        uint256 reservePrice,
        uint16 durationDays,
        uint16 feeBps,
        uint16 royaltyBps,
        uint16 minIncrementBps
    );
    /// @notice A bid was accepted. `endTime` is the (possibly started or extended) end of the auction.
    event BidPlaced(
        uint256 indexed tokenId,
        address indexed bidder,
        uint256 amount,
        uint256 endTime,
        address previousBidder,
        uint256 previousBid
    );
    /// @notice A bid in the last 15 minutes moved the auction's end to `endTime` (15 minutes after the bid).
    event AuctionExtended(uint256 indexed tokenId, uint256 endTime);
    event AuctionCancelled(uint256 indexed tokenId, address indexed seller);
    /// @notice An auction was settled. `sellerProceeds = amount - royaltyAmount - platformFee`.
    event AuctionSettled(
        uint256 indexed tokenId,
        address indexed seller,
        address indexed winner,
        uint256 amount,
        address royaltyReceiver,
        uint256 royaltyAmount,
        uint256 platformFee,
        uint256 sellerProceeds
    );
    /// @notice A pushed payout (or outbid refund) failed and was credited to `payee`'s withdrawable balance.
    event PaymentDeferred(address indexed payee, uint256 amount);
    event Withdrawal(address indexed account, address indexed to, uint256 amount);

    /// @param adminDelay seconds a two-step admin transfer waits (AccessControlDefaultAdminRules).
    /// @param signer holder of SIGNER_ROLE (voucher signing); none when 0.
    constructor(DiginoorCollectible collectible_, address admin, uint48 adminDelay, address treasury_, address signer)
        EIP712("Diginoor Marketplace", "2")
        AccessControlDefaultAdminRules(adminDelay, admin)
    {
        if (address(collectible_) == address(0)) revert InvalidAddress();
        collectible = collectible_;
        _checkPayee(treasury_);
        _treasury = treasury_;
        _config = Config({accruedFees: 0, feeBps: 250, primaryFeeBps: 250, minIncrementBps: 500, pausedAt: 0});
        if (signer != address(0)) _grantRole(SIGNER_ROLE, signer);
        emit TreasuryUpdated(address(0), treasury_);
        emit FeeUpdated(0, 250);
        emit PrimaryFeeUpdated(0, 250);
        emit MinIncrementUpdated(0, 500);
    }

    // ================================================================== primary sales

    /**
     * @notice Redeem a server-signed voucher: pay exactly `priceWei` (at least the item's floor), mint token
     * `uint256(orderId)` to the buyer (the caller), credit the signed platform share to the treasury's fees and
     * the rest to the item's payee's withdrawable balance ({pendingWithdrawals}, taken with {withdraw}).
     */
    function purchase(Redemption calldata voucher, bytes calldata signature)
        external
        payable
        nonReentrant
        returns (uint256 tokenId)
    {
        Config memory cfg = _config;
        if (_isPaused(cfg)) revert EnforcedPause();
        if (block.timestamp > voucher.expiry) revert VoucherExpired(voucher.expiry);
        if (msg.value != voucher.priceWei) revert WrongPayment(voucher.priceWei, msg.value);
        // The signed share is at most today's rate, or the rate before the last decrease for a voucher that
        // expires within MAX_VOUCHER_LIFETIME of that decrease (it was signed before it, or just after by a
        // signer that had not yet seen it): a voucher valid when signed stays valid until it expires.
        if (voucher.platformFeeBps > cfg.primaryFeeBps) _checkGraceFee(voucher.platformFeeBps, voucher.expiry, cfg);
        // The buyer is the caller: a voucher signed for another buyer hashes differently and recovers another signer.
        bytes32 digest = _hashTypedDataV4(
            _hashVoucher(
                voucher.catalogueNftId,
                voucher.edition,
                voucher.priceWei,
                msg.sender,
                voucher.platformFeeBps,
                voucher.orderId,
                voucher.expiry
            )
        );
        if (voucherCancelled[digest]) revert VoucherIsCancelled(digest);
        address signer = ECDSA.recoverCalldata(digest, signature);
        if (!hasRole(SIGNER_ROLE, signer)) revert InvalidSignature(signer);

        // Mint: the collectible checks the order id's range and the item's floor price and returns its payee
        // (reverts OrderAlreadyMinted on replay). Marketplace state is not touched before it, so the mint
        // callback into a contract buyer sees a consistent state (and cannot re-enter: nonReentrant).
        tokenId = uint256(voucher.orderId);
        address payee = collectible.mintPrimary(
            msg.sender, voucher.catalogueNftId, voucher.edition, voucher.orderId, msg.value
        );
        uint256 fee = (msg.value * voucher.platformFeeBps) / BPS;
        emit PrimaryPurchase(tokenId, msg.value, fee);
        _accrueFee(fee);
        // Pull payment (decision 106): the payee's proceeds are credited, never pushed, so a payee that cannot
        // receive ETH cannot block a primary sale, and a credit to a non-zero balance costs 5,000 gas against a
        // push's ~9,300. The payee takes it with {withdraw} or {withdrawTo}. No event: PrimaryPurchase's
        // `price - platformFee` is the credit, and the payee is the token's royalty receiver (CollectibleMinted).
        pendingWithdrawals[payee] += msg.value - fee;
    }

    /// @dev EIP-712 struct hash of a voucher (without the domain).
    function _hashVoucher(
        uint64 catalogueNftId,
        uint16 edition,
        uint256 priceWei,
        address buyer,
        uint16 platformFeeBps,
        bytes32 orderId,
        uint64 expiry
    ) private pure returns (bytes32) {
        return keccak256(
            abi.encode(PURCHASE_VOUCHER_TYPEHASH, catalogueNftId, edition, priceWei, buyer, platformFeeBps, orderId, expiry)
        );
    }

    /// @dev EIP-712 digest of a full voucher (with its buyer).
    function _voucherDigest(PurchaseVoucher calldata v) private view returns (bytes32) {
        return _hashTypedDataV4(
            _hashVoucher(v.catalogueNftId, v.edition, v.priceWei, v.buyer, v.platformFeeBps, v.orderId, v.expiry)
        );
    }

    /// @notice EIP-712 digest that the signer signs for `v` on this chain and contract.
    function voucherDigest(PurchaseVoucher calldata v) external view returns (bytes32) {
        return _voucherDigest(v);
    }

    /**
     * @notice Cancel one voucher before it expires (a signer or the admin), e.g. when its order is refunded or
     * repriced: a new voucher for the same order is still accepted. Refused once the order is minted.
     */
    function cancelVoucher(PurchaseVoucher calldata v) external nonReentrant {
        if (!hasRole(SIGNER_ROLE, msg.sender) && msg.sender != defaultAdmin()) {
            revert AccessControlUnauthorizedAccount(msg.sender, SIGNER_ROLE);
        }
        if (collectible.isOrderMinted(v.orderId)) revert VoucherAlreadyRedeemed(v.orderId);
        bytes32 digest = _voucherDigest(v);
        voucherCancelled[digest] = true;
        emit VoucherCancelled(v.orderId, digest, msg.sender);
    }

    // ================================================================== resale listings

    /**
     * @notice List `tokenId` at `price` wei on today's fee and royalty rates. The caller must own it and have
     * approved this marketplace (setApprovalForAll or approve). The token stays in the seller's wallet.
     * The listing dies for good when the token moves, when its single approval changes, or when the seller
     * revokes an operator approval: it never comes back, whatever happens later.
     */
    function list(uint256 tokenId, uint96 price) external nonReentrant {
        Config memory cfg = _config;
        if (_isPaused(cfg)) revert EnforcedPause();
        if (price == 0) revert InvalidPrice();
        (address owner, uint32 version, uint32 epoch,, uint16 royaltyBps) = collectible.tokenState(tokenId);
        if (owner != msg.sender) _revertNotOwner(tokenId, owner);
        Listing memory existing = _listings[tokenId];
        if (existing.price != 0) {
            if (existing.tokenVersion == version && existing.ownerEpoch == epoch) revert AlreadyListed(tokenId);
            emit ListingCancelled(tokenId, address(0));
        }
        if (!collectible.isApprovedForAll(msg.sender, address(this)) && collectible.getApproved(tokenId) != address(this))
        {
            revert MarketplaceNotApproved(tokenId);
        }
        _listings[tokenId] = Listing(price, version, epoch, cfg.feeBps, royaltyBps);
        emit Listed(tokenId, msg.sender, price, cfg.feeBps, royaltyBps);
    }

    /// @notice Change the price of your live listing (its terms stay those agreed when listing).
    function updatePrice(uint256 tokenId, uint96 newPrice) external nonReentrant {
        if (_isPaused(_config)) revert EnforcedPause();
        if (newPrice == 0) revert InvalidPrice();
        Listing storage l = _listings[tokenId];
        uint96 previous = l.price;
        if (previous == 0) revert NotListed(tokenId);
        (address owner, uint32 version, uint32 epoch,,) = collectible.tokenState(tokenId);
        if (owner != msg.sender) revert NotListingSeller(tokenId, msg.sender);
        if (version != l.tokenVersion || epoch != l.ownerEpoch) revert ListingStale(tokenId);
        l.price = newPrice;
        emit ListingPriceUpdated(tokenId, msg.sender, previous, newPrice);
    }

    /// @notice Remove the listing of a token you own, live or dead (allowed while paused).
    function cancelListing(uint256 tokenId) external nonReentrant {
        if (_listings[tokenId].price == 0) revert NotListed(tokenId);
        if (collectible.ownerOf(tokenId) != msg.sender) revert NotListingSeller(tokenId, msg.sender);
        delete _listings[tokenId];
        emit ListingCancelled(tokenId, msg.sender);
    }

    /**
     * @notice Buy a listed token, paying exactly the listed price. `expectedPrice` guards against a price
     * change front-running the purchase. Pays the seller, the royalty and the platform fee at the rates
     * recorded in the listing.
     */
    function buy(uint256 tokenId, uint256 expectedPrice) external payable nonReentrant {
        // Only the pause field: copying the whole config to memory costs more than this read of it.
        if (_isPausedSince(_config.pausedAt)) revert EnforcedPause();
        Listing memory l = _listings[tokenId];
        if (l.price == 0) revert NotListed(tokenId);
        if (l.price != expectedPrice) revert PriceMismatch(expectedPrice, l.price);
        if (msg.value != l.price) revert WrongPayment(l.price, msg.value);
        (address seller, uint32 version, uint32 epoch, address royaltyReceiver,) = collectible.tokenState(tokenId);
        // The token moved, its approval changed or the seller revoked an operator since listing: dead for good.
        if (version != l.tokenVersion || epoch != l.ownerEpoch) revert ListingStale(tokenId);
        if (seller == msg.sender) revert BuyerIsSeller(tokenId);
        uint256 royalty = (msg.value * l.royaltyBps) / BPS;
        uint256 fee = (msg.value * l.feeBps) / BPS;
        if (royalty + fee > msg.value) revert FeesExceedPrice(msg.value, royalty, fee);
        uint256 proceeds = msg.value - royalty - fee;
        delete _listings[tokenId];
        collectible.safeTransferFrom(seller, msg.sender, tokenId);
        emit Sale(tokenId, seller, msg.sender, msg.value, royaltyReceiver, royalty, fee, proceeds);
        _accrueFee(fee);
        _pay(royaltyReceiver, royalty);
        _pay(seller, proceeds);
    }

    /// @notice The live listing of `tokenId` (all zero when there is none, or when the stored one is dead).
    function getListing(uint256 tokenId) external view returns (ListingView memory) {
        Listing memory l = _listings[tokenId];
        if (l.price == 0) return ListingView(address(0), 0, 0, 0);
        (address owner, uint32 version, uint32 epoch,,) = collectible.tokenState(tokenId);
        if (version != l.tokenVersion || epoch != l.ownerEpoch) return ListingView(address(0), 0, 0, 0);
        return ListingView(owner, l.price, l.feeBps, l.royaltyBps);
    }

    /// @notice Whether `tokenId` has a listing that can be bought now.
    function isListingLive(uint256 tokenId) external view returns (bool) {
        Listing memory l = _listings[tokenId];
        if (l.price == 0) return false;
        (, uint32 version, uint32 epoch,,) = collectible.tokenState(tokenId);
        return version == l.tokenVersion && epoch == l.ownerEpoch;
    }

    // ================================================================== English auctions

    /**
     * @notice Put `tokenId` up for auction on today's fee and royalty rates. The token is escrowed by this
     * contract (needs approval). The clock (`durationDays` days) starts with the first bid at or above
     * `reservePrice`. A dead listing of the token is cleared; a live one must be cancelled first.
     */
    function createAuction(uint256 tokenId, uint96 reservePrice, uint16 durationDays) external nonReentrant {
        Config memory cfg = _config;
        if (_isPaused(cfg)) revert EnforcedPause();
        if (reservePrice == 0) revert InvalidPrice();
        if (durationDays == 0 || durationDays > MAX_AUCTION_DAYS) revert InvalidDuration(durationDays);
        (address owner, uint32 version, uint32 epoch,, uint16 royaltyBps) = collectible.tokenState(tokenId);
        if (owner != msg.sender) _revertNotOwner(tokenId, owner);
        Listing memory l = _listings[tokenId];
        if (l.price != 0) {
            if (l.tokenVersion == version && l.ownerEpoch == epoch) revert AlreadyListed(tokenId);
            delete _listings[tokenId];
            emit ListingCancelled(tokenId, address(0));
        }
        // transferFrom checks the approval.
        _auctions[tokenId] = Auction(
            msg.sender, 0, uint8(durationDays), cfg.feeBps, royaltyBps, cfg.minIncrementBps, address(0), reservePrice
        );
        emit AuctionCreated(
            tokenId, msg.sender, reservePrice, durationDays, cfg.feeBps, royaltyBps, cfg.minIncrementBps
        );
        collectible.transferFrom(msg.sender, address(this), tokenId);
    }

    /**
     * @notice Bid `msg.value` on `tokenId`. The first bid must be at least the reserve and starts the clock;
     * later bids must beat the highest by the minimum increment. A bid in the last 15 minutes extends the
     * end to 15 minutes after it. An auction that was running when a pause began takes bids until 15 minutes
     * after the pause ended. The previous highest bidder is refunded at once (gas-capped), or credited
     * to `pendingWithdrawals` if the refund fails.
     */
    function bid(uint256 tokenId) external payable nonReentrant {
        Config memory cfg = _config;
        if (_isPaused(cfg)) revert EnforcedPause();
        Auction storage a = _auctions[tokenId];
        address seller = a.seller;
        if (seller == address(0)) revert AuctionNotFound(tokenId);
        if (msg.sender == seller) revert SellerCannotBid(tokenId);
        if (msg.value > type(uint96).max) revert BidTooHigh(msg.value);
        address previousBidder = a.highestBidder;
        uint256 previousAmount = a.amount;
        uint256 endTime;
        if (previousBidder == address(0)) {
            if (msg.value < previousAmount) revert BidBelowReserve(previousAmount, msg.value);
            endTime = block.timestamp + uint256(a.durationDays) * 1 days;
            a.endTime = uint40(endTime);
            previousAmount = 0;
        } else {
            endTime = a.endTime;
            if (block.timestamp >= endTime) {
                uint256 fairEnd = _fairEnd(endTime, cfg);
                if (block.timestamp >= fairEnd) revert AuctionEnded(tokenId, fairEnd);
            }
            uint256 increment = (previousAmount * a.minIncrementBps) / BPS;
            uint256 minimum = previousAmount + (increment == 0 ? 1 : increment);
            if (msg.value < minimum) revert BidTooLow(minimum, msg.value);
            if (endTime < block.timestamp + EXTENSION_WINDOW) {
                endTime = block.timestamp + EXTENSION_WINDOW;
                a.endTime = uint40(endTime);
                emit AuctionExtended(tokenId, endTime);
            }
        }
        a.highestBidder = msg.sender;
        a.amount = uint96(msg.value);
        emit BidPlaced(tokenId, msg.sender, msg.value, endTime, previousBidder, previousAmount);
        if (previousAmount != 0) _pay(previousBidder, previousAmount);
    }

    /**
     * @notice Settle an ended auction (anyone): token to the winner, proceeds split at the auction's terms.
     * Allowed during a pause only for an auction that had ended before the pause began.
     */
    function settle(uint256 tokenId) external nonReentrant {
        Config memory cfg = _config;
        Auction memory a = _auctions[tokenId];
        if (a.seller == address(0)) revert AuctionNotFound(tokenId);
        if (a.highestBidder == address(0)) revert AuctionNotStarted(tokenId);
        uint256 end = block.timestamp >= a.endTime ? _fairEnd(a.endTime, cfg) : a.endTime;
        if (block.timestamp < end) revert AuctionNotEnded(tokenId, end);
        if (_isPaused(cfg) && end > cfg.pausedAt) revert EnforcedPause();
        delete _auctions[tokenId];
        // Plain transfer: a winner contract without onERC721Received still gets the token it paid for
        // (docs/decisions/105-auction-escrow-and-winner-transfer.md).
        collectible.transferFrom(address(this), a.highestBidder, tokenId);
        (address royaltyReceiver,) = collectible.royaltyInfo(tokenId, 0);
        uint256 royalty = (uint256(a.amount) * a.royaltyBps) / BPS;
        uint256 fee = (uint256(a.amount) * a.feeBps) / BPS;
        if (royalty + fee > a.amount) revert FeesExceedPrice(a.amount, royalty, fee);
        uint256 proceeds = a.amount - royalty - fee;
        emit AuctionSettled(tokenId, a.seller, a.highestBidder, a.amount, royaltyReceiver, royalty, fee, proceeds);
        _accrueFee(fee);
        _pay(royaltyReceiver, royalty);
        _pay(a.seller, proceeds);
    }

    /// @notice The seller cancels an auction that has no bid yet; the token goes back (allowed while paused).
    function cancelAuction(uint256 tokenId) external nonReentrant {
        Auction memory a = _auctions[tokenId];
        if (a.seller == address(0)) revert AuctionNotFound(tokenId);
        if (a.seller != msg.sender) revert NotAuctionSeller(tokenId, msg.sender);
        if (a.highestBidder != address(0)) revert AuctionHasBids(tokenId);
        delete _auctions[tokenId];
        emit AuctionCancelled(tokenId, msg.sender);
        collectible.transferFrom(address(this), msg.sender, tokenId);
    }

    /// @notice The auction of `tokenId` (seller 0 when none). `amount` is the reserve until the first bid.
    function getAuction(uint256 tokenId) external view returns (Auction memory) {
        return _auctions[tokenId];
    }

    /**
     * @notice When bidding on `tokenId` closes (0 before the first bid): its end time, or EXTENSION_WINDOW after
     * the end of a pause that began while it ran, from the moment that pause ends. During such a pause, the
     * latest it can be: EXTENSION_WINDOW after the pause would end by itself (an unpause brings it forward).
     */
    function auctionEndsAt(uint256 tokenId) external view returns (uint256) {
        Auction storage a = _auctions[tokenId];
        if (a.seller == address(0)) revert AuctionNotFound(tokenId);
        uint256 endTime = a.endTime;
        if (endTime == 0) return 0;
        Config memory cfg = _config;
        if (_isPaused(cfg) && cfg.pausedAt < endTime) {
            uint256 latest = uint256(cfg.pausedAt) + MAX_PAUSE_DURATION + EXTENSION_WINDOW;
            return latest > endTime ? latest : endTime;
        }
        return _fairEnd(endTime, cfg);
    }

    /// @notice The smallest acceptable next bid on `tokenId` (reserve before the first bid).
    function minimumBid(uint256 tokenId) external view returns (uint256) {
        Auction storage a = _auctions[tokenId];
        if (a.seller == address(0)) revert AuctionNotFound(tokenId);
        uint256 amount = a.amount;
        if (a.highestBidder == address(0)) return amount;
        uint256 increment = (amount * a.minIncrementBps) / BPS;
        return amount + (increment == 0 ? 1 : increment);
    }

    // ================================================================== withdrawals

    /// @notice Withdraw your whole pending balance to yourself (never paused).
    function withdraw() external nonReentrant {
        _withdraw(payable(msg.sender));
    }

    /// @notice Withdraw your whole pending balance to `to` (for contracts that cannot receive ETH).
    function withdrawTo(address payable to) external nonReentrant {
        if (to == address(0)) revert InvalidAddress();
        _withdraw(to);
    }

    function _withdraw(address payable to) private {
        uint256 amount = pendingWithdrawals[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        pendingWithdrawals[msg.sender] = 0;
        emit Withdrawal(msg.sender, to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert WithdrawFailed(to, amount);
    }

    // ================================================================== admin

    /// @notice Pause trading for at most MAX_PAUSE_DURATION; not again within PAUSE_COOLDOWN of the last pause's end.
    function pause() external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        Config memory cfg = _config;
        if (_isPaused(cfg)) revert EnforcedPause();
        PauseHistory memory last = _lastPause;
        if (cfg.pausedAt != 0) {
            // The previous pause expired without an unpause: it becomes the last pause.
            last = PauseHistory(cfg.pausedAt, cfg.pausedAt + MAX_PAUSE_DURATION);
            _lastPause = last;
        }
        if (last.unpausedAt != 0 && block.timestamp < uint256(last.unpausedAt) + PAUSE_COOLDOWN) {
            revert PauseCooldown(uint256(last.unpausedAt) + PAUSE_COOLDOWN);
        }
        _config.pausedAt = uint40(block.timestamp);
        emit Paused(msg.sender, block.timestamp + MAX_PAUSE_DURATION);
    }

    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        Config memory cfg = _config;
        if (!_isPaused(cfg)) revert ExpectedPause();
        _lastPause = PauseHistory(cfg.pausedAt, uint40(block.timestamp));
        _config.pausedAt = 0;
        emit Unpaused(msg.sender, cfg.pausedAt, block.timestamp + EXTENSION_WINDOW);
    }

    /// @notice Change the treasury; the fees accrued so far are paid to the previous one first.
    function setTreasury(address newTreasury) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        _checkPayee(newTreasury);
        address previous = _treasury;
        emit TreasuryUpdated(previous, newTreasury);
        _treasury = newTreasury;
        uint256 fees = _config.accruedFees;
        if (fees != 0) {
            _config.accruedFees = 0;
            emit FeesWithdrawn(previous, fees);
            _pay(previous, fees);
        }
    }

    /// @notice Send the accrued platform fees to the treasury (anyone may call; never paused).
    function withdrawFees() external nonReentrant {
        uint256 fees = _config.accruedFees;
        if (fees == 0) revert NothingToWithdraw();
        _config.accruedFees = 0;
        address to = _treasury;
        emit FeesWithdrawn(to, fees);
        (bool ok,) = to.call{value: fees}("");
        if (!ok) revert WithdrawFailed(to, fees);
    }

    /// @notice Platform fees accrued and not yet sent to the treasury.
    function accruedFees() external view returns (uint256) {
        return _config.accruedFees;
    }

    /// @notice Resale platform fee in basis points (default 250, at most MAX_FEE_BPS). A decrease applies at
    /// once; an increase is announced and applies FEE_INCREASE_DELAY later (see {applyFeeIncreases}).
    function setFeeBps(uint16 bps) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps, MAX_FEE_BPS);
        uint16 current = _config.feeBps;
        if (bps <= current) {
            _pendingFees.feeBps = 0;
            _pendingFees.feeEffectiveAt = 0;
            emit FeeUpdated(current, bps);
            _config.feeBps = bps;
        } else {
            uint40 effectiveAt = uint40(block.timestamp) + FEE_INCREASE_DELAY;
            _pendingFees.feeBps = bps;
            _pendingFees.feeEffectiveAt = effectiveAt;
            emit FeeIncreaseScheduled(false, bps, effectiveAt);
        }
    }

    /// @notice Platform share of primary sales (the highest share a voucher may carry; default 250, at most
    /// MAX_PRIMARY_FEE_BPS). Decreases apply at once, increases FEE_INCREASE_DELAY later.
    function setPrimaryFeeBps(uint16 bps) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (bps > MAX_PRIMARY_FEE_BPS) revert FeeTooHigh(bps, MAX_PRIMARY_FEE_BPS);
        uint16 current = _config.primaryFeeBps;
        if (bps <= current) {
            PendingFees memory p = _pendingFees;
            p.primaryFeeBps = 0;
            p.primaryFeeEffectiveAt = 0;
            if (bps < current) {
                // Vouchers signed at `current` stay redeemable until they expire (at most MAX_VOUCHER_LIFETIME).
                uint16 grace = current;
                if (block.timestamp <= p.primaryFeeGraceUntil && p.primaryFeeGraceBps > grace) {
                    grace = p.primaryFeeGraceBps;
                }
                p.primaryFeeGraceBps = grace;
                p.primaryFeeGraceUntil = uint40(block.timestamp) + MAX_VOUCHER_LIFETIME;
            }
            _pendingFees = p;
            emit PrimaryFeeUpdated(current, bps);
            _config.primaryFeeBps = bps;
        } else {
            uint40 effectiveAt = uint40(block.timestamp) + FEE_INCREASE_DELAY;
            _pendingFees.primaryFeeBps = bps;
            _pendingFees.primaryFeeEffectiveAt = effectiveAt;
            emit FeeIncreaseScheduled(true, bps, effectiveAt);
        }
    }

    /// @notice Apply the announced fee increases whose time has come and that have not lapsed (anyone may call).
    function applyFeeIncreases() external nonReentrant {
        PendingFees memory p = _pendingFees;
        bool applied;
        if (_due(p.feeEffectiveAt)) {
            emit FeeUpdated(_config.feeBps, p.feeBps);
            _config.feeBps = p.feeBps;
            p.feeBps = 0;
            p.feeEffectiveAt = 0;
            applied = true;
        }
        if (_due(p.primaryFeeEffectiveAt)) {
            emit PrimaryFeeUpdated(_config.primaryFeeBps, p.primaryFeeBps);
            _config.primaryFeeBps = p.primaryFeeBps;
            p.primaryFeeBps = 0;
            p.primaryFeeEffectiveAt = 0;
            applied = true;
        }
        if (!applied) revert NoFeeIncreaseDue();
        _pendingFees = p;
    }

    /// @notice Announced fee increases: (fee, effective at, primary fee, effective at); zeros when none.
    function pendingFees() external view returns (PendingFees memory) {
        return _pendingFees;
    }

    /// @notice Minimum auction increment in basis points (default 500 = 5%), for auctions created afterwards.
    function setMinIncrementBps(uint16 bps) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (bps == 0 || bps > MAX_MIN_INCREMENT_BPS) revert InvalidIncrement(bps);
        emit MinIncrementUpdated(_config.minIncrementBps, bps);
        _config.minIncrementBps = bps;
    }

    /// @notice Return a token that was sent to the marketplace outside an auction (a plain `transferFrom`)
    /// to `to`, normally its sender as the `Transfer` event shows. Admin only.
    function rescueToken(uint256 tokenId, address to) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (to == address(0)) revert InvalidAddress();
        if (_auctions[tokenId].seller != address(0) || collectible.ownerOf(tokenId) != address(this)) {
            revert NotStuck(tokenId);
        }
        emit TokenRescued(tokenId, to);
        collectible.transferFrom(address(this), to, tokenId);
    }


    // ================================================================== views

    /// @notice Whether trading is paused now (a pause ends by itself after MAX_PAUSE_DURATION).
    function paused() external view returns (bool) {
        return _isPaused(_config);
    }

    function treasury() external view returns (address) {
        return _treasury;
    }

    function feeBps() external view returns (uint16) {
        return _config.feeBps;
    }

    function primaryFeeBps() external view returns (uint16) {
        return _config.primaryFeeBps;
    }

    function minIncrementBps() external view returns (uint16) {
        return _config.minIncrementBps;
    }

    // ================================================================== internals

    /// @dev Whether an announced increase effective at `effectiveAt` can be applied now (not lapsed).
    function _due(uint40 effectiveAt) private view returns (bool) {
        return effectiveAt != 0 && block.timestamp >= effectiveAt
            && block.timestamp <= uint256(effectiveAt) + FEE_INCREASE_WINDOW;
    }

    /// @dev A voucher fee above today's primary fee is accepted only as the fee before the last decrease, for a
    /// voucher expiring within MAX_VOUCHER_LIFETIME of it.
    function _checkGraceFee(uint16 bps, uint64 expiry, Config memory cfg) private view {
        PendingFees memory p = _pendingFees;
        if (bps > p.primaryFeeGraceBps || expiry > p.primaryFeeGraceUntil) {
            revert VoucherFeeTooHigh(bps, cfg.primaryFeeBps);
        }
    }

    /// @dev Credit a platform fee to the treasury's accrued fees (sent by {withdrawFees}). `fee` is at most the
    /// price paid (< 2^96), and the sum stays far below 2^128; the cast is checked all the same.
    function _accrueFee(uint256 fee) private {
        if (fee != 0) _config.accruedFees += SafeCast.toUint128(fee);
    }

    function _isPaused(Config memory cfg) private view returns (bool) {
        return _isPausedSince(cfg.pausedAt);
    }

    /// @dev Whether a pause that began at `pausedAt` (0: none) is still on.
    function _isPausedSince(uint40 pausedAt) private view returns (bool) {
        return pausedAt != 0 && block.timestamp < uint256(pausedAt) + MAX_PAUSE_DURATION;
    }

    /**
     * @dev When bidding on an auction with end `endTime` really closes: if the last finished pause began
     * before `endTime` (the auction was running) and ended less than EXTENSION_WINDOW before it, bidders get
     * until EXTENSION_WINDOW after the pause's end. PAUSE_COOLDOWN > EXTENSION_WINDOW, so only the last
     * pause can matter: an earlier one's window had closed before the last one began.
     */
    function _fairEnd(uint256 endTime, Config memory cfg) private view returns (uint256) {
        uint256 pausedAt;
        uint256 unpausedAt;
        if (cfg.pausedAt != 0 && !_isPaused(cfg)) {
            pausedAt = cfg.pausedAt;
            unpausedAt = pausedAt + MAX_PAUSE_DURATION;
        } else {
            PauseHistory memory last = _lastPause;
            pausedAt = last.pausedAt;
            unpausedAt = last.unpausedAt;
        }
        if (pausedAt != 0 && pausedAt < endTime && unpausedAt + EXTENSION_WINDOW > endTime) {
            return unpausedAt + EXTENSION_WINDOW;
        }
        return endTime;
    }

    function _revertNotOwner(uint256 tokenId, address owner) private view {
        if (owner == address(this) && _auctions[tokenId].seller != address(0)) revert TokenOnAuction(tokenId);
        revert NotTokenOwner(tokenId, msg.sender);
    }

    /// @dev A payee must be able to withdraw: never zero, this marketplace or the collectible.
    function _checkPayee(address payee) private view {
        if (payee == address(0) || payee == address(this) || payee == address(collectible)) {
            revert InvalidPayee(payee);
        }
    }

    /// @dev Push `amount` to `to` with a gas cap and no returndata copy; on failure credit it to
    /// `pendingWithdrawals[to]` so the payee cannot block the operation.
    function _pay(address to, uint256 amount) private {
        if (amount == 0) return;
        bool ok;
        assembly ("memory-safe") {
            ok := call(PAYOUT_GAS, to, amount, 0, 0, 0, 0)
        }
        if (!ok) {
            pendingWithdrawals[to] += amount;
            emit PaymentDeferred(to, amount);
        }
    }
}
