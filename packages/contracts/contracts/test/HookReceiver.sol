// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title HookReceiver (TEST ONLY)
 * @notice A contract that is not ours whose onERC721Received does work (writes 60 storage slots): a
 * sponsored `safeTransferFrom` to it would run that work on our paymaster's gas (issue 34).
 */
contract HookReceiver {
    uint256 public received;
    mapping(uint256 => uint256) public junk;

    function onERC721Received(address, address, uint256, bytes calldata) external returns (bytes4) {
        for (uint256 i = 0; i < 60; i++) {
            junk[received * 60 + i] = block.number + i + 1;
        }
        received += 1;
        return this.onERC721Received.selector;
    }
}
