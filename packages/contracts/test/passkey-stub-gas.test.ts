/**
 * Gas estimated with the passkey account's stub signature covers every signature (issue 37 point 4). The
 * bundler (Alto) estimates with `getStubSignature()`; before, the stub failed OpenZeppelin's WebAuthn check
 * at the challenge, before the P-256 check, so it cost about 9.8k gas less than a real signature, and at the
 * estimated limits a wrong signature of the wallet's passkey ran out of verification gas: the bundler said
 * AA26 (-32500, over verificationGasLimit) instead of AA24 (-32507, signature error). The factory's verifier
 * (DiginoorWebAuthnVerifier) now always runs the P-256 check.
 *
 * Each case: the bundler's own estimate with the stub (viem's estimateUserOperationGas, no gas of ours
 * added), then the operation at exactly those limits signed by another key over the right hash while naming
 * the wallet's passkey (AA24), then the same operation signed by the wallet's passkey (included).
 */
import {
  type Address,
  type Chain,
  concat,
  decodeAbiParameters,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  parseEther,
  sha256,
  stringToHex,
  type Transport,
} from "viem";
import {
  type BundlerClient,
  formatUserOperationRequest,
  getUserOperationHash,
  type SmartAccount,
  type UserOperation,
} from "viem/account-abstraction";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import type { BundlerInstance } from "../src/bundler.js";
import {
  diginoorPaymasterFields,
  encodePasskeyAccountSignature,
  encodeWebAuthnSignature,
  factoryVerifier,
  passkeySigner,
  STUB_SPONSORSHIP,
  STUB_WEBAUTHN_SIGNATURE,
  toPasskeyAccount,
  WEBAUTHN_AUTH_PARAMETERS,
} from "../src/passkey-account.js";
import { createSoftwarePasskey, type SoftwarePasskey } from "../src/software-passkey.js";
import type { WalletContracts } from "../src/wallets.js";
import { type Fixture, minterMint } from "./fixture.js";
import { sponsorSignature } from "./sponsorship.js";
import { setupWalletFixture, type WalletFixture } from "./wallet-fixture.js";

let w: WalletFixture;
let f: Fixture;
let wallets: WalletContracts;
let bundler: BundlerInstance;
let bundlerClient: BundlerClient;

beforeAll(async () => {
  w = await setupWalletFixture();
  ({ f, wallets, bundler, bundlerClient } = w);
}, 180_000);

afterAll(async () => {
  await w?.stop();
});

const col = (functionName: string, args: readonly unknown[]) => ({
  to: f.collectible,
  data: encodeFunctionData({ abi: diginoorCollectibleAbi, functionName, args } as never),
});
const mkt = (functionName: string, args: readonly unknown[]) => ({
  to: f.marketplace,
  data: encodeFunctionData({ abi: diginoorMarketplaceAbi, functionName, args } as never),
});

async function rpc(method: string, params: unknown[]) {
  const res = await fetch(bundler.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/**
 * The operation at exactly the bundler's estimate made with the stub signature (and the stub sponsorship),
 * sponsored by the server's key over those limits (decision 186), unsigned, and its hash.
 */
async function atEstimatedLimits(account: SmartAccount, calls: { to: Address; data: Hex }[]) {
  // The bundler estimates with the stub sponsorship, as for the web app; the sponsorship signs the result.
  const { getPaymasterStubData } = diginoorPaymasterFields(wallets.paymaster, async () => STUB_SPONSORSHIP);
  const gas = await bundlerClient.estimateUserOperationGas({
    account,
    calls,
    paymaster: { getPaymasterStubData, getPaymasterData: getPaymasterStubData },
  });
  const { account: _account, ...prepared } = await bundlerClient.prepareUserOperation({
    account,
    calls,
    parameters: ["factory", "fees", "nonce"],
  });
  const unsponsored = {
    ...prepared,
    callGasLimit: gas.callGasLimit,
    verificationGasLimit: gas.verificationGasLimit,
    preVerificationGas: gas.preVerificationGas,
    // The paymaster's limits as the web app sends them: the fixed ones of its stub data (viem keeps those
    // over the bundler's estimate), signed with the rest.
    ...(await getPaymasterStubData()),
    paymasterData: undefined,
    signature: "0x",
  } as UserOperation<"0.8">;
  const op = {
    ...unsponsored,
    paymasterData: await sponsorSignature(f.publicClient as PublicClient, wallets.paymaster, unsponsored),
  } as UserOperation<"0.8">;
  const hash = getUserOperationHash({
    userOperation: op,
    chainId: f.chain.id,
    entryPointAddress: wallets.entryPoint,
    entryPointVersion: "0.8",
  });
  return { op, hash, gas };
}

/** A WebAuthn signature over `hash` by `thief`'s key, naming `victim`'s passkey as the signer. */
async function wrongSignature(victim: SoftwarePasskey, thief: SoftwarePasskey, hash: Hex): Promise<Hex> {
  const verifier = await factoryVerifier(f.publicClient as never, wallets.factory);
  const { signature, webauthn } = await thief.account.sign({ hash });
  return encodePasskeyAccountSignature(
    passkeySigner(verifier, victim.account.publicKey),
    encodeWebAuthnSignature({ signature, webauthn }),
  );
}

const send = (op: UserOperation<"0.8">, signature: Hex) =>
  rpc("eth_sendUserOperation", [formatUserOperationRequest({ ...op, signature }), wallets.entryPoint]);

describe("gas estimated with the stub signature", () => {
  it("refuses a wrong passkey signature with AA24 at the estimated limits, and includes the real one", async () => {
    const victim = createSoftwarePasskey();
    const account = await toPasskeyAccount({
      client: f.publicClient as PublicClient<Transport, Chain>,
      factory: wallets.factory,
      owner: victim.account,
    });
    const { tokenId } = await minterMint(f, account.address);
    const thief = createSoftwarePasskey();
    const cases: [string, { to: Address; data: Hex }[]][] = [
      ["the first operation (deploys the account)", [col("setApprovalForAll", [f.marketplace, true])]],
      ["a later operation", [mkt("list", [tokenId, parseEther("0.02")])]],
    ];
    for (const [name, calls] of cases) {
      const { op, hash, gas } = await atEstimatedLimits(account, calls);
      const refused = await send(op, await wrongSignature(victim, thief, hash));
      expect(
        refused.error,
        `${name}: ${JSON.stringify(gas, (_k, v) => (typeof v === "bigint" ? `${v}` : v))}`,
      ).toMatchObject({
        code: -32507,
        message: expect.stringMatching(/AA24 signature error/),
      });
      const sent = await send(op, await account.signUserOperation(op));
      expect(sent.error, name).toBeUndefined();
      const receipt = await bundlerClient.waitForUserOperationReceipt({
        hash: sent.result as Hex,
        timeout: 60_000,
      });
      expect(receipt.success, name).toBe(true);
    }
    expect(
      await f.publicClient.readContract({
        address: f.collectible,
        abi: diginoorCollectibleAbi,
        functionName: "isApprovedForAll",
        args: [account.address, f.marketplace],
      }),
    ).toBe(true);
  });
});

describe("the stub signature without the P-256 precompile", () => {
  // OpenZeppelin P256's Solidity path (_jMultShamir): 128 steps over 2-bit windows of u1 = h/s and
  // u2 = r/s (mod n); a step whose two windows are both 0 adds nothing, and doubling starts at the first
  // step that added. Precompile chains (anvil 1.7, Polygon, Base) never take this path; this checks the stub
  // makes the most work there that any signature can.
  const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
  const pow = (b: bigint, e: bigint): bigint => {
    let r = 1n;
    for (let x = b % N, k = e; k > 0n; k >>= 1n, x = (x * x) % N) if (k & 1n) r = (r * x) % N;
    return r;
  };
  const emptySteps = (u1: bigint, u2: bigint) => {
    let n = 0;
    for (let i = 0; i < 128; i++) {
      const shift = BigInt(254 - 2 * i);
      if (((u1 >> shift) & 3n) === 0n && ((u2 >> shift) & 3n) === 0n) n++;
    }
    return n;
  };
  const scalars = (r: bigint, s: bigint, h: bigint) => {
    const w = pow(s, N - 2n);
    return [(h * w) % N, (r * w) % N] as const;
  };

  it("leaves no step of the Solidity check empty, the first one included", () => {
    const [r, s, , , authenticatorData, clientDataJSON] = decodeAbiParameters(
      WEBAUTHN_AUTH_PARAMETERS,
      STUB_WEBAUTHN_SIGNATURE,
    );
    const h = BigInt(sha256(concat([authenticatorData, sha256(stringToHex(clientDataJSON))])));
    expect(BigInt(s) <= N / 2n && BigInt(r) < N && BigInt(r) > 0n).toBe(true);
    const [u1, u2] = scalars(BigInt(r), BigInt(s), h);
    expect(emptySteps(u1, u2)).toBe(0);
    expect((u1 >> 254n) | (u2 >> 254n)).not.toBe(0n);
    // The old stub (r = s = 1) left 31 of the 128 steps empty: 31 point additions fewer than a signature.
    expect(emptySteps(...scalars(1n, 1n, h))).toBe(31);
  });
});
