// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {AccessControlDefaultAdminRules} from
    "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";

/**
 * @title DiginoorCollectible
 * @notice The platform's ERC-721 collectible. Every token records the catalogue NFT and edition it
 * represents and its own ERC-2981 royalty receiver (the production house) and rate, all in ONE
 * packed storage slot.
 *
 * Token ids are the order ids: `tokenId == uint256(orderId)`. Minting an order id twice is
 * impossible because the token already exists, so "one mint per order id" costs no extra storage
 * (see docs/decisions/103-token-id-is-order-id.md). The server therefore knows the token id of an
 * order before the transaction is mined.
 *
 * `tokenURI(id)` is `baseURI ++ decimal(id)`; the base URI is `{PUBLIC_URL}/api/v1/metadata/`. The collection's
 * own metadata (ERC-7572 `contractURI()`) is `baseURI ++ "contract"` beside it, so the two always move together.
 * Every change of what `tokenURI` serves is announced with ERC-4906 events (docs/decisions/180).
 */
contract DiginoorCollectible is ERC721, IERC2981, AccessControlDefaultAdminRules, ReentrancyGuardTransient {
    /// @notice Role allowed to mint (the marketplace for primary sales, the server for card/INR orders).
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    /// @notice Royalty rates can never be set above 15%.
    uint16 public constant MAX_ROYALTY_BPS = 1_500;
    uint256 private constant BPS_DENOMINATOR = 10_000;
    /// @notice Order ids of primary (voucher) sales are at least this (2^64); the minter's path (card/INR orders,
    /// primary auctions) uses ids below it. So a voucher, whoever signed it, can never take an order id of the
    /// minter's path, nor the reverse (docs/decisions/109).
    uint256 public constant VOUCHER_ORDER_ID_MIN = 1 << 64;

    /// @dev Storage: one slot per token, 160 + 16 + 32 + 16 + 32 = 256 bits. `version` counts every
    /// transfer after the mint and every single-token approval change. The marketplace stores it in a
    /// listing, so a listing dies as soon as the token moves or its approval changes, even if the token
    /// later comes back to the seller or the approval is given again. 32 bits cannot be wrapped on purpose:
    /// 2^32 transfers cost more than 10^14 gas (docs/decisions/108-contracts-audit-fixes.md).
    struct TokenData {
        address royaltyReceiver;
        uint16 royaltyBps;
        uint32 catalogueNftId;
        uint16 edition;
        uint32 version;
    }

    /// @notice What {tokenInfo} returns.
    struct TokenInfo {
        address royaltyReceiver;
        uint16 royaltyBps;
        uint64 catalogueNftId;
        uint16 edition;
        uint32 version;
    }

    /// @notice What a primary (voucher) sale of a catalogue item pays to whom: `payee` (the production house)
    /// receives the price net of the platform share and becomes the token's royalty receiver; the price must be
    /// at least `floorWei`. Set by the admin or a minter (never by the voucher signer); an item without a payee
    /// cannot be sold by voucher.
    struct PrimaryTerms {
        address payee;
        uint96 floorWei;
    }

    /// @notice Token ids `fromTokenId` to `toTokenId` (inclusive) whose metadata changed, for {refreshMetadata}.
    struct TokenRange {
        uint256 fromTokenId;
        uint256 toTokenId;
    }

    /// @notice How many editions a catalogue item has (editions 1..count exist, each minted at most once) and
    /// whether it was registered. A minter registers an item once (when it is published) and may lower its count;
    /// only the admin raises a registered count; nobody lowers it below an edition that is minted
    /// (docs/decisions/184-editions-on-chain.md).
    struct Editions {
        uint16 count;
        bool registered;
    }

    /// @notice Royalty rate given to every newly minted token (10% = 1000 bps).
    uint16 public immutable defaultRoyaltyBps;
    /// @notice The marketplace this collectible was deployed with (MINTER_ROLE from the constructor), the only
    /// caller of {mintPrimary}. It can never be a royalty receiver, even after its role is revoked (ETH credited
    /// to it there could never be withdrawn).
    address public immutable marketplace;

    mapping(uint256 tokenId => TokenData) private _tokenData;
    /// @notice Bumped each time `owner` revokes an operator it had approved for all its tokens. A listing
    /// records its seller's value, so revoking the marketplace's approval cancels the seller's listings for
    /// good: approving again later does not revive them.
    mapping(address owner => uint32) public approvalEpoch;
    /// @notice Payee and floor price of each catalogue item's primary sales.
    mapping(uint64 catalogueNftId => PrimaryTerms) public primaryTerms;
    /// @notice Each catalogue item's edition count (see {Editions}).
    mapping(uint64 catalogueNftId => Editions) public editions;
    /// @dev Minted editions, 255 per word: edition `e` is bit `e % 255 + 1` of the word keyed
    /// `catalogueNftId << 16 | e / 255`. Bit 0 of every word of a registered range is set when the count is set, so
    /// a mint writes a non-zero word (5,000 gas) and the first buyer of each 255 editions does not pay for a new slot
    /// (20,000 more): the registration does, once.
    mapping(uint256 key => uint256 bits) private _mintedEditions;
    uint256 private constant EDITIONS_PER_WORD = 255;
    string private _baseTokenURI;

    error InvalidOrderId();
    error OrderAlreadyMinted(bytes32 orderId);
    error InvalidRoyaltyReceiver(address receiver);
    error RoyaltyTooHigh(uint256 bps, uint256 maxBps);
    error CatalogueIdTooLarge(uint64 catalogueNftId);
    error InvalidMarketplace();
    error TokenInEscrow(uint256 tokenId);
    error NotMarketplace(address caller);
    error NotVoucherOrderId(bytes32 orderId);
    error NotMinterOrderId(bytes32 orderId);
    error NoPrimaryTerms(uint64 catalogueNftId);
    error PriceBelowFloor(uint256 floorWei, uint256 priceWei);
    error InvalidTokenRange(uint256 fromTokenId, uint256 toTokenId);
    error EditionOutOfRange(uint64 catalogueNftId, uint16 edition, uint16 editionCount);
    error EditionAlreadyMinted(uint64 catalogueNftId, uint16 edition);
    error EditionCountRaise(uint64 catalogueNftId, uint16 editionCount, uint16 requested);
    error EditionCountBelowMinted(uint64 catalogueNftId, uint16 requested);

    /// @notice A token was minted for an order (primary voucher sale or card/INR order). Its order id is
    /// `bytes32(tokenId)` (decision 103) and its first owner is the `to` of the `Transfer` from 0 that follows,
    /// so neither is repeated here (each word of an event costs 256 gas, an indexed field 375).
    event CollectibleMinted(
        uint256 indexed tokenId, uint64 indexed catalogueNftId, uint16 edition, address royaltyReceiver, uint16 royaltyBps
    );
    /// @notice A catalogue item's primary-sale payee and floor price were set (payee 0: no longer sold by voucher).
    event PrimaryTermsSet(uint64 indexed catalogueNftId, address indexed payee, uint256 floorWei);
    /// @notice A catalogue item's edition count was registered or changed (`previousCount` 0 and `registered` false
    /// before: the first registration).
    event EditionCountSet(uint64 indexed catalogueNftId, uint16 previousCount, uint16 editionCount);
    /// @notice The royalty of a token changed.
    event TokenRoyaltyUpdated(uint256 indexed tokenId, address indexed receiver, uint16 royaltyBps);
    /// @notice The metadata base URI changed.
    event BaseURIUpdated(string baseURI);
    /// @notice ERC-4906: metadata of one token changed.
    event MetadataUpdate(uint256 _tokenId);
    /// @notice ERC-4906: metadata of a range of tokens changed.
    event BatchMetadataUpdate(uint256 _fromTokenId, uint256 _toTokenId);
    /// @notice ERC-7572: the collection's metadata (what {contractURI} names) changed.
    event ContractURIUpdated();

    /// @param admin holder of DEFAULT_ADMIN_ROLE from the start (a multisig in production: no deployer key is
    /// ever admin, docs/decisions/109).
    /// @param adminDelay seconds an admin transfer waits before it can be accepted (two-step, see
    /// AccessControlDefaultAdminRules).
    /// @param marketplace_ the marketplace (deployed next, at an address computed from the deployer's nonce);
    /// it gets MINTER_ROLE.
    /// @param minter the server's minter key (card/INR orders); MINTER_ROLE unless 0.
    constructor(
        address admin,
        uint48 adminDelay,
        string memory baseURI_,
        uint16 defaultRoyaltyBps_,
        address marketplace_,
        address minter
    ) ERC721("Diginoor Collectible", "DGNR") AccessControlDefaultAdminRules(adminDelay, admin) {
        if (defaultRoyaltyBps_ > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(defaultRoyaltyBps_, MAX_ROYALTY_BPS);
        if (marketplace_ == address(0)) revert InvalidMarketplace();
        defaultRoyaltyBps = defaultRoyaltyBps_;
        marketplace = marketplace_;
        _grantRole(MINTER_ROLE, marketplace_);
        if (minter != address(0)) _grantRole(MINTER_ROLE, minter);
        _baseTokenURI = baseURI_;
        emit BaseURIUpdated(baseURI_);
    }

    // ------------------------------------------------------------------ minting

    /**
     * @notice Mint the token of `orderId` (below VOUCHER_ORDER_ID_MIN) to `to` for a card/INR order or a primary
     * auction. Only MINTER_ROLE. Each order id mints at most once.
     * @return tokenId `uint256(orderId)`.
     */
    function mintForOrder(address to, uint64 catalogueNftId, uint16 edition, address royaltyReceiver, bytes32 orderId)
        external
        onlyRole(MINTER_ROLE)
        nonReentrant
        returns (uint256 tokenId)
    {
        if (orderId == bytes32(0)) revert InvalidOrderId();
        if (uint256(orderId) >= VOUCHER_ORDER_ID_MIN) revert NotMinterOrderId(orderId);
        _checkRoyaltyReceiver(royaltyReceiver);
        return _mintToken(to, catalogueNftId, edition, royaltyReceiver, orderId);
    }

    /**
     * @notice Mint the token of a primary (voucher) sale: only the marketplace, while it holds MINTER_ROLE (revoking
     * it stops primary sales). The order id must be at least VOUCHER_ORDER_ID_MIN and `priceWei` at least the
     * item's floor. @return payee the item's payee, who becomes the royalty receiver and is paid by the marketplace.
     */
    function mintPrimary(address to, uint64 catalogueNftId, uint16 edition, bytes32 orderId, uint256 priceWei)
        external
        onlyRole(MINTER_ROLE)
        nonReentrant
        returns (address payee)
    {
        if (msg.sender != marketplace) revert NotMarketplace(msg.sender);
        if (uint256(orderId) < VOUCHER_ORDER_ID_MIN) revert NotVoucherOrderId(orderId);
        PrimaryTerms memory terms = primaryTerms[catalogueNftId];
        payee = terms.payee;
        if (payee == address(0)) revert NoPrimaryTerms(catalogueNftId);
        if (priceWei < terms.floorWei) revert PriceBelowFloor(terms.floorWei, priceWei);
        // The payee was checked (_checkRoyaltyReceiver) when the terms were set.
        _mintToken(to, catalogueNftId, edition, payee, orderId);
    }

    /**
     * @notice Set the payee (production house) and floor price of a catalogue item's primary sales; payee 0 stops
     * its voucher sales. The admin or a minter (the server's minter key: never the voucher signer's key alone).
     */
    function setPrimaryTerms(uint64 catalogueNftId, address payee, uint96 floorWei) external nonReentrant {
        if (msg.sender != defaultAdmin()) _checkRole(MINTER_ROLE);
        if (catalogueNftId > type(uint32).max) revert CatalogueIdTooLarge(catalogueNftId);
        if (payee != address(0)) _checkRoyaltyReceiver(payee);
        primaryTerms[catalogueNftId] = PrimaryTerms(payee, floorWei);
        emit PrimaryTermsSet(catalogueNftId, payee, floorWei);
    }

    /**
     * @notice Register or change a catalogue item's edition count (editions 1..count may be minted, each once).
     * A minter (the server's minter key, when the item is published) registers an item once and may lower its
     * count; only the admin raises a registered count (a Safe transaction: never one hot key). Nobody lowers it
     * below an edition already minted. The voucher signer holds no role here.
     */
    function setEditionCount(uint64 catalogueNftId, uint16 count) external nonReentrant {
        bool admin = msg.sender == defaultAdmin();
        if (!admin) _checkRole(MINTER_ROLE);
        if (catalogueNftId > type(uint32).max) revert CatalogueIdTooLarge(catalogueNftId);
        Editions memory e = editions[catalogueNftId];
        if (e.registered && count > e.count && !admin) revert EditionCountRaise(catalogueNftId, e.count, count);
        uint256 base = uint256(catalogueNftId) << 16;
        // Editions count+1 .. e.count must all be unminted (editions above e.count never were).
        for (uint256 ed = uint256(count) + 1; ed <= e.count;) {
            uint256 word = ed / EDITIONS_PER_WORD;
            if (_mintedEditions[base | word] & (type(uint256).max << (ed % EDITIONS_PER_WORD + 1)) != 0) {
                revert EditionCountBelowMinted(catalogueNftId, count);
            }
            ed = (word + 1) * EDITIONS_PER_WORD;
        }
        // The words of editions 1..count hold their bit 0 (see _mintedEditions).
        for (uint256 word = 0; word <= uint256(count) / EDITIONS_PER_WORD; ++word) {
            if (_mintedEditions[base | word] == 0) _mintedEditions[base | word] = 1;
        }
        editions[catalogueNftId] = Editions(count, true);
        emit EditionCountSet(catalogueNftId, e.count, count);
    }

    function _mintToken(address to, uint64 catalogueNftId, uint16 edition, address royaltyReceiver, bytes32 orderId)
        private
        returns (uint256 tokenId)
    {
        if (catalogueNftId > type(uint32).max) revert CatalogueIdTooLarge(catalogueNftId);
        tokenId = uint256(orderId);
        if (_ownerOf(tokenId) != address(0)) revert OrderAlreadyMinted(orderId);
        // Each edition of an item mints at most once, within its registered count, whoever signed the voucher.
        uint16 count = editions[catalogueNftId].count;
        if (edition == 0 || edition > count) revert EditionOutOfRange(catalogueNftId, edition, count);
        uint256 key = (uint256(catalogueNftId) << 16) | (edition / EDITIONS_PER_WORD);
        uint256 bit = 1 << (edition % EDITIONS_PER_WORD + 1);
        uint256 bits = _mintedEditions[key];
        if (bits & bit != 0) revert EditionAlreadyMinted(catalogueNftId, edition);
        _mintedEditions[key] = bits | bit;
        uint16 bps = defaultRoyaltyBps;
        _tokenData[tokenId] = TokenData(royaltyReceiver, bps, uint32(catalogueNftId), edition, 0);
        emit CollectibleMinted(tokenId, catalogueNftId, edition, royaltyReceiver, bps);
        // Interaction last: _safeMint calls onERC721Received on contract receivers.
        _safeMint(to, tokenId);
    }

    // ------------------------------------------------------------------ admin

    /// @notice Set the metadata base URI (`{PUBLIC_URL}/api/v1/metadata/`), which also moves {contractURI}. Admin only.
    function setBaseURI(string calldata baseURI_) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        _baseTokenURI = baseURI_;
        emit BaseURIUpdated(baseURI_);
        emit BatchMetadataUpdate(0, type(uint256).max);
        emit ContractURIUpdated();
    }

    /**
     * @notice Announce (ERC-4906) that the metadata of some tokens changed off chain (a console edit of the NFT,
     * film, star or studio their metadata names): `MetadataUpdate(id)` for a range of one token,
     * `BatchMetadataUpdate(from, to)` otherwise. The admin or a minter (the server's minter key). It changes no
     * state: a leaked minter key can only make marketplaces fetch metadata again.
     */
    function refreshMetadata(TokenRange[] calldata ranges) external {
        if (msg.sender != defaultAdmin()) _checkRole(MINTER_ROLE);
        for (uint256 i = 0; i < ranges.length; ++i) {
            TokenRange calldata r = ranges[i];
            if (r.fromTokenId > r.toTokenId) revert InvalidTokenRange(r.fromTokenId, r.toTokenId);
            if (r.fromTokenId == r.toTokenId) emit MetadataUpdate(r.fromTokenId);
            else emit BatchMetadataUpdate(r.fromTokenId, r.toTokenId);
        }
    }

    /**
     * @notice Change a token's royalty receiver and rate (capped at MAX_ROYALTY_BPS). Admin only. Applies only to
     * trades agreed afterwards: it bumps the token's version, so a live listing dies (its seller lists again on the
     * new terms), and it is refused while the token is escrowed in an auction (the auction settles on the terms
     * of its creation). docs/decisions/108.
     */
    function setTokenRoyalty(uint256 tokenId, address receiver, uint16 royaltyBps)
        external
        onlyRole(DEFAULT_ADMIN_ROLE)
        nonReentrant
    {
        if (_requireOwned(tokenId) == marketplace) revert TokenInEscrow(tokenId);
        _checkRoyaltyReceiver(receiver);
        if (royaltyBps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(royaltyBps, MAX_ROYALTY_BPS);
        TokenData storage d = _tokenData[tokenId];
        d.royaltyReceiver = receiver;
        d.royaltyBps = royaltyBps;
        unchecked {
            d.version += 1;
        }
        emit TokenRoyaltyUpdated(tokenId, receiver, royaltyBps);
        // The token's metadata shows its royalty (the "Royalty" trait).
        emit MetadataUpdate(tokenId);
    }

    // ------------------------------------------------------------------ guarded standard entry points
    // Every state-changing external entry point is nonReentrant (transient-storage guard, ~300 gas). OZ's
    // ERC-721 already updates state before the receiver callback; the guard additionally stops a receiver
    // from calling back into the collectible during onERC721Received.

    function transferFrom(address from, address to, uint256 tokenId) public override nonReentrant {
        super.transferFrom(from, to, tokenId);
    }

    /// @dev Re-implemented (instead of calling the guarded transferFrom) so the guard is taken once.
    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data)
        public
        override
        nonReentrant
    {
        super.transferFrom(from, to, tokenId);
        ERC721Utils.checkOnERC721Received(_msgSender(), from, to, tokenId, data);
    }

    /// @dev Any change of the token's single approval bumps its version: a listing that relied on it dies.
    function approve(address to, uint256 tokenId) public override nonReentrant {
        super.approve(to, tokenId);
        unchecked {
            _tokenData[tokenId].version += 1;
        }
    }

    /// @dev Revoking an operator that was approved bumps the owner's approval epoch: listings die for good.
    function setApprovalForAll(address operator, bool approved) public override nonReentrant {
        if (!approved && isApprovedForAll(_msgSender(), operator)) {
            unchecked {
                approvalEpoch[_msgSender()] += 1;
            }
        }
        super.setApprovalForAll(operator, approved);
    }

    function grantRole(bytes32 role, address account)
        public
        override
        nonReentrant
    {
        super.grantRole(role, account);
    }

    function revokeRole(bytes32 role, address account)
        public
        override
        nonReentrant
    {
        super.revokeRole(role, account);
    }

    function renounceRole(bytes32 role, address callerConfirmation)
        public
        override
        nonReentrant
    {
        super.renounceRole(role, callerConfirmation);
    }

    // ------------------------------------------------------------------ views

    /// @notice Catalogue data, royalty and transfer count of an existing token (reverts for unknown tokens).
    function tokenInfo(uint256 tokenId) external view returns (TokenInfo memory) {
        _requireOwned(tokenId);
        TokenData memory d = _tokenData[tokenId];
        return TokenInfo(d.royaltyReceiver, d.royaltyBps, d.catalogueNftId, d.edition, d.version);
    }

    /**
     * @notice Owner (0 if the token does not exist), version, the owner's approval epoch and the royalty of a
     * token in one call: what the marketplace needs to list and to buy.
     */
    function tokenState(uint256 tokenId)
        external
        view
        returns (address owner, uint32 version, uint32 ownerEpoch, address royaltyReceiver, uint16 royaltyBps)
    {
        TokenData storage d = _tokenData[tokenId];
        owner = _ownerOf(tokenId);
        return (owner, d.version, approvalEpoch[owner], d.royaltyReceiver, d.royaltyBps);
    }

    /// @notice Whether the token of `orderId` has been minted.
    function isOrderMinted(bytes32 orderId) external view returns (bool) {
        return _ownerOf(uint256(orderId)) != address(0);
    }

    /// @notice ERC-7572: the collection's metadata (name, description, image, external link, royalty), served
    /// beside the tokens' (`baseURI ++ "contract"`): on our server, or in the IPFS snapshot after the exit.
    function contractURI() external view returns (string memory) {
        return string.concat(_baseTokenURI, "contract");
    }

    /// @notice Whether edition `edition` of catalogue item `catalogueNftId` has been minted.
    function isEditionMinted(uint64 catalogueNftId, uint16 edition) external view returns (bool) {
        return _mintedEditions[(uint256(catalogueNftId) << 16) | (edition / EDITIONS_PER_WORD)]
            & (1 << (edition % EDITIONS_PER_WORD + 1)) != 0;
    }

    /// @notice Whether `tokenId` exists.
    function exists(uint256 tokenId) external view returns (bool) {
        return _ownerOf(tokenId) != address(0);
    }

    /// @inheritdoc IERC2981
    function royaltyInfo(uint256 tokenId, uint256 salePrice)
        external
        view
        override
        returns (address receiver, uint256 royaltyAmount)
    {
        TokenData storage d = _tokenData[tokenId];
        receiver = d.royaltyReceiver;
        royaltyAmount = (salePrice * d.royaltyBps) / BPS_DENOMINATOR;
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721, AccessControlDefaultAdminRules, IERC165)
        returns (bool)
    {
        return interfaceId == type(IERC2981).interfaceId || interfaceId == bytes4(0x49064906)
            || super.supportsInterface(interfaceId);
    }

    /// @dev Counts every transfer after the mint (see TokenData.version).
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0)) {
            unchecked {
                _tokenData[tokenId].version += 1;
            }
        }
    }

    /// @dev A royalty receiver must be able to receive: never zero, this contract, the marketplace (with or
    /// without its role: ETH credited to it there could never be withdrawn) or a minter.
    function _checkRoyaltyReceiver(address receiver) private view {
        if (
            receiver == address(0) || receiver == address(this) || receiver == marketplace
                || hasRole(MINTER_ROLE, receiver)
        ) revert InvalidRoyaltyReceiver(receiver);
    }

    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }
}
