// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Account} from "@openzeppelin/contracts/account/Account.sol";
import {ERC7821} from "@openzeppelin/contracts/account/extensions/draft-ERC7821.sol";
import {ERC4337Utils} from "@openzeppelin/contracts/account/utils/ERC4337Utils.sol";
import {IEntryPoint} from "@openzeppelin/contracts/interfaces/IERC4337.sol";
import {Initializable} from "@openzeppelin/contracts/proxy/utils/Initializable.sol";
import {ERC721Holder} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Holder.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ERC7739} from "@openzeppelin/contracts/utils/cryptography/signers/draft-ERC7739.sol";
import {MultiSignerERC7913} from "@openzeppelin/contracts/utils/cryptography/signers/MultiSignerERC7913.sol";

/**
 * @title DiginoorPasskeyAccount
 * @notice A fan's wallet: an ERC-4337 account (EntryPoint v0.8) signed by the fan's WebAuthn passkeys (P-256
 * keys kept by the fan's phones and computers), any one of which signs alone. Calls are executed in ERC-7821
 * batches, sent through the EntryPoint (a user operation signed by one of the passkeys) or by the account itself.
 *
 * The passkeys are OpenZeppelin's MultiSignerERC7913 signers with threshold 1, each `verifier || qx || qy`
 * where `verifier` is the ERC7913WebAuthnVerifier our factory deployed (user present and verified required).
 * A user operation's signature is `abi.encode(bytes[] signers, bytes[] signatures)`, naming the passkey that
 * signed. Only WebAuthn passkeys of that verifier can be added, at most MAX_PASSKEYS.
 *
 * Signing (ERC-1271 with ERC-7739, OpenZeppelin): {isValidSignature} accepts a passkey's signature of a message
 * (personal_sign, e.g. Sign-In with Ethereum) or of typed data only in ERC-7739's nested form, bound to this
 * account's EIP-712 domain, so one passkey's signature for one account is never valid for another.
 *
 * Passkeys and recovery (docs/decisions/160-passkey-wallets.md, 171-second-passkey-and-recovery-pages.md,
 * 185-recovery-only-the-fan-controls.md):
 *  - a passkey of the wallet adds another ({addPasskey}, e.g. the fan's other device) or removes one
 *    ({removePasskey}; never the last): only the account itself, i.e. a user operation signed by a passkey;
 *  - a fan who lost every device is recovered by the account's guardian, which only the fan names: the
 *    address of a key derived from the fan's recovery code (the default: the code is shown to the fan once and
 *    never leaves their browser), or any address the fan chooses ({setGuardian}), or none. The guardian names a
 *    new passkey, sending {proposeRecovery} itself or signing it (EIP-712 `Recovery`, ERC-1271 for a contract
 *    guardian) for anyone to relay ({proposeRecoveryWithSignature}); it replaces every passkey only
 *    RECOVERY_DELAY later ({completeRecovery}), and only while the proposer is still the guardian; until then
 *    any passkey can {cancelRecovery}. Replacing or removing the guardian cancels its pending proposal. The
 *    guardian can do nothing else: it never signs user operations, never adds a passkey by itself and never
 *    moves a token.
 *
 * Deployed as EIP-1167 clones by DiginoorAccountFactory; the implementation itself is locked
 * (initializers disabled, its one signer a point whose private key nobody knows).
 */
contract DiginoorPasskeyAccount is Account, EIP712, ERC7739, MultiSignerERC7913, ERC7821, ERC721Holder, Initializable {
    /// @notice Time between a guardian's recovery proposal and the moment it can take effect.
    uint40 public constant RECOVERY_DELAY = 7 days;
    /// @notice EIP-712 type the guardian signs to propose a passkey (domain: this account, "DiginoorPasskeyAccount", "1").
    bytes32 public constant RECOVERY_TYPEHASH = keccak256("Recovery(bytes32 qx,bytes32 qy,uint256 nonce)");
    /// @notice Most passkeys one account holds (bounds the work of {completeRecovery}).
    uint256 public constant MAX_PASSKEYS = 8;

    /// @notice The ERC-7913 WebAuthn verifier every passkey of this account is checked by.
    address public immutable webAuthnVerifier;

    /// @dev The implementation's signer: the first point on P-256 with x >= sha256("Diginoor passkey account
    /// implementation: no signer"); its discrete logarithm is unknown, so nobody can sign for the implementation.
    bytes32 private constant LOCKED_QX = 0x95586cf39a7ef5d72d0ab976199903cc8488814dd63d54f7128610c2512595d3;
    bytes32 private constant LOCKED_QY = 0x0c40b2de9749a4c42e68ec2a5ece3ff0498d0bb4a86f0c3fc0671f5f3a3e4947;

    struct PendingRecovery {
        bytes32 qx;
        bytes32 qy;
        uint40 executableAt;
        /// @dev The guardian that proposed it. Always the current one: {setGuardian}, the only way the guardian
        /// changes, deletes the pending proposal, so a removed or replaced guardian's proposal never completes.
        address guardian;
    }

    address private _guardian;
    /// @dev Nonce of the next signed proposal ({proposeRecoveryWithSignature}): each signature is used once.
    uint256 private _recoveryNonce;
    PendingRecovery private _recovery;

    event PasskeyAdded(bytes32 qx, bytes32 qy);
    event PasskeyRemoved(bytes32 qx, bytes32 qy);
    event GuardianChanged(address indexed previousGuardian, address indexed newGuardian);
    event RecoveryProposed(address indexed guardian, bytes32 qx, bytes32 qy, uint40 executableAt);
    event RecoveryCancelled(bytes32 qx, bytes32 qy);
    event RecoveryCompleted(bytes32 qx, bytes32 qy);

    error NotGuardian(address caller);
    error InvalidGuardianSignature();
    error NoPendingRecovery();
    error RecoveryNotReady(uint40 executableAt);
    error InvalidPasskey(bytes32 qx, bytes32 qy);
    error TooManyPasskeys(uint256 max);

    constructor(address verifier)
        EIP712("DiginoorPasskeyAccount", "1")
        MultiSignerERC7913(_signers(abi.encodePacked(verifier, LOCKED_QX, LOCKED_QY)), 1)
    {
        webAuthnVerifier = verifier;
        _disableInitializers();
    }

    /// @notice Set the first passkey and the guardian of a new clone (called by the factory in the deploying call).
    function initialize(bytes32 qx, bytes32 qy, address guardian_) external initializer {
        _addPasskey(qx, qy);
        _setThreshold(1);
        _guardian = guardian_;
        emit GuardianChanged(address(0), guardian_);
    }

    /// @inheritdoc Account
    function entryPoint() public pure override returns (IEntryPoint) {
        return ERC4337Utils.ENTRYPOINT_V08;
    }

    /// @notice Add a passkey (e.g. on the fan's other device); signed by a passkey of the wallet.
    function addPasskey(bytes32 qx, bytes32 qy) external onlyEntryPointOrSelf {
        _addPasskey(qx, qy);
    }

    /// @notice Remove a passkey (e.g. of a lost device); signed by a passkey of the wallet. Never the last one.
    function removePasskey(bytes32 qx, bytes32 qy) external onlyEntryPointOrSelf {
        _removeSigners(_signers(_signerOf(qx, qy)));
        emit PasskeyRemoved(qx, qy);
    }

    /// @notice Whether (qx, qy) is one of the wallet's passkeys.
    function isPasskey(bytes32 qx, bytes32 qy) public view returns (bool) {
        return isSigner(_signerOf(qx, qy));
    }

    /// @notice The wallet's passkeys (their public keys).
    function passkeys() external view returns (bytes32[] memory qx, bytes32[] memory qy) {
        bytes[] memory all = getSigners(0, type(uint64).max);
        qx = new bytes32[](all.length);
        qy = new bytes32[](all.length);
        for (uint256 i = 0; i < all.length; ++i) {
            (qx[i], qy[i]) = _coordinates(all[i]);
        }
    }

    /// @notice Replace the guardian (e.g. a new recovery code's key), or remove it with address(0) (then a fan who
    /// loses every passkey loses the wallet). A pending recovery is cancelled: only the current guardian's counts.
    function setGuardian(address newGuardian) external onlyEntryPointOrSelf {
        PendingRecovery memory r = _recovery;
        if (r.executableAt != 0) {
            delete _recovery;
            emit RecoveryCancelled(r.qx, r.qy);
        }
        emit GuardianChanged(_guardian, newGuardian);
        _guardian = newGuardian;
    }

    function guardian() external view returns (address) {
        return _guardian;
    }

    function pendingRecovery() external view returns (PendingRecovery memory) {
        return _recovery;
    }

    /// @notice Nonce the guardian's next signed proposal must carry.
    function recoveryNonce() external view returns (uint256) {
        return _recoveryNonce;
    }

    /// @notice EIP-712 digest the guardian signs to propose passkey (qx, qy) with `nonce`.
    function recoveryDigest(bytes32 qx, bytes32 qy, uint256 nonce) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(RECOVERY_TYPEHASH, qx, qy, nonce)));
    }

    /// @notice Guardian only: name the passkey that replaces every passkey after RECOVERY_DELAY unless one cancels.
    function proposeRecovery(bytes32 qx, bytes32 qy) external {
        if (msg.sender != _guardian || msg.sender == address(0)) revert NotGuardian(msg.sender);
        _propose(msg.sender, qx, qy);
    }

    /// @notice Anyone relays the guardian's signed proposal (EIP-712 `Recovery(qx, qy, recoveryNonce())`, by the
    /// guardian's key, or ERC-1271 for a contract guardian); each signature counts once.
    function proposeRecoveryWithSignature(bytes32 qx, bytes32 qy, bytes calldata signature) external {
        address g = _guardian;
        if (g == address(0)) revert NotGuardian(address(0));
        uint256 nonce = _recoveryNonce++;
        if (!SignatureChecker.isValidSignatureNow(g, recoveryDigest(qx, qy, nonce), signature)) {
            revert InvalidGuardianSignature();
        }
        _propose(g, qx, qy);
    }

    function _propose(address by, bytes32 qx, bytes32 qy) private {
        if (!P256.isValidPublicKey(qx, qy)) revert InvalidPasskey(qx, qy);
        uint40 executableAt = uint40(block.timestamp) + RECOVERY_DELAY;
        _recovery = PendingRecovery(qx, qy, executableAt, by);
        emit RecoveryProposed(by, qx, qy, executableAt);
    }

    /// @notice Veto the guardian's pending recovery (signed by any passkey of the wallet).
    function cancelRecovery() external onlyEntryPointOrSelf {
        PendingRecovery memory r = _recovery;
        if (r.executableAt == 0) revert NoPendingRecovery();
        delete _recovery;
        emit RecoveryCancelled(r.qx, r.qy);
    }

    /// @notice Anyone: once the delay has passed, the recovered passkey becomes the wallet's only passkey (the
    /// proposal is the current guardian's: replacing or removing the guardian deleted any earlier one).
    function completeRecovery() external {
        PendingRecovery memory r = _recovery;
        if (r.executableAt == 0) revert NoPendingRecovery();
        if (block.timestamp < r.executableAt) revert RecoveryNotReady(r.executableAt);
        delete _recovery;
        bytes memory fresh = _signerOf(r.qx, r.qy);
        bytes[] memory old = getSigners(0, type(uint64).max);
        if (!isSigner(fresh)) {
            _addSigners(_signers(fresh));
            emit PasskeyAdded(r.qx, r.qy);
        }
        for (uint256 i = 0; i < old.length; ++i) {
            if (keccak256(old[i]) == keccak256(fresh)) continue;
            _removeSigners(_signers(old[i]));
            (bytes32 oldX, bytes32 oldY) = _coordinates(old[i]);
            emit PasskeyRemoved(oldX, oldY);
        }
        emit RecoveryCompleted(r.qx, r.qy);
    }

    function _addPasskey(bytes32 qx, bytes32 qy) private {
        if (!P256.isValidPublicKey(qx, qy)) revert InvalidPasskey(qx, qy);
        if (getSignerCount() >= MAX_PASSKEYS) revert TooManyPasskeys(MAX_PASSKEYS);
        _addSigners(_signers(_signerOf(qx, qy)));
        emit PasskeyAdded(qx, qy);
    }

    /// @dev ERC-7913 signer of a passkey: our WebAuthn verifier's address, then the key.
    function _signerOf(bytes32 qx, bytes32 qy) private view returns (bytes memory) {
        return abi.encodePacked(webAuthnVerifier, qx, qy);
    }

    function _coordinates(bytes memory signer) private pure returns (bytes32 qx, bytes32 qy) {
        assembly ("memory-safe") {
            qx := mload(add(signer, 52))
            qy := mload(add(signer, 84))
        }
    }

    function _signers(bytes memory signer) private pure returns (bytes[] memory list) {
        list = new bytes[](1);
        list[0] = signer;
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
