// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {DiginoorPasskeyAccount} from "./DiginoorPasskeyAccount.sol";
import {DiginoorWebAuthnVerifier} from "./DiginoorWebAuthnVerifier.sol";

/**
 * @title DiginoorAccountFactory
 * @notice Deploys fans' passkey accounts as EIP-1167 clones at an address fixed by the passkey's public key
 * and the guardian the fan named at creation (the key of their recovery code, or none), so an account has its
 * address before it exists (counterfactual) and is deployed by its first user operation (initCode = this
 * factory + createAccount). Anyone may deploy an account: the salt binds the key and the guardian, so the
 * deployed account always belongs to that passkey and recovers only through that guardian. There is no
 * default guardian: nobody but the fan chooses who can propose a recovery (decision 185).
 */
contract DiginoorAccountFactory {
    DiginoorPasskeyAccount public immutable implementation;
    /// @notice The stateless ERC-7913 WebAuthn verifier that checks every account's passkeys: OpenZeppelin's,
    /// always running the P-256 check (DiginoorWebAuthnVerifier).
    address public immutable webAuthnVerifier;
    /// @notice EXTCODEHASH of every account made here (the EIP-1167 proxy of `implementation`).
    bytes32 public immutable accountCodeHash;

    event AccountCreated(address indexed account, bytes32 qx, bytes32 qy);

    constructor() {
        webAuthnVerifier = address(new DiginoorWebAuthnVerifier());
        implementation = new DiginoorPasskeyAccount(webAuthnVerifier);
        accountCodeHash = keccak256(
            abi.encodePacked(hex"363d3d373d3d3d363d73", address(implementation), hex"5af43d82803e903d91602b57fd5bf3")
        );
    }

    /// @notice The account whose first passkey is (qx, qy) and that has no guardian, deployed if it is not yet
    /// (passkeys added later do not move it: the address stays the first passkey's).
    function createAccount(bytes32 qx, bytes32 qy) external returns (address) {
        return _create(qx, qy, address(0));
    }

    /// @notice The account whose first passkey is (qx, qy) and whose guardian is `guardian` (the fan's recovery
    /// code's key, or an address the fan named), deployed if it is not yet.
    function createAccount(bytes32 qx, bytes32 qy, address guardian) external returns (address) {
        return _create(qx, qy, guardian);
    }

    /// @notice Address of the account of passkey (qx, qy) with no guardian, deployed or not.
    function accountAddress(bytes32 qx, bytes32 qy) external view returns (address) {
        return Clones.predictDeterministicAddress(address(implementation), _salt(qx, qy, address(0)));
    }

    /// @notice Address of the account of passkey (qx, qy) created with `guardian`, deployed or not.
    function accountAddress(bytes32 qx, bytes32 qy, address guardian) external view returns (address) {
        return Clones.predictDeterministicAddress(address(implementation), _salt(qx, qy, guardian));
    }

    function _create(bytes32 qx, bytes32 qy, address guardian) private returns (address account) {
        bytes32 salt = _salt(qx, qy, guardian);
        account = Clones.predictDeterministicAddress(address(implementation), salt);
        if (account.code.length == 0) {
            Clones.cloneDeterministic(address(implementation), salt);
            DiginoorPasskeyAccount(payable(account)).initialize(qx, qy, guardian);
            emit AccountCreated(account, qx, qy);
        }
    }

    /// @dev Without a guardian the salt is the key's alone (the addresses of accounts made before guardians
    /// were chosen by the fan stay the same); with one, the key and the guardian.
    function _salt(bytes32 qx, bytes32 qy, address guardian) private pure returns (bytes32) {
        return guardian == address(0) ? keccak256(abi.encode(qx, qy)) : keccak256(abi.encode(qx, qy, guardian));
    }
}
