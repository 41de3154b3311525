// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title GreedyRoyaltyToken (TEST ONLY)
 * @notice A minimal stand-in for the collectible whose royaltyInfo asks for more than the whole price,
 * used to prove that the marketplace refuses a sale where royalty + fee would exceed the price
 * (unreachable with DiginoorCollectible, whose royalty is capped at 15% and the fee at 10%).
 */
contract GreedyRoyaltyToken {
    mapping(uint256 => address) public ownerOf;

    function mint(address to, uint256 tokenId) external {
        ownerOf[tokenId] = to;
    }

    function isApprovedForAll(address, address) external pure returns (bool) {
        return true;
    }

    function getApproved(uint256) external pure returns (address) {
        return address(0);
    }

    function transferFrom(address, address to, uint256 tokenId) external {
        ownerOf[tokenId] = to;
    }

    function safeTransferFrom(address, address to, uint256 tokenId) external {
        ownerOf[tokenId] = to;
    }

    function royaltyInfo(uint256, uint256 salePrice) external view returns (address, uint256) {
        return (address(this), salePrice);
    }

    /// @dev Royalty of 100%: with any platform fee, royalty + fee > price.
    function tokenState(uint256 tokenId) external view returns (address, uint32, uint32, address, uint16) {
        return (ownerOf[tokenId], 0, 0, address(this), 10_000);
    }
}
