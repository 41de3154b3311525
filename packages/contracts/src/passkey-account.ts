/**
 * The fan's passkey wallet as a viem smart account (viem/account-abstraction `toSmartAccount`): our
 * DiginoorPasskeyAccount (OpenZeppelin Account + MultiSignerERC7913 of WebAuthn passkeys + ERC-7821 batches)
 * on EntryPoint v0.8, deployed by DiginoorAccountFactory on its first user operation. The owner is a viem
 * `WebAuthnAccount` (`toWebAuthnAccount`): the browser's passkey (any passkey of the wallet: the first one or
 * one added later from another device), or a software authenticator in tests. Works in the browser and in
 * Node (viem only).
 */
import {
  type Address,
  concat,
  type TypedDataDefinition,
  zeroAddress,
  zeroHash,
  decodeAbiParameters,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  numberToHex,
  pad,
  sha256,
  size,
  slice,
} from "viem";
import {
  entryPoint08Abi,
  entryPoint08Address,
  type GetPaymasterDataParameters,
  getUserOperationHash,
  type SmartAccount,
  type SmartAccountImplementation,
  toSmartAccount,
  type WebAuthnAccount,
} from "viem/account-abstraction";
import { readContract } from "viem/actions";
import {
  hashMessage as erc7739HashMessage,
  hashTypedData as erc7739HashTypedData,
  wrapTypedDataSignature,
} from "viem/experimental/erc7739";
import { diginoorAccountFactoryAbi } from "../generated/diginoorAccountFactory.js";
import { diginoorPasskeyAccountAbi } from "../generated/diginoorPasskeyAccount.js";

/** ERC-7821 / ERC-7579 mode: batch call, revert on failure, no selector, no payload. */
export const BATCH_MODE: Hex = pad("0x01", { dir: "right", size: 32 });

const EXECUTION_TUPLE = {
  type: "tuple[]",
  components: [
    { name: "target", type: "address" },
    { name: "value", type: "uint256" },
    { name: "callData", type: "bytes" },
  ],
} as const;

/** A passkey's P-256 public key as viem's credentials carry it (64 bytes x || y, or 65 with the 0x04 prefix). */
export function passkeyCoordinates(publicKey: Hex): { qx: Hex; qy: Hex } {
  const key = size(publicKey) === 65 ? slice(publicKey, 1) : publicKey;
  if (size(key) !== 64) throw new Error("a P-256 public key is 64 bytes (x || y)");
  return { qx: slice(key, 0, 32), qy: slice(key, 32, 64) };
}

/** OpenZeppelin's WebAuthnAuth fields in order: r, s, challengeIndex, typeIndex, authenticatorData, clientDataJSON. */
export const WEBAUTHN_AUTH_PARAMETERS = [
  { type: "bytes32" },
  { type: "bytes32" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "bytes" },
  { type: "string" },
] as const;

/** WebAuthn assertion as OpenZeppelin's WebAuthn.tryDecodeAuth reads it: the WebAuthnAuth fields, ABI-encoded in place. */
export function encodeWebAuthnSignature(args: {
  /** r || s, 64 bytes (low s, as ox normalises it). */
  signature: Hex;
  webauthn: { authenticatorData: Hex; clientDataJSON: string; challengeIndex?: number; typeIndex?: number };
}): Hex {
  const { clientDataJSON } = args.webauthn;
  const challengeIndex = args.webauthn.challengeIndex ?? clientDataJSON.indexOf('"challenge"');
  const typeIndex = args.webauthn.typeIndex ?? clientDataJSON.indexOf('"type"');
  const r = slice(args.signature, 0, 32);
  const s = slice(args.signature, 32, 64);
  return encodeAbiParameters(WEBAUTHN_AUTH_PARAMETERS, [
    r,
    s,
    BigInt(challengeIndex),
    BigInt(typeIndex),
    args.webauthn.authenticatorData,
    clientDataJSON,
  ]);
}

/** ERC-7913 signer of a passkey in our account: the WebAuthn verifier's address, then x || y (84 bytes). */
export function passkeySigner(verifier: Address, publicKey: Hex): Hex {
  const { qx, qy } = passkeyCoordinates(publicKey);
  return concat([verifier, qx, qy]);
}

/**
 * The account's signature (OpenZeppelin MultiSignerERC7913, threshold 1): `abi.encode(bytes[] signers,
 * bytes[] signatures)` with the one passkey that signed and its WebAuthn assertion.
 */
export function encodePasskeyAccountSignature(signer: Hex, webAuthnSignature: Hex): Hex {
  return encodeAbiParameters([{ type: "bytes[]" }, { type: "bytes[]" }], [[signer], [webAuthnSignature]]);
}

/**
 * A well-formed WebAuthn signature of the right size that does not verify, for gas estimation: the account
 * answers SIG_VALIDATION_FAILED instead of reverting, and its P-256 check costs at least what any signature's
 * costs (issue 37 point 4):
 *  - our verifier (DiginoorWebAuthnVerifier) runs the P-256 check even though the stub's challenge is not the
 *    operation's hash (it cannot be: the hash covers the gas limits being estimated);
 *  - with the P-256 precompile a failing signature costs two calls to it (OpenZeppelin's P256 then probes
 *    the precompile), a valid one one;
 *  - without it OpenZeppelin's Solidity check adds a point for every 2-bit window of (u1, u2) that is not
 *    (0, 0), and doubles from the first one: r and s are chosen so that no window is (0, 0) and the first is
 *    not, the most work a signature can cause (r = sha256("Diginoor stub signature r") mod n, s =
 *    sha256("Diginoor stub signature s 2680") mod n/2, the first k that gives it; r = s = 1 skipped 31 of the
 *    128 additions). `test/passkey-stub-gas.test.ts` checks this of the constant.
 */
export const STUB_WEBAUTHN_SIGNATURE: Hex = encodeWebAuthnSignature({
  signature: concat([
    "0x23efb90da36555d97bb8d2c66731d9f9493a9ef2ca16c6dd2ef1e4639f838f0a",
    "0x7f33a0146ce0fa32794ff795ae7f9068312c578f749457617b3fb6f20dee1e34",
  ]),
  webauthn: {
    authenticatorData: concat([pad("0x49", { size: 32 }), "0x0500000000"]),
    clientDataJSON: `{"type":"webauthn.get","challenge":"${"A".repeat(43)}","origin":"https://diginoor.example","crossOrigin":false}`,
    challengeIndex: 23,
    typeIndex: 1,
  },
});

type Call = { to: Address; value?: bigint; data?: Hex };

/** ERC-7821 execution data of a batch: `abi.encode(Execution[])`. */
export function encodeExecutionData(calls: readonly Call[]): Hex {
  return encodeAbiParameters(
    [EXECUTION_TUPLE],
    [calls.map((c) => ({ target: c.to, value: c.value ?? 0n, callData: c.data ?? "0x" }))],
  );
}

/** Encode calls as one ERC-7821 `execute(BATCH_MODE, abi.encode(Execution[]))`. */
export function encodePasskeyAccountCalls(calls: readonly Call[]): Hex {
  return encodeFunctionData({
    abi: diginoorPasskeyAccountAbi,
    functionName: "execute",
    args: [BATCH_MODE, encodeExecutionData(calls)],
  });
}

export interface ToPasskeyAccountParameters {
  /** A public client of the chain (reads the counterfactual address and the nonce). */
  client: SmartAccountImplementation["client"];
  factory: Address;
  owner: WebAuthnAccount;
  /** Known address of the account (skips the factory read); required for a passkey added later (below). */
  address?: Address;
  /**
   * The public key the account was created with (its address is that key's), when `owner` is a passkey
   * added later from another device. Defaults to the owner's: the account's first passkey.
   */
  firstPublicKey?: Hex;
  /** The factory's WebAuthn verifier (read from the factory once when not given). */
  verifier?: Address;
  /**
   * Every passkey of the wallet the app knows, when `owner` lets the browser choose among them (its
   * credential id a list): the signature names the one whose credential answered. Defaults to the owner's.
   */
  passkeys?: readonly { id: string; publicKey: Hex }[];
  /**
   * The guardian the account was created with (the key of the fan's recovery code, or an address the fan
   * named; decision 185): part of its address. None when omitted or the zero address.
   */
  guardian?: Address;
}

/** The account's EIP-712 domain name and version (ERC-7739 signatures and the guardian's `Recovery`). */
export const PASSKEY_ACCOUNT_DOMAIN = { name: "DiginoorPasskeyAccount", version: "1" } as const;

/** The EIP-712 `Recovery` the guardian signs to propose passkey (qx, qy) on `account` (its `recoveryNonce()`). */
export function recoveryTypedData(args: {
  account: Address;
  chainId: number;
  publicKey: Hex;
  nonce: bigint;
}) {
  const { qx, qy } = passkeyCoordinates(args.publicKey);
  return {
    domain: { ...PASSKEY_ACCOUNT_DOMAIN, chainId: args.chainId, verifyingContract: args.account },
    types: {
      Recovery: [
        { name: "qx", type: "bytes32" },
        { name: "qy", type: "bytes32" },
        { name: "nonce", type: "uint256" },
      ],
    },
    primaryType: "Recovery",
    message: { qx, qy, nonce: args.nonce },
  } as const;
}

/**
 * A 6-digit code of a passkey's public key ("482 913"), shown on the device that asks to add its passkey
 * and on the device that approves it: the same code on both means the key about to be added is the
 * asking device's, not one swapped on the way (decision 171).
 */
export function passkeyPairingCode(publicKey: Hex): string {
  const digest = sha256(passkeyPublicKey(publicKey));
  const n = Number.parseInt(digest.slice(2, 10), 16) % 1_000_000;
  const digits = n.toString().padStart(6, "0");
  return `${digits.slice(0, 3)} ${digits.slice(3)}`;
}

/** x || y (64 bytes, lower case) of a public key given with or without its 0x04 prefix. */
function passkeyPublicKey(publicKey: Hex): Hex {
  const { qx, qy } = passkeyCoordinates(publicKey);
  return concat([qx, qy]).toLowerCase() as Hex;
}

const verifiers = new Map<string, Promise<Address>>();

/** The ERC-7913 WebAuthn verifier of our factory (immutable: read once per factory). */
export function factoryVerifier(
  client: SmartAccountImplementation["client"],
  factory: Address,
): Promise<Address> {
  const key = `${client.chain?.id ?? ""}:${factory.toLowerCase()}`;
  let v = verifiers.get(key);
  if (!v) {
    v = readContract(client, {
      address: factory,
      abi: diginoorAccountFactoryAbi,
      functionName: "webAuthnVerifier",
    });
    v.catch(() => verifiers.delete(key));
    verifiers.set(key, v);
  }
  return v;
}

/** The fan's passkey account as a viem SmartAccount (EntryPoint v0.8). */
export async function toPasskeyAccount(params: ToPasskeyAccountParameters): Promise<SmartAccount> {
  const { client, factory, owner } = params;
  if (params.firstPublicKey && !params.address)
    throw new Error("a passkey added later needs the account's address");
  const { qx, qy } = passkeyCoordinates(params.firstPublicKey ?? owner.publicKey);
  const verifier = params.verifier ?? (await factoryVerifier(client, factory));
  const signer = passkeySigner(verifier, owner.publicKey);
  const guardian = params.guardian && params.guardian !== zeroAddress ? params.guardian : undefined;
  const address =
    params.address ??
    (await readContract(client, {
      address: factory,
      abi: diginoorAccountFactoryAbi,
      functionName: "accountAddress",
      args: guardian ? [qx, qy, guardian] : [qx, qy],
    }));
  const chainIdOf = () => {
    const id = client.chain?.id;
    if (id === undefined) throw new Error("chain id unknown: give the client a chain");
    return id;
  };
  const verifierDomain = () => ({
    ...PASSKEY_ACCOUNT_DOMAIN,
    chainId: chainIdOf(),
    verifyingContract: address,
    salt: zeroHash,
  });
  /** The account's signature of `hash` by the passkey that answers. */
  async function signHash(hash: Hex): Promise<Hex> {
    const { signature, webauthn, raw } = await owner.sign({ hash });
    const answered = params.passkeys?.find((p) => p.id === raw?.id);
    const by = answered ? passkeySigner(verifier, answered.publicKey) : signer;
    return encodePasskeyAccountSignature(by, encodeWebAuthnSignature({ signature, webauthn }));
  }
  const entryPoint = { abi: entryPoint08Abi, address: entryPoint08Address, version: "0.8" } as const;
  return toSmartAccount({
    client,
    entryPoint,
    extend: { owner },
    async decodeCalls(data) {
      const { args } = decodeFunctionData({ abi: diginoorPasskeyAccountAbi, data });
      const [, executionData] = args as readonly [Hex, Hex];
      const [calls] = decodeAbiParameters([EXECUTION_TUPLE], executionData);
      return calls.map((c) => ({ to: c.target, value: c.value, data: c.callData }));
    },
    async encodeCalls(calls) {
      return encodePasskeyAccountCalls(calls);
    },
    async getAddress() {
      return address;
    },
    async getFactoryArgs() {
      return {
        factory,
        factoryData: encodeFunctionData({
          abi: diginoorAccountFactoryAbi,
          functionName: "createAccount",
          args: guardian ? [qx, qy, guardian] : [qx, qy],
        }),
      };
    },
    async getStubSignature() {
      return encodePasskeyAccountSignature(signer, STUB_WEBAUTHN_SIGNATURE);
    },
    // ERC-1271 with ERC-7739 (the account's isValidSignature): a message is signed as the nested
    // `PersonalSign(bytes prefixed)` of the account's domain; typed data as `TypedDataSign` wrapping the
    // app's struct, the signature followed by the app's domain, the contents' hash and type.
    // toSmartAccount wraps either in ERC-6492 while the account is not deployed.
    async signMessage({ message }) {
      return signHash(erc7739HashMessage({ message, verifierDomain: verifierDomain() }));
    },
    async signTypedData(typedData) {
      const { domain, types, primaryType, message } = typedData as TypedDataDefinition;
      const { EIP712Domain: _, ...structTypes } = types as Record<string, unknown>;
      const hash = erc7739HashTypedData({
        domain,
        types: structTypes,
        primaryType,
        message,
        verifierDomain: verifierDomain(),
      } as never);
      const signature = await signHash(hash);
      return wrapTypedDataSignature({ domain, types: structTypes, primaryType, message, signature } as never);
    },
    async signUserOperation(parameters) {
      const { chainId = client.chain?.id, ...userOperation } = parameters;
      if (chainId === undefined) throw new Error("chain id unknown: give the client a chain");
      const hash = getUserOperationHash({
        chainId,
        entryPointAddress: entryPoint.address,
        entryPointVersion: entryPoint.version,
        userOperation: { ...userOperation, sender: address },
      });
      return signHash(hash);
    },
    userOperation: {
      // P-256 verification without the RIP-7212 precompile costs ~300k gas: never let an estimate go below it.
      async estimateGas(userOperation) {
        return {
          verificationGasLimit: BigInt(Math.max(Number(userOperation.verificationGasLimit ?? 0n), 600_000)),
        };
      },
    },
  });
}

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
type GasPrice = { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex };

/**
 * Fees of a user operation as the bundler prices them: `pimlico_getUserOperationGasPrice` (Alto and Pimlico
 * answer it), its "standard" price; `fallback` (the node's estimate) for a bundler without it. For viem's
 * `createBundlerClient({ userOperation: { estimateFeesPerGas } })`.
 *
 * Not viem's default (twice the node's fees): on a development chain whose only transactions are our
 * bundler's, the node's suggested tip is the last bundle's, which Alto prices at what its operations paid,
 * so each operation paid about twice the previous one, and the sixth of a fan's day passed the paymaster's
 * per-operation cap (`CostTooHigh`; seen in the browser suite). The local Alto prices from a fixed tip.
 */
export async function bundlerFeesPerGas(
  bundler: { request: (args: { method: string; params?: unknown[] }) => Promise<unknown> },
  fallback: () => Promise<Fees>,
): Promise<Fees> {
  let price: { standard?: GasPrice } | undefined;
  try {
    price = (await bundler.request({ method: "pimlico_getUserOperationGasPrice", params: [] })) as {
      standard?: GasPrice;
    };
  } catch {
    return fallback();
  }
  if (!price?.standard) return fallback();
  return {
    maxFeePerGas: BigInt(price.standard.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(price.standard.maxPriorityFeePerGas),
  };
}

/** The EIP-712 type OpenZeppelin's PaymasterSigner signs (the user operation without its paymasterData and signature). */
export const SPONSORSHIP_TYPES = {
  UserOperationRequest: [
    { name: "sender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "initCode", type: "bytes" },
    { name: "callData", type: "bytes" },
    { name: "accountGasLimits", type: "bytes32" },
    { name: "preVerificationGas", type: "uint256" },
    { name: "gasFees", type: "bytes32" },
    { name: "paymasterVerificationGasLimit", type: "uint256" },
    { name: "paymasterPostOpGasLimit", type: "uint256" },
    { name: "validAfter", type: "uint48" },
    { name: "validUntil", type: "uint48" },
  ],
} as const;

/** The fields of an EntryPoint v0.8 user operation the sponsorship covers (viem's unpacked form). */
export interface SponsoredOperation {
  sender: Address;
  nonce: bigint;
  factory?: Address | undefined;
  factoryData?: Hex | undefined;
  callData: Hex;
  callGasLimit: bigint;
  verificationGasLimit: bigint;
  preVerificationGas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  paymasterVerificationGasLimit?: bigint | undefined;
  paymasterPostOpGasLimit?: bigint | undefined;
  /** The account's estimation stub (not signed: the server estimates the operation's gas with it). */
  signature?: Hex | undefined;
}

/** The JSON body of POST /api/v1/paymaster for `op` (the bundler's hex form). */
export function sponsorshipRequest(paymaster: Address, op: SponsoredOperation) {
  const q = (v: bigint | undefined) => numberToHex(v ?? 0n);
  return {
    sender: op.sender,
    nonce: q(op.nonce),
    ...(op.factory ? { factory: op.factory, factoryData: op.factoryData ?? "0x" } : {}),
    callData: op.callData,
    callGasLimit: q(op.callGasLimit),
    verificationGasLimit: q(op.verificationGasLimit),
    preVerificationGas: q(op.preVerificationGas),
    maxFeePerGas: q(op.maxFeePerGas),
    maxPriorityFeePerGas: q(op.maxPriorityFeePerGas),
    paymaster,
    paymasterVerificationGasLimit: q(op.paymasterVerificationGasLimit ?? PAYMASTER_VERIFICATION_GAS),
    paymasterPostOpGasLimit: q(op.paymasterPostOpGasLimit),
    signature: op.signature ?? "0x",
  };
}

const packPair = (high: bigint, low: bigint): Hex =>
  concat([pad(numberToHex(high), { size: 16 }), pad(numberToHex(low), { size: 16 })]);

/**
 * The EIP-712 typed data the sponsorship key signs for `op` (DiginoorPaymaster, decision 186): viem's
 * `signTypedData(sponsorshipTypedData(...))` gives the signature {@link encodeSponsorship} wraps.
 */
export function sponsorshipTypedData(args: {
  paymaster: Address;
  chainId: number;
  op: SponsoredOperation;
  validAfter: number;
  validUntil: number;
}) {
  const { op } = args;
  return {
    domain: {
      name: "DiginoorPaymaster",
      version: "1",
      chainId: args.chainId,
      verifyingContract: args.paymaster,
    },
    types: SPONSORSHIP_TYPES,
    primaryType: "UserOperationRequest",
    message: {
      sender: op.sender,
      nonce: op.nonce,
      initCode: op.factory ? concat([op.factory, op.factoryData ?? "0x"]) : "0x",
      callData: op.callData,
      accountGasLimits: packPair(op.verificationGasLimit, op.callGasLimit),
      preVerificationGas: op.preVerificationGas,
      gasFees: packPair(op.maxPriorityFeePerGas, op.maxFeePerGas),
      paymasterVerificationGasLimit: op.paymasterVerificationGasLimit ?? 0n,
      paymasterPostOpGasLimit: op.paymasterPostOpGasLimit ?? 0n,
      validAfter: args.validAfter,
      validUntil: args.validUntil,
    },
  } as const;
}

/** paymasterData of DiginoorPaymaster: validAfter (uint48) || validUntil (uint48) || the 65-byte signature. */
export function encodeSponsorship(validAfter: number, validUntil: number, signature: Hex): Hex {
  return concat([numberToHex(validAfter, { size: 6 }), numberToHex(validUntil, { size: 6 }), signature]);
}

/** Gas the paymaster's validation may use (an ecrecover and the batch checks); signed with the operation. */
export const PAYMASTER_VERIFICATION_GAS = 150_000n;

/**
 * A sponsorship of the right size that does not verify, for gas estimation (the paymaster answers
 * SIG_VALIDATION_FAILED, and ecrecover costs as much as with a real signature).
 */
export const STUB_SPONSORSHIP: Hex = encodeSponsorship(
  0,
  0xffffffffffff,
  concat([pad("0x01", { size: 32 }), pad("0x01", { size: 32 }), "0x1b"]),
);

/**
 * Paymaster fields for viem's `sendUserOperation({ paymaster })`: our paymaster with a stub sponsorship to
 * estimate, then the server's sponsorship of the estimated operation (`sponsor`: the web app's call of
 * POST /api/v1/paymaster; in tests a key). The paymaster gas limits are fixed here and signed with the rest.
 */
export function diginoorPaymasterFields(
  paymaster: Address,
  sponsor: (op: SponsoredOperation) => Promise<Hex>,
) {
  return {
    async getPaymasterStubData() {
      return {
        paymaster,
        paymasterData: STUB_SPONSORSHIP,
        paymasterPostOpGasLimit: 0n,
        paymasterVerificationGasLimit: PAYMASTER_VERIFICATION_GAS,
      };
    },
    async getPaymasterData(op: GetPaymasterDataParameters) {
      const { callGasLimit, verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas } =
        op;
      if (
        callGasLimit === undefined ||
        verificationGasLimit === undefined ||
        preVerificationGas === undefined ||
        maxFeePerGas === undefined ||
        maxPriorityFeePerGas === undefined
      )
        throw new Error("a sponsorship covers the operation's gas and fees: estimate them first");
      const o = op as GetPaymasterDataParameters & {
        factory?: Address;
        factoryData?: Hex;
        paymasterVerificationGasLimit?: bigint;
        paymasterPostOpGasLimit?: bigint;
      };
      const paymasterData = await sponsor({
        sender: o.sender,
        nonce: o.nonce,
        factory: o.factory,
        factoryData: o.factoryData,
        callData: o.callData,
        callGasLimit,
        verificationGasLimit,
        preVerificationGas,
        maxFeePerGas,
        maxPriorityFeePerGas,
        paymasterVerificationGasLimit: o.paymasterVerificationGasLimit ?? PAYMASTER_VERIFICATION_GAS,
        paymasterPostOpGasLimit: o.paymasterPostOpGasLimit ?? 0n,
        signature: (o as { signature?: Hex }).signature,
      });
      return { paymaster, paymasterData };
    },
  };
}
