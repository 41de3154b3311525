// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {DiginoorPasskeyAccount} from "./DiginoorPasskeyAccount.sol";
import {DiginoorWebAuthnVerifier} from "./DiginoorWebAuthnVerifier.sol";

/**
 * @title DiginoorAccountFactory
 * @notice Deploys fans' passkey accounts as EIP-1167 clones at an address fixed by the passkey's public key
 * (and the guardian named at creation), so an account has its address before it exists (counterfactual) and
 * is deployed by its first user operation (initCode = this factory + createAccount). Anyone may deploy an
 * account: the salt binds the key, so the deployed account always belongs to that passkey.
 */
contract DiginoorAccountFactory {
    DiginoorPasskeyAccount public immutable implementation;
    /// @notice The stateless ERC-7913 WebAuthn verifier that checks every account's passkeys: OpenZeppelin's,
    /// always running the P-256 check (DiginoorWebAuthnVerifier).
    address public immutable webAuthnVerifier;
    /// @notice EXTCODEHASH of every account made here (the EIP-1167 proxy of `implementation`).
    bytes32 public immutable accountCodeHash;
    /// @notice Guardian given to every new account (the fan can change or remove it).
    address public immutable defaultGuardian;

    event AccountCreated(address indexed account, bytes32 qx, bytes32 qy);

    constructor(address guardian) {
        webAuthnVerifier = address(new DiginoorWebAuthnVerifier());
        implementation = new DiginoorPasskeyAccount(webAuthnVerifier);
        defaultGuardian = guardian;
        accountCodeHash = keccak256(
            abi.encodePacked(hex"363d3d373d3d3d363d73", address(implementation), hex"5af43d82803e903d91602b57fd5bf3")
        );
    }

    /// @notice The account whose first passkey is (qx, qy), deployed if it is not yet (passkeys added later do
    /// not move it: the address stays the first passkey's).
    function createAccount(bytes32 qx, bytes32 qy) external returns (address account) {
        bytes32 salt = keccak256(abi.encode(qx, qy));
        account = Clones.predictDeterministicAddress(address(implementation), salt);
        if (account.code.length == 0) {
            Clones.cloneDeterministic(address(implementation), salt);
            DiginoorPasskeyAccount(payable(account)).initialize(qx, qy, defaultGuardian);
            emit AccountCreated(account, qx, qy);
        }
    }

    /// @notice Address of the account of passkey (qx, qy), deployed or not.
    function accountAddress(bytes32 qx, bytes32 qy) external view returns (address) {
        return Clones.predictDeterministicAddress(address(implementation), keccak256(abi.encode(qx, qy)));
    }
}
