// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {DiginoorCollectible} from "./DiginoorCollectible.sol";

/**
 * @title DiginoorMarketplace
 * @notice Primary sales against server-signed EIP-712 vouchers (mint to the buyer), fixed-price resale
 * listings (approval based, no custody) and English auctions (token escrowed while the auction runs).
 *
 * Safety: every state-changing external function is `nonReentrant` (transient-storage guard) and follows
 * checks-effects-interactions. All ETH payouts are pushed with a gas cap (PAYOUT_GAS) and fall back to a
 * withdrawable balance, so no payee (seller, royalty receiver, treasury, outbid bidder) can block others.
 * Invariant: address(this).balance == sum(escrowed highest bids) + sum(pendingWithdrawals).
 * Pause stops purchases, listings, price updates, sales, auctions, bids and settlement; it never stops
 * cancelling or withdrawing.
 */
contract DiginoorMarketplace is AccessControl, EIP712, ReentrancyGuardTransient {
    /// @notice Role whose signatures are accepted on purchase vouchers.
    bytes32 public constant SIGNER_ROLE = keccak256("SIGNER_ROLE");
    /// @notice EIP-712 type of the primary-sale voucher.
    bytes32 public constant PURCHASE_VOUCHER_TYPEHASH = keccak256(
        "PurchaseVoucher(uint64 catalogueNftId,uint16 edition,uint256 priceWei,address buyer,address productionHouse,bytes32 orderId,uint64 expiry)"
    );

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

    /// @dev Everything the hot paths read, in one slot: 160 + 16 + 16 + 16 + 8 = 216 bits.
    struct Config {
        address treasury;
        uint16 feeBps;
        uint16 primaryFeeBps;
        uint16 minIncrementBps;
        bool paused;
    }

    /// @dev One slot: 160 + 80 + 16. `transferCount` is the token's transfer count when listed: the
    /// listing is live only while the seller owns the token AND the token has not moved since.
    struct Listing {
        address seller;
        uint80 price;
        uint16 transferCount;
    }

    /// @dev Two slots. `amount` is the reserve price until the first bid (highestBidder == 0), then the
    /// highest bid. `endTime` is 0 until the first bid starts the clock.
    struct Auction {
        address seller;
        uint40 endTime;
        uint16 durationDays;
        address highestBidder;
        uint96 amount;
    }

    /// @notice Server-signed primary-sale voucher. `productionHouse` receives the revenue net of the platform
    /// share and becomes the token's royalty receiver; it is signed so a buyer cannot redirect revenue.
    struct PurchaseVoucher {
        uint64 catalogueNftId;
        uint16 edition;
        uint256 priceWei;
        address buyer;
        address productionHouse;
        bytes32 orderId;
        uint64 expiry;
    }

    /// @notice The collectible this marketplace trades and mints.
    DiginoorCollectible public immutable collectible;

    Config private _config;
    mapping(uint256 tokenId => Listing) private _listings;
    mapping(uint256 tokenId => Auction) private _auctions;
    /// @notice ETH owed to an account whose pushed payout failed (or that was outbid and rejected the refund).
    mapping(address account => uint256) public pendingWithdrawals;

    // ------------------------------------------------------------------ errors
    error EnforcedPause();
    error ExpectedPause();
    error InvalidAddress();
    error FeeTooHigh(uint256 bps, uint256 maxBps);
    error InvalidIncrement(uint256 bps);
    error VoucherExpired(uint64 expiry);
    error InvalidSignature(address recovered);
    error NotVoucherBuyer(address buyer, address caller);
    error WrongPayment(uint256 expected, uint256 sent);
    error InvalidPrice();
    error NotTokenOwner(uint256 tokenId, address caller);
    error MarketplaceNotApproved(uint256 tokenId);
    error AlreadyListed(uint256 tokenId);
    error TokenOnAuction(uint256 tokenId);
    error NotListed(uint256 tokenId);
    error NotListingSeller(uint256 tokenId, address caller);
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
    error NothingToWithdraw();
    error WithdrawFailed(address to, uint256 amount);

    // ------------------------------------------------------------------ events
    event Paused(address account);
    event Unpaused(address account);
    event TreasuryUpdated(address indexed previousTreasury, address indexed newTreasury);
    event FeeUpdated(uint16 previousBps, uint16 newBps);
    event PrimaryFeeUpdated(uint16 previousBps, uint16 newBps);
    event MinIncrementUpdated(uint16 previousBps, uint16 newBps);

    /// @notice A voucher was redeemed: the token `tokenId` (== uint256(orderId)) was minted to `buyer`.
    event PrimaryPurchase(
        uint256 indexed tokenId,
        address indexed buyer,
        address indexed productionHouse,
        uint64 catalogueNftId,
        uint16 edition,
        bytes32 orderId,
        uint256 price,
        uint256 platformFee
    );
    event Listed(uint256 indexed tokenId, address indexed seller, uint256 price);
    event ListingPriceUpdated(uint256 indexed tokenId, address indexed seller, uint256 previousPrice, uint256 newPrice);
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
    event AuctionCreated(uint256 indexed tokenId, address indexed seller, uint256 reservePrice, uint16 durationDays);
    /// @notice A bid was accepted. `endTime` is the (possibly started or extended) end of the auction.
    event BidPlaced(
        uint256 indexed tokenId,
        address indexed bidder,
        uint256 amount,
        uint256 endTime,
        address previousBidder,
        uint256 previousBid
    );
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

    constructor(DiginoorCollectible collectible_, address admin, address treasury_, address signer)
        EIP712("Diginoor Marketplace", "1")
    {
        if (address(collectible_) == address(0) || admin == address(0) || treasury_ == address(0)) {
            revert InvalidAddress();
        }
        collectible = collectible_;
        _config = Config({treasury: treasury_, feeBps: 250, primaryFeeBps: 250, minIncrementBps: 500, paused: false});
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        if (signer != address(0)) _grantRole(SIGNER_ROLE, signer);
        emit TreasuryUpdated(address(0), treasury_);
        emit FeeUpdated(0, 250);
        emit PrimaryFeeUpdated(0, 250);
        emit MinIncrementUpdated(0, 500);
    }

    modifier whenNotPaused() {
        if (_config.paused) revert EnforcedPause();
        _;
    }

    // ================================================================== primary sales

    /**
     * @notice Redeem a server-signed voucher: pay exactly `priceWei`, mint token `uint256(orderId)` to the
     * buyer (the caller), pay the platform share to the treasury and the rest to the production house.
     */
    function purchase(PurchaseVoucher calldata voucher, bytes calldata signature)
        external
        payable
        nonReentrant
        returns (uint256 tokenId)
    {
        Config memory cfg = _config;
        if (cfg.paused) revert EnforcedPause();
        if (block.timestamp > voucher.expiry) revert VoucherExpired(voucher.expiry);
        if (msg.sender != voucher.buyer) revert NotVoucherBuyer(voucher.buyer, msg.sender);
        if (msg.value != voucher.priceWei) revert WrongPayment(voucher.priceWei, msg.value);
        address signer = ECDSA.recoverCalldata(_hashTypedDataV4(hashVoucher(voucher)), signature);
        if (!hasRole(SIGNER_ROLE, signer)) revert InvalidSignature(signer);

        // Mint (reverts OrderAlreadyMinted on replay). Marketplace state is not touched, so the mint
        // callback into a contract buyer sees a consistent state (and cannot re-enter: nonReentrant).
        tokenId = collectible.mintForOrder(
            msg.sender, voucher.catalogueNftId, voucher.edition, voucher.productionHouse, voucher.orderId
        );
        uint256 fee = (msg.value * cfg.primaryFeeBps) / BPS;
        emit PrimaryPurchase(
            tokenId,
            msg.sender,
            voucher.productionHouse,
            voucher.catalogueNftId,
            voucher.edition,
            voucher.orderId,
            msg.value,
            fee
        );
        _pay(voucher.productionHouse, msg.value - fee);
        _pay(cfg.treasury, fee);
    }

    /// @notice EIP-712 struct hash of a voucher (without the domain).
    function hashVoucher(PurchaseVoucher calldata v) public pure returns (bytes32) {
        return keccak256(
            abi.encode(
                PURCHASE_VOUCHER_TYPEHASH,
                v.catalogueNftId,
                v.edition,
                v.priceWei,
                v.buyer,
                v.productionHouse,
                v.orderId,
                v.expiry
            )
        );
    }

    /// @notice EIP-712 digest that the signer signs for `v` on this chain and contract.
    function voucherDigest(PurchaseVoucher calldata v) external view returns (bytes32) {
        return _hashTypedDataV4(hashVoucher(v));
    }

    // ================================================================== resale listings

    /**
     * @notice List `tokenId` at `price` wei. The caller must own it and have approved this marketplace
     * (setApprovalForAll or approve). The token stays in the seller's wallet until sold.
     */
    function list(uint256 tokenId, uint80 price) external nonReentrant whenNotPaused {
        if (price == 0) revert InvalidPrice();
        (address owner, uint16 transferCount,,) = collectible.tokenState(tokenId);
        if (owner == address(this)) revert TokenOnAuction(tokenId);
        if (owner != msg.sender) revert NotTokenOwner(tokenId, msg.sender);
        // Only a live listing blocks; a stale one (token moved since) is overwritten.
        Listing memory existing = _listings[tokenId];
        if (existing.seller == msg.sender && existing.transferCount == transferCount) revert AlreadyListed(tokenId);
        if (!collectible.isApprovedForAll(msg.sender, address(this)) && collectible.getApproved(tokenId) != address(this))
        {
            revert MarketplaceNotApproved(tokenId);
        }
        _listings[tokenId] = Listing(msg.sender, price, transferCount);
        emit Listed(tokenId, msg.sender, price);
    }

    /// @notice Change the price of your listing.
    function updatePrice(uint256 tokenId, uint80 newPrice) external nonReentrant whenNotPaused {
        if (newPrice == 0) revert InvalidPrice();
        Listing storage l = _listings[tokenId];
        address seller = l.seller;
        if (seller == address(0)) revert NotListed(tokenId);
        if (seller != msg.sender) revert NotListingSeller(tokenId, msg.sender);
        uint80 previous = l.price;
        l.price = newPrice;
        emit ListingPriceUpdated(tokenId, msg.sender, previous, newPrice);
    }

    /// @notice Remove your listing (allowed while paused).
    function cancelListing(uint256 tokenId) external nonReentrant {
        address seller = _listings[tokenId].seller;
        if (seller == address(0)) revert NotListed(tokenId);
        if (seller != msg.sender) revert NotListingSeller(tokenId, msg.sender);
        delete _listings[tokenId];
        emit ListingCancelled(tokenId, msg.sender);
    }

    /**
     * @notice Buy a listed token, paying exactly the listed price. `expectedPrice` guards against a price
     * change front-running the purchase. Pays the seller, the ERC-2981 royalty and the platform fee.
     */
    function buy(uint256 tokenId, uint256 expectedPrice) external payable nonReentrant {
        Config memory cfg = _config;
        if (cfg.paused) revert EnforcedPause();
        Listing memory l = _listings[tokenId];
        if (l.seller == address(0)) revert NotListed(tokenId);
        if (l.price != expectedPrice) revert PriceMismatch(expectedPrice, l.price);
        if (msg.value != l.price) revert WrongPayment(l.price, msg.value);
        (address owner, uint16 transferCount, address royaltyReceiver, uint16 royaltyBps) =
            collectible.tokenState(tokenId);
        // The token moved since it was listed (even if it came back): the listing is dead.
        if (owner != l.seller || transferCount != l.transferCount) revert ListingStale(tokenId);
        uint256 royalty = (msg.value * royaltyBps) / BPS; // == collectible.royaltyInfo(tokenId, price)
        uint256 fee = (msg.value * cfg.feeBps) / BPS;
        if (royalty + fee > msg.value) revert FeesExceedPrice(msg.value, royalty, fee);
        uint256 proceeds = msg.value - royalty - fee;
        delete _listings[tokenId];
        // Reverts with ERC721InsufficientApproval if the seller revoked the approval.
        collectible.safeTransferFrom(l.seller, msg.sender, tokenId);
        emit Sale(tokenId, l.seller, msg.sender, msg.value, royaltyReceiver, royalty, fee, proceeds);
        _pay(royaltyReceiver, royalty);
        _pay(cfg.treasury, fee);
        _pay(l.seller, proceeds);
    }

    /// @notice The stored listing of `tokenId` (seller 0 when none). It may be stale: see {isListingLive}.
    function getListing(uint256 tokenId) external view returns (Listing memory) {
        return _listings[tokenId];
    }

    /// @notice Whether `tokenId` has a listing that can be bought now (seller still owns the token, the
    /// token has not moved since it was listed, and the marketplace is still approved).
    function isListingLive(uint256 tokenId) external view returns (bool) {
        Listing memory l = _listings[tokenId];
        if (l.seller == address(0)) return false;
        (address owner, uint16 transferCount,,) = collectible.tokenState(tokenId);
        return owner == l.seller && transferCount == l.transferCount
            && (collectible.isApprovedForAll(owner, address(this)) || collectible.getApproved(tokenId) == address(this));
    }

    // ================================================================== English auctions

    /**
     * @notice Put `tokenId` up for auction. The token is escrowed by this contract (needs approval). The
     * clock (`durationDays` days) starts with the first bid at or above `reservePrice`.
     */
    function createAuction(uint256 tokenId, uint96 reservePrice, uint16 durationDays)
        external
        nonReentrant
        whenNotPaused
    {
        if (reservePrice == 0) revert InvalidPrice();
        if (durationDays == 0 || durationDays > MAX_AUCTION_DAYS) revert InvalidDuration(durationDays);
        (address owner, uint16 transferCount,,) = collectible.tokenState(tokenId);
        if (owner == address(this)) revert TokenOnAuction(tokenId);
        if (owner != msg.sender) revert NotTokenOwner(tokenId, msg.sender);
        Listing memory l = _listings[tokenId];
        if (l.seller == msg.sender && l.transferCount == transferCount) revert AlreadyListed(tokenId);
        // transferFrom checks the approval.
        _auctions[tokenId] = Auction(msg.sender, 0, durationDays, address(0), reservePrice);
        emit AuctionCreated(tokenId, msg.sender, reservePrice, durationDays);
        collectible.transferFrom(msg.sender, address(this), tokenId);
    }

    /**
     * @notice Bid `msg.value` on `tokenId`. The first bid must be at least the reserve and starts the clock;
     * later bids must beat the highest by the minimum increment. A bid in the last 15 minutes extends the
     * end to 15 minutes after it. The previous highest bidder is refunded at once (gas-capped), or credited
     * to `pendingWithdrawals` if the refund fails.
     */
    function bid(uint256 tokenId) external payable nonReentrant {
        Config memory cfg = _config;
        if (cfg.paused) revert EnforcedPause();
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
            if (block.timestamp >= endTime) revert AuctionEnded(tokenId, endTime);
            uint256 increment = (previousAmount * cfg.minIncrementBps) / BPS;
            uint256 minimum = previousAmount + (increment == 0 ? 1 : increment);
            if (msg.value < minimum) revert BidTooLow(minimum, msg.value);
            if (endTime - block.timestamp < EXTENSION_WINDOW) {
                endTime = block.timestamp + EXTENSION_WINDOW;
                a.endTime = uint40(endTime);
            }
        }
        a.highestBidder = msg.sender;
        a.amount = uint96(msg.value);
        emit BidPlaced(tokenId, msg.sender, msg.value, endTime, previousBidder, previousAmount);
        if (previousAmount != 0) _pay(previousBidder, previousAmount);
    }

    /// @notice Settle an ended auction (anyone): token to the winner, proceeds split as in a sale.
    function settle(uint256 tokenId) external nonReentrant {
        Config memory cfg = _config;
        if (cfg.paused) revert EnforcedPause();
        Auction memory a = _auctions[tokenId];
        if (a.seller == address(0)) revert AuctionNotFound(tokenId);
        if (a.highestBidder == address(0)) revert AuctionNotStarted(tokenId);
        if (block.timestamp < a.endTime) revert AuctionNotEnded(tokenId, a.endTime);
        delete _auctions[tokenId];
        // Plain transfer: a winner contract without onERC721Received still gets the token it paid for
        // (docs/decisions/102-auction-winner-plain-transfer.md).
        collectible.transferFrom(address(this), a.highestBidder, tokenId);
        (address royaltyReceiver, uint256 royalty, uint256 fee, uint256 proceeds) =
            _split(tokenId, a.amount, cfg.feeBps);
        emit AuctionSettled(tokenId, a.seller, a.highestBidder, a.amount, royaltyReceiver, royalty, fee, proceeds);
        _pay(royaltyReceiver, royalty);
        _pay(cfg.treasury, fee);
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

    /// @notice The smallest acceptable next bid on `tokenId` (reserve before the first bid).
    function minimumBid(uint256 tokenId) external view returns (uint256) {
        Auction storage a = _auctions[tokenId];
        if (a.seller == address(0)) revert AuctionNotFound(tokenId);
        uint256 amount = a.amount;
        if (a.highestBidder == address(0)) return amount;
        uint256 increment = (amount * _config.minIncrementBps) / BPS;
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

    function pause() external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (_config.paused) revert EnforcedPause();
        _config.paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (!_config.paused) revert ExpectedPause();
        _config.paused = false;
        emit Unpaused(msg.sender);
    }

    function setTreasury(address newTreasury) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (newTreasury == address(0)) revert InvalidAddress();
        emit TreasuryUpdated(_config.treasury, newTreasury);
        _config.treasury = newTreasury;
    }

    /// @notice Resale platform fee in basis points (default 250, at most MAX_FEE_BPS).
    function setFeeBps(uint16 bps) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh(bps, MAX_FEE_BPS);
        emit FeeUpdated(_config.feeBps, bps);
        _config.feeBps = bps;
    }

    /// @notice Platform share of primary sales in basis points (default 250, at most MAX_PRIMARY_FEE_BPS).
    function setPrimaryFeeBps(uint16 bps) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (bps > MAX_PRIMARY_FEE_BPS) revert FeeTooHigh(bps, MAX_PRIMARY_FEE_BPS);
        emit PrimaryFeeUpdated(_config.primaryFeeBps, bps);
        _config.primaryFeeBps = bps;
    }

    /// @notice Minimum auction increment in basis points (default 500 = 5%).
    function setMinIncrementBps(uint16 bps) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (bps == 0 || bps > MAX_MIN_INCREMENT_BPS) revert InvalidIncrement(bps);
        emit MinIncrementUpdated(_config.minIncrementBps, bps);
        _config.minIncrementBps = bps;
    }

    function grantRole(bytes32 role, address account) public override nonReentrant {
        super.grantRole(role, account);
    }

    function revokeRole(bytes32 role, address account) public override nonReentrant {
        super.revokeRole(role, account);
    }

    function renounceRole(bytes32 role, address callerConfirmation) public override nonReentrant {
        super.renounceRole(role, callerConfirmation);
    }

    // ================================================================== views

    function paused() external view returns (bool) {
        return _config.paused;
    }

    function treasury() external view returns (address) {
        return _config.treasury;
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

    function _split(uint256 tokenId, uint256 price, uint16 fee_)
        private
        view
        returns (address royaltyReceiver, uint256 royalty, uint256 fee, uint256 proceeds)
    {
        (royaltyReceiver, royalty) = collectible.royaltyInfo(tokenId, price);
        fee = (price * fee_) / BPS;
        if (royalty + fee > price) revert FeesExceedPrice(price, royalty, fee);
        proceeds = price - royalty - fee;
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
