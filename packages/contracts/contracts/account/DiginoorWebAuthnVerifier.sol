// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC7913SignatureVerifier} from "@openzeppelin/contracts/interfaces/IERC7913.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Bytes} from "@openzeppelin/contracts/utils/Bytes.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {P256} from "@openzeppelin/contracts/utils/cryptography/P256.sol";
import {WebAuthn} from "@openzeppelin/contracts/utils/cryptography/WebAuthn.sol";

/**
 * @title DiginoorWebAuthnVerifier
 * @notice The ERC-7913 verifier of our passkeys: OpenZeppelin 5.7's ERC7913WebAuthnVerifier (WebAuthn.verify
 * with user verification required), with one difference: the P-256 check always runs, whatever the other
 * checks found, so that every signature of the right shape costs the same gas.
 *
 * OpenZeppelin's `WebAuthn.verify` stops at the first failed check. The stub signature a wallet estimates gas
 * with (any bundler's `eth_estimateUserOperationGas`) cannot carry the user operation's hash as its challenge
 * (the hash covers the gas limits being estimated), so it stopped at the challenge and skipped the P-256
 * check: about 9.8k gas less than a signature (with the EIP-7951 precompile; some 200k without it). At the
 * estimated limits a wrong signature of the wallet's passkey then ran out of verification gas (AA26) instead
 * of being refused as a bad signature (AA24). Here the stub pays for the P-256 check like any signature
 * (issue 37 point 4, packages/contracts/test/passkey-stub-gas.test.ts).
 *
 * The checks are OpenZeppelin's (WebAuthn.sol, MIT), evaluated without short-circuit; the result is theirs.
 */
contract DiginoorWebAuthnVerifier is IERC7913SignatureVerifier {
    bytes1 private constant FLAG_UP = 0x01;
    bytes1 private constant FLAG_UV = 0x04;
    bytes1 private constant FLAG_BE = 0x08;
    bytes1 private constant FLAG_BS = 0x10;

    /// @inheritdoc IERC7913SignatureVerifier
    function verify(bytes calldata key, bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (bool decoded, WebAuthn.WebAuthnAuth calldata auth) = WebAuthn.tryDecodeAuth(signature);
        return decoded && key.length == 0x40 &&
            _verify(abi.encodePacked(hash), auth, bytes32(key[0x00:0x20]), bytes32(key[0x20:0x40]))
            ? IERC7913SignatureVerifier.verify.selector
            : bytes4(0xFFFFFFFF);
    }

    /// @dev OpenZeppelin's `WebAuthn.verify(challenge, auth, qx, qy, true)`, every check evaluated.
    function _verify(bytes memory challenge, WebAuthn.WebAuthnAuth memory auth, bytes32 qx, bytes32 qy)
        private
        view
        returns (bool)
    {
        bool formed = auth.authenticatorData.length > 36;
        bytes1 flags = formed ? auth.authenticatorData[32] : bytes1(0);
        bool checks = formed && _validateExpectedType(auth.clientDataJSON, auth.typeIndex)
            && _validateChallenge(auth.clientDataJSON, auth.challengeIndex, challenge) && (flags & FLAG_UP) == FLAG_UP
            && (flags & FLAG_UV) == FLAG_UV && ((flags & FLAG_BE) == FLAG_BE || (flags & FLAG_BS) == 0);
        // Always, so that a signature failing an earlier check costs what one failing here costs.
        bool signed = P256.verify(
            sha256(abi.encodePacked(auth.authenticatorData, sha256(bytes(auth.clientDataJSON)))),
            auth.r,
            auth.s,
            qx,
            qy
        );
        return checks && signed;
    }

    /// @dev `"type":"webauthn.get"` at `typeIndex` (OpenZeppelin's `_validateExpectedTypeHash`).
    function _validateExpectedType(string memory clientDataJSON, uint256 typeIndex)
        private
        pure
        returns (bool success)
    {
        assembly ("memory-safe") {
            success := and(
                gt(mload(clientDataJSON), add(typeIndex, 20)),
                eq(
                    and(mload(add(add(clientDataJSON, 0x20), typeIndex)), shl(88, not(0))),
                    // solhint-disable-next-line quotes
                    '"type":"webauthn.get"'
                )
            )
        }
    }

    /// @dev `"challenge":"<base64url(challenge)>"` at `challengeIndex` (OpenZeppelin's `_validateChallenge`).
    function _validateChallenge(string memory clientDataJSON, uint256 challengeIndex, bytes memory challenge)
        private
        pure
        returns (bool)
    {
        // solhint-disable-next-line quotes
        string memory expected = string.concat('"challenge":"', Base64.encodeURL(challenge), '"');
        string memory actual = string(
            Bytes.slice(
                bytes(clientDataJSON), challengeIndex, Math.saturatingAdd(challengeIndex, bytes(expected).length)
            )
        );
        return Strings.equal(actual, expected);
    }
}
