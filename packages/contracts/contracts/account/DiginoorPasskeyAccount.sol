// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Account} from "@openzeppelin/contracts/account/Account.sol";
import {ERC7821} from "@openzeppelin/contracts/account/extensions/draft-ERC7821.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {IEntryPoint} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {ERC721Holder} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Holder.sol";
import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {SignerP256} from "@openzeppelin/contracts/utils/cryptography/signers/SignerP256.sol";
import {SignerWebAuthn} from "@openzeppelin/contracts/utils/cryptography/signers/SignerWebAuthn.sol";

/**
 * @title DiginoorPasskeyAccount
 * @notice A fan's wallet: an ERC-4337 account (EntryPoint v0.8) whose only signer is a WebAuthn passkey
 * (P-256 key kept by the fan's phone or computer). Calls are executed in ERC-7821 batches, sent through
 * the EntryPoint (a user operation signed by the passkey) or by the account itself.
 *
 * Recovery (docs/decisions/160-passkey-wallets.md):
 *  - the fan moves the wallet to another passkey with {setSigner}, signed by the current one;
 *  - a fan who lost every device is recovered by the guardian: {proposeRecovery} names a new passkey that
 *    only takes over RECOVERY_DELAY later ({completeRecovery}); until then the current passkey can
 *    {cancelRecovery}. The guardian can do nothing else: it never signs user operations and never moves
 *    a token. The fan can replace or remove the guardian ({setGuardian}).
 *
 * Deployed as EIP-1167 clones by DiginoorAccountFactory; the implementation itself is locked
 * (initializers disabled, signer set to a point whose private key nobody knows).
 */
contract DiginoorPasskeyAccount is Account, SignerWebAuthn, ERC7821, ERC721Holder, Initializable {
    /// @notice Time between a guardian's recovery proposal and the moment it can take effect.
    uint40 public constant RECOVERY_DELAY = 7 days;

    /// @dev The implementation's signer: the first point on P-256 with x >= sha256("Diginoor passkey account
    /// implementation: no signer"); its discrete logarithm is unknown, so nobody can sign for the implementation.
    bytes32 private constant LOCKED_QX = 0x95586cf39a7ef5d72d0ab976199903cc8488814dd63d54f7128610c2512595d3;
    bytes32 private constant LOCKED_QY = 0x0c40b2de9749a4c42e68ec2a5ece3ff0498d0bb4a86f0c3fc0671f5f3a3e4947;

    struct PendingRecovery {
        bytes32 qx;
        bytes32 qy;
        uint40 executableAt;
    }

    address private _guardian;
    PendingRecovery private _recovery;

    event SignerChanged(bytes32 qx, bytes32 qy);
    event GuardianChanged(address indexed previousGuardian, address indexed newGuardian);
    event RecoveryProposed(address indexed guardian, bytes32 qx, bytes32 qy, uint40 executableAt);
    event RecoveryCancelled(bytes32 qx, bytes32 qy);
    event RecoveryCompleted(bytes32 qx, bytes32 qy);

    error NotGuardian(address caller);
    error NoPendingRecovery();
    error RecoveryNotReady(uint40 executableAt);

    constructor() SignerP256(LOCKED_QX, LOCKED_QY) {
        _disableInitializers();
    }

    /// @notice Set the passkey and the guardian of a new clone (called by the factory in the deploying call).
    function initialize(bytes32 qx, bytes32 qy, address guardian_) external initializer {
        _setSigner(qx, qy);
        _guardian = guardian_;
        emit SignerChanged(qx, qy);
        emit GuardianChanged(address(0), guardian_);
    }

    /// @inheritdoc Account
    function entryPoint() public pure override returns (IEntryPoint) {
        return ERC4337Utils.ENTRYPOINT_V08;
    }

    /// @notice Move the wallet to another passkey (signed by the current one). Cancels a pending recovery.
    function setSigner(bytes32 qx, bytes32 qy) external onlyEntryPointOrSelf {
        _setSigner(qx, qy);
        if (_recovery.executableAt != 0) {
            emit RecoveryCancelled(_recovery.qx, _recovery.qy);
            delete _recovery;
        }
        emit SignerChanged(qx, qy);
    }

    /// @notice Replace the guardian, or remove it with address(0) (then a fan who loses every passkey loses the wallet).
    function setGuardian(address newGuardian) external onlyEntryPointOrSelf {
        emit GuardianChanged(_guardian, newGuardian);
        _guardian = newGuardian;
    }

    function guardian() external view returns (address) {
        return _guardian;
    }

    function pendingRecovery() external view returns (PendingRecovery memory) {
        return _recovery;
    }

    /// @notice Guardian only: name the passkey that takes over after RECOVERY_DELAY unless the current one cancels.
    function proposeRecovery(bytes32 qx, bytes32 qy) external {
        if (msg.sender != _guardian || msg.sender == address(0)) revert NotGuardian(msg.sender);
        if (!P256.isValidPublicKey(qx, qy)) revert SignerP256InvalidPublicKey(qx, qy);
        uint40 executableAt = uint40(block.timestamp) + RECOVERY_DELAY;
        _recovery = PendingRecovery(qx, qy, executableAt);
        emit RecoveryProposed(msg.sender, qx, qy, executableAt);
    }

    /// @notice Veto the guardian's pending recovery (signed by the current passkey).
    function cancelRecovery() external onlyEntryPointOrSelf {
        PendingRecovery memory r = _recovery;
        if (r.executableAt == 0) revert NoPendingRecovery();
        delete _recovery;
        emit RecoveryCancelled(r.qx, r.qy);
    }

    /// @notice Anyone: install the recovered passkey once the delay has passed.
    function completeRecovery() external {
        PendingRecovery memory r = _recovery;
        if (r.executableAt == 0) revert NoPendingRecovery();
        if (block.timestamp < r.executableAt) revert RecoveryNotReady(r.executableAt);
        delete _recovery;
        _setSigner(r.qx, r.qy);
        emit RecoveryCompleted(r.qx, r.qy);
        emit SignerChanged(r.qx, r.qy);
    }

    /// @dev The EntryPoint (a validated user operation) may execute batches, besides the account itself.
    function _erc7821AuthorizedExecutor(address caller, bytes32 mode, bytes calldata executionData)
        internal
        view
        override
        returns (bool)
    {
        return caller == address(entryPoint()) || super._erc7821AuthorizedExecutor(caller, mode, executionData);
    }
}
