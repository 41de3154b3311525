// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Paymaster} from "@openzeppelin/contracts/account/paymaster/Paymaster.sol";
import {ERC7821} from "@openzeppelin/contracts/account/extensions/draft-ERC7821.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {Execution} from "@openzeppelin/contracts/interfaces/draft-IERC7579.sol";
import {IEntryPoint, PackedUserOperation} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {DiginoorMarketplace} from "../DiginoorMarketplace.sol";
import {DiginoorAccountFactory} from "./DiginoorAccountFactory.sol";
import {DiginoorPasskeyAccount} from "./DiginoorPasskeyAccount.sol";

/**
 * @title DiginoorPaymaster
 * @notice Pays the gas of fans' passkey accounts (made by our factory) for their own actions on our contracts,
 * so a fan never needs crypto to own and sell:
 *  - marketplace: list, updatePrice, cancelListing, createAuction, settle, cancelAuction, withdraw;
 *  - collectible: approve / setApprovalForAll for the marketplace only, transferFrom / safeTransferFrom
 *    (e.g. "send to my own wallet");
 *  - the account itself: addPasskey, removePasskey, setGuardian, cancelRecovery (a fan without crypto can
 *    always add a device and veto a recovery).
 * Every call of the ERC-7821 batch must be one of these and carry no ETH. Each account gets at most
 * `dailyLimit` sponsored operations per UTC day and each operation may cost at most `maxCostPerOp` wei.
 *
 * paymasterData is the UTC day number (uint48, block.timestamp / 1 days) the operation counts against;
 * the validation data limits the operation to that day, so the EntryPoint refuses it on any other day
 * (no TIMESTAMP opcode in validation, as ERC-7562 asks). The count is kept per account (storage associated
 * with the sender). No postOp: the paymaster returns no context.
 */
contract DiginoorPaymaster is Paymaster, AccessControl {
    /// @notice May change the limits (the operations team); the admin manages roles, deposit and stake.
    bytes32 public constant POLICY_ROLE = keccak256("POLICY_ROLE");
    uint256 public constant MAX_CALLS_PER_OP = 4;
    bytes32 private constant BATCH_MODE = bytes32(uint256(0x01) << 248);

    address public immutable collectible;
    address public immutable marketplace;
    bytes32 public immutable accountCodeHash;

    uint32 public dailyLimit;
    uint256 public maxCostPerOp;

    struct Usage {
        uint48 day;
        uint32 count;
    }

    mapping(address account => Usage) private _usage;

    event LimitsChanged(uint32 dailyLimit, uint256 maxCostPerOp);

    error NotOurAccount(address sender);
    error NotABatch();
    error CallNotSponsored(address target, bytes4 selector);
    error TooManyCalls(uint256 count);
    error DailyLimitReached(address sender, uint48 day, uint32 limit);
    error CostTooHigh(uint256 maxCost, uint256 limit);
    error BadPaymasterData();

    constructor(
        address collectible_,
        address marketplace_,
        DiginoorAccountFactory factory,
        address admin,
        uint32 dailyLimit_,
        uint256 maxCostPerOp_
    ) {
        collectible = collectible_;
        marketplace = marketplace_;
        accountCodeHash = factory.accountCodeHash();
        dailyLimit = dailyLimit_;
        maxCostPerOp = maxCostPerOp_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(POLICY_ROLE, admin);
        emit LimitsChanged(dailyLimit_, maxCostPerOp_);
    }

    /// @inheritdoc Paymaster
    function entryPoint() public pure override returns (IEntryPoint) {
        return ERC4337Utils.ENTRYPOINT_V08;
    }

    /// @notice Sponsored operations of `account` counted on `day` (UTC day number).
    function usage(address account, uint48 day) external view returns (uint32) {
        Usage memory u = _usage[account];
        return u.day == day ? u.count : 0;
    }

    function setLimits(uint32 dailyLimit_, uint256 maxCostPerOp_) external onlyRole(POLICY_ROLE) {
        dailyLimit = dailyLimit_;
        maxCostPerOp = maxCostPerOp_;
        emit LimitsChanged(dailyLimit_, maxCostPerOp_);
    }

    /// @notice Anyone may fund the paymaster's EntryPoint deposit.
    function deposit() external payable {
        _deposit(msg.value);
    }

    function withdraw(address payable to, uint256 value) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _withdraw(to, value);
    }

    function addStake(uint32 unstakeDelaySec) external payable onlyRole(DEFAULT_ADMIN_ROLE) {
        _addStake(msg.value, unstakeDelaySec);
    }

    function unlockStake() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unlockStake();
    }

    function withdrawStake(address payable to) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _withdrawStake(to);
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256 requiredPreFund)
        internal
        override
        returns (bytes memory context, uint256 validationData)
    {
        address sender = userOp.sender;
        if (sender.codehash != accountCodeHash) revert NotOurAccount(sender);
        if (requiredPreFund > maxCostPerOp) revert CostTooHigh(requiredPreFund, maxCostPerOp);
        bytes calldata data = ERC4337Utils.paymasterData(userOp);
        if (data.length != 6) revert BadPaymasterData();
        uint48 day = uint48(bytes6(data));
        _checkCalls(sender, userOp.callData);

        Usage memory u = _usage[sender];
        uint32 count = u.day == day ? u.count : 0;
        if (count >= dailyLimit) revert DailyLimitReached(sender, day, dailyLimit);
        _usage[sender] = Usage(day, count + 1);

        uint48 validAfter = day * 1 days;
        uint48 validUntil = validAfter + 1 days - 1;
        return ("", ERC4337Utils.packValidationData(true, validAfter, validUntil));
    }

    function _checkCalls(address sender, bytes calldata callData) private view {
        if (callData.length < 4 || bytes4(callData[:4]) != ERC7821.execute.selector) revert NotABatch();
        (bytes32 mode, bytes memory executionData) = abi.decode(callData[4:], (bytes32, bytes));
        if (mode != BATCH_MODE) revert NotABatch();
        Execution[] memory calls = abi.decode(executionData, (Execution[]));
        if (calls.length == 0 || calls.length > MAX_CALLS_PER_OP) revert TooManyCalls(calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            Execution memory c = calls[i];
            bytes4 selector = c.callData.length >= 4 ? bytes4(c.callData) : bytes4(0);
            if (c.value != 0 || !_sponsored(sender, c.target, selector, c.callData)) {
                revert CallNotSponsored(c.target, selector);
            }
        }
    }

    function _sponsored(address sender, address target, bytes4 selector, bytes memory callData)
        private
        view
        returns (bool)
    {
        if (target == marketplace) {
            return selector == DiginoorMarketplace.list.selector || selector == DiginoorMarketplace.updatePrice.selector
                || selector == DiginoorMarketplace.cancelListing.selector
                || selector == DiginoorMarketplace.createAuction.selector || selector == DiginoorMarketplace.settle.selector
                || selector == DiginoorMarketplace.cancelAuction.selector
                || selector == bytes4(keccak256("withdraw()"));
        }
        if (target == collectible) {
            if (selector == IERC721.approve.selector || selector == IERC721.setApprovalForAll.selector) {
                // The first argument is the operator: only our marketplace is approved at our expense.
                if (callData.length < 36) return false;
                address operator;
                assembly ("memory-safe") {
                    operator := mload(add(callData, 36))
                }
                return operator == marketplace;
            }
            return selector == IERC721.transferFrom.selector || selector == bytes4(keccak256("safeTransferFrom(address,address,uint256)"))
                || selector == bytes4(keccak256("safeTransferFrom(address,address,uint256,bytes)"));
        }
        if (target == sender) {
            return selector == DiginoorPasskeyAccount.addPasskey.selector
                || selector == DiginoorPasskeyAccount.removePasskey.selector
                || selector == DiginoorPasskeyAccount.setGuardian.selector
                || selector == DiginoorPasskeyAccount.cancelRecovery.selector;
        }
        return false;
    }
}
