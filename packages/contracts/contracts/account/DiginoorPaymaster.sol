// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Paymaster} from "@openzeppelin/contracts/account/paymaster/Paymaster.sol";
import {PaymasterSigner} from "@openzeppelin/contracts/account/paymaster/extensions/PaymasterSigner.sol";
import {ERC7821} from "@openzeppelin/contracts/account/extensions/draft-ERC7821.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {Execution} from "@openzeppelin/contracts/interfaces/draft-IERC7579.sol";
import {IEntryPoint, PackedUserOperation} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {DiginoorMarketplace} from "../DiginoorMarketplace.sol";
import {DiginoorPasskeyAccount} from "./DiginoorPasskeyAccount.sol";

/**
 * @title DiginoorPaymaster
 * @notice A verifying paymaster (OpenZeppelin PaymasterSigner; docs/decisions/186-verifying-paymaster.md): it
 * pays the gas of an operation only with the server's sponsorship signature, an EIP-712 `UserOperationRequest`
 * over the operation's sender, nonce, initCode, callData, gas limits and fees with a `validAfter`/`validUntil`
 * window (paymasterData = validAfter uint48 || validUntil uint48 || signature). The server signs only for a
 * passkey wallet linked to the signed-in fan, only for the actions below, with fees and gas it checked, within
 * its daily budgets. On chain, as a backstop should the sponsorship key leak:
 *  - every call of the ERC-7821 batch must be one of our actions, carry no ETH, and reach only our code:
 *    marketplace list, updatePrice, cancelListing, createAuction, settle, cancelAuction, withdraw;
 *    collectible approve / setApprovalForAll for the marketplace only and `transferFrom` (no
 *    `safeTransferFrom`: its receiver hook would run someone else's code on our gas); the account itself:
 *    addPasskey, removePasskey, setGuardian, cancelRecovery;
 *  - the operation's callGasLimit is at most the sum of each call's cap ({callGasCap});
 *  - the operation may cost at most `maxCostPerOp` wei, and its window must end (`validUntil` not 0).
 * Validation reads no storage (ERC-7562, unstaked or not): the signer, the contracts and the cap are immutables.
 * No postOp: the paymaster returns no context.
 */
contract DiginoorPaymaster is PaymasterSigner, AccessControl {
    uint256 public constant MAX_CALLS_PER_OP = 4;
    /// @notice Gas the account's ERC-7821 `execute` may spend around the calls (decoding, the batch loop).
    uint256 public constant EXECUTE_OVERHEAD_GAS = 30_000;
    bytes32 private constant BATCH_MODE = bytes32(uint256(0x01) << 248);

    /// @notice The server's sponsorship key (SPONSOR_SIGNER_PRIVATE_KEY): it can only sign sponsorships.
    address public immutable sponsorSigner;
    address public immutable collectible;
    address public immutable marketplace;
    uint256 public immutable maxCostPerOp;

    error NotABatch();
    error CallNotSponsored(address target, bytes4 selector);
    error TooManyCalls(uint256 count);
    error CostTooHigh(uint256 maxCost, uint256 limit);
    error CallGasTooHigh(uint256 callGasLimit, uint256 cap);
    error NoSponsorSigner();

    constructor(address collectible_, address marketplace_, address sponsorSigner_, address admin, uint256 maxCostPerOp_)
        EIP712("DiginoorPaymaster", "1")
    {
        if (sponsorSigner_ == address(0)) revert NoSponsorSigner();
        collectible = collectible_;
        marketplace = marketplace_;
        sponsorSigner = sponsorSigner_;
        maxCostPerOp = maxCostPerOp_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @inheritdoc Paymaster
    function entryPoint() public pure override returns (IEntryPoint) {
        return ERC4337Utils.ENTRYPOINT_V08;
    }

    /// @notice The EIP-712 digest the sponsorship key signs for `userOp` (its paymasterData ignored).
    function sponsorshipHash(PackedUserOperation calldata userOp, uint48 validAfter, uint48 validUntil)
        external
        view
        returns (bytes32)
    {
        return _signableUserOpHash(userOp, validAfter, validUntil);
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

    /// @dev The sponsorship signature, by the immutable key (no storage read, unlike SignerECDSA).
    function _rawSignatureValidation(bytes32 hash, bytes calldata signature) internal view override returns (bool) {
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(hash, signature);
        return err == ECDSA.RecoverError.NoError && recovered == sponsorSigner;
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 requiredPreFund)
        internal
        override
        returns (bytes memory context, uint256 validationData)
    {
        if (requiredPreFund > maxCostPerOp) revert CostTooHigh(requiredPreFund, maxCostPerOp);
        uint256 cap = _checkCalls(userOp.sender, userOp.callData);
        (context, validationData) = super._validatePaymasterUserOp(userOp, userOpHash, requiredPreFund);
        // Gas estimation runs with a stub signature and call gas of the bundler's choosing: the call gas cap
        // applies to a signed sponsorship (a signature that fails is refused by the EntryPoint anyway).
        if (uint160(validationData) != 0) return (context, validationData);
        (, uint48 validUntil,) = _decodePaymasterUserOp(userOp);
        // A sponsorship without an end would be good forever: refused.
        if (validUntil == 0) return ("", ERC4337Utils.SIG_VALIDATION_FAILED);
        uint256 callGasLimit = ERC4337Utils.callGasLimit(userOp);
        if (callGasLimit > cap) revert CallGasTooHigh(callGasLimit, cap);
    }

    /// @dev Checks every call of the batch and returns the operation's call gas cap.
    function _checkCalls(address sender, bytes calldata callData) private view returns (uint256 cap) {
        if (callData.length < 4 || bytes4(callData[:4]) != ERC7821.execute.selector) revert NotABatch();
        (bytes32 mode, bytes memory executionData) = abi.decode(callData[4:], (bytes32, bytes));
        if (mode != BATCH_MODE) revert NotABatch();
        Execution[] memory calls = abi.decode(executionData, (Execution[]));
        if (calls.length == 0 || calls.length > MAX_CALLS_PER_OP) revert TooManyCalls(calls.length);
        cap = EXECUTE_OVERHEAD_GAS;
        for (uint256 i = 0; i < calls.length; i++) {
            Execution memory c = calls[i];
            bytes4 selector = c.callData.length >= 4 ? bytes4(c.callData) : bytes4(0);
            uint256 gas = c.value == 0 ? _sponsoredGas(sender, c.target, selector, c.callData) : 0;
            if (gas == 0) revert CallNotSponsored(c.target, selector);
            cap += gas;
        }
    }

    /// @notice Call gas one sponsored call may use (0: not sponsored), measured with room (docs/gas.md).
    function callGasCap(address sender, address target, bytes calldata callData) external view returns (uint256) {
        bytes4 selector = callData.length >= 4 ? bytes4(callData[:4]) : bytes4(0);
        return _sponsoredGas(sender, target, selector, callData);
    }

    function _sponsoredGas(address sender, address target, bytes4 selector, bytes memory callData)
        private
        view
        returns (uint256)
    {
        if (target == marketplace) {
            if (selector == DiginoorMarketplace.list.selector) return 120_000;
            if (selector == DiginoorMarketplace.updatePrice.selector) return 60_000;
            if (selector == DiginoorMarketplace.cancelListing.selector) return 60_000;
            if (selector == DiginoorMarketplace.createAuction.selector) return 200_000;
            // Two payouts of PAYOUT_GAS each (the royalty receiver and the seller) besides the transfer.
            if (selector == DiginoorMarketplace.settle.selector) return 200_000;
            if (selector == DiginoorMarketplace.cancelAuction.selector) return 100_000;
            // Pays the caller, the account itself (our code).
            if (selector == bytes4(keccak256("withdraw()"))) return 60_000;
            return 0;
        }
        if (target == collectible) {
            if (selector == IERC721.approve.selector || selector == IERC721.setApprovalForAll.selector) {
                // The first argument is the operator: only our marketplace is approved at our expense.
                if (callData.length < 36) return 0;
                address operator;
                assembly ("memory-safe") {
                    operator := mload(add(callData, 36))
                }
                return operator == marketplace ? 60_000 : 0;
            }
            // A plain transfer calls no receiver hook.
            if (selector == IERC721.transferFrom.selector) return 100_000;
            return 0;
        }
        if (target == sender) {
            if (selector == DiginoorPasskeyAccount.addPasskey.selector) return 120_000;
            if (selector == DiginoorPasskeyAccount.removePasskey.selector) return 80_000;
            if (selector == DiginoorPasskeyAccount.setGuardian.selector) return 60_000;
            if (selector == DiginoorPasskeyAccount.cancelRecovery.selector) return 60_000;
            return 0;
        }
        return 0;
    }
}
