// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/**
 * @title AttackerWallet (TEST ONLY)
 * @notice A configurable contract account used by the tests: it can reject ETH, reject ERC-721
 * (onERC721Received reverts), and try to re-enter a target (with `reenterData`) when it receives ETH
 * or an ERC-721. Every re-entry attempt emits ReentryAttempt(success, returnData).
 */
contract AttackerWallet is IERC721Receiver {
    bool public rejectEth;
    bool public rejectErc721;
    address public reenterTarget;
    uint256 public reenterValue;
    bytes public reenterData;
    /// @notice When set, receiving ETH burns all the gas it is given (a payee that can never be paid by push).
    bool public burnGas;

    event ReentryAttempt(bool success, bytes returnData);

    function configure(bool rejectEth_, bool rejectErc721_, address target, uint256 value, bytes calldata data)
        external
    {
        rejectEth = rejectEth_;
        rejectErc721 = rejectErc721_;
        reenterTarget = target;
        reenterValue = value;
        reenterData = data;
    }

    function setBurnGas(bool burnGas_) external {
        burnGas = burnGas_;
    }

    /// @notice Call `target` with `value` and `data`, bubbling up reverts.
    function execute(address target, uint256 value, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory ret) = target.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
        return ret;
    }

    receive() external payable {
        if (burnGas) {
            uint256 i;
            while (true) {
                i++;
            }
        }
        if (rejectEth) revert("no ETH");
        if (reenterTarget != address(0)) _reenter();
    }

    function onERC721Received(address, address, uint256, bytes calldata) external returns (bytes4) {
        if (rejectErc721) revert("no ERC721");
        if (reenterTarget != address(0)) _reenter();
        return IERC721Receiver.onERC721Received.selector;
    }

    function _reenter() private {
        (bool ok, bytes memory ret) = reenterTarget.call{value: reenterValue}(reenterData);
        emit ReentryAttempt(ok, ret);
    }
}
