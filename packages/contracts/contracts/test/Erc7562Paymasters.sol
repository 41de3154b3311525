// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Paymaster} from "@openzeppelin/contracts/account/paymaster/Paymaster.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {IEntryPoint, PackedUserOperation} from "@openzeppelin/contracts/interfaces/IERC4337.sol";

/**
 * Test paymasters for the ERC-7562 rule check (test/erc7562.test.ts): one keeps the rules unstaked (it reads
 * nothing), the others each break one rule in validation. Anyone may fund them; they sponsor anything.
 */
abstract contract TestPaymasterBase is Paymaster {
    function entryPoint() public pure override returns (IEntryPoint) {
        return ERC4337Utils.ENTRYPOINT_V08;
    }

    function deposit() external payable {
        _deposit(msg.value);
    }
}

/// @notice Sponsors every operation and touches no storage: ERC-7562-compliant without a stake.
contract OpenPaymaster is TestPaymasterBase {
    function _validatePaymasterUserOp(PackedUserOperation calldata, bytes32, uint256)
        internal
        pure
        override
        returns (bytes memory, uint256)
    {
        return ("", 0);
    }
}

/// @notice Reads TIMESTAMP in validation (OP-011), however it is staked.
contract TimestampPaymaster is TestPaymasterBase {
    function _validatePaymasterUserOp(PackedUserOperation calldata, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory, uint256)
    {
        if (block.timestamp == 0) revert();
        return ("", 0);
    }
}

/// @notice Counts operations in its own storage (STO-031: allowed only when staked).
contract CountingPaymaster is TestPaymasterBase {
    uint256 public sponsored;

    function addStake(uint32 unstakeDelaySec) external payable {
        _addStake(msg.value, unstakeDelaySec);
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata, bytes32, uint256)
        internal
        override
        returns (bytes memory, uint256)
    {
        sponsored += 1;
        return ("", 0);
    }
}

interface IAccountFactory {
    function createAccount(bytes32 qx, bytes32 qy) external returns (address);
}

/// @notice A factory in front of ours that reads TIMESTAMP while deploying (OP-011 in the factory phase).
contract TimestampFactory {
    IAccountFactory public immutable inner;

    constructor(IAccountFactory inner_) {
        inner = inner_;
    }

    function createAccount(bytes32 qx, bytes32 qy) external returns (address) {
        if (block.timestamp == 0) revert();
        return inner.createAccount(qx, qy);
    }
}
