/**
 * The passkey account signs (ERC-1271 with ERC-7739) and recovers only through a guardian the fan chose
 * (decision 185): the key of a recovery code only the fan holds, or an address they named. On anvil with the
 * real bundler (Alto) and our paymaster.
 */
import {
  type Address,
  type Chain,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  hashMessage,
  http,
  keccak256,
  type PublicClient,
  parseEther,
  stringToBytes,
  type Transport,
} from "viem";
import { type BundlerClient, getUserOperationHash, type SmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { verifyTypedData } from "viem/actions";
import { createSiweMessage, verifySiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diginoorAccountFactoryAbi } from "../generated/diginoorAccountFactory.js";
import { diginoorCollectibleAbi } from "../generated/diginoorCollectible.js";
import { diginoorMarketplaceAbi } from "../generated/diginoorMarketplace.js";
import { diginoorPasskeyAccountAbi } from "../generated/diginoorPasskeyAccount.js";
import { ANVIL_PRIVATE_KEYS } from "../src/anvil-accounts.js";
import type { BundlerInstance } from "../src/bundler.js";
import {
  BATCH_MODE,
  diginoorPaymasterFields,
  encodeExecutionData,
  encodePasskeyAccountSignature,
  encodeWebAuthnSignature,
  passkeyCoordinates,
  passkeySigner,
  recoveryTypedData,
  toPasskeyAccount,
} from "../src/passkey-account.js";
import { newRecoveryCode, recoveryCodeGuardian, signRecoveryWithCode } from "../src/recovery-code.js";
import { createSoftwarePasskey, type SoftwarePasskey } from "../src/software-passkey.js";
import type { WalletContracts } from "../src/wallets.js";
import { SPONSOR_KEY, sponsorWith } from "./sponsorship.js";
import { BUNDLER_EXECUTOR_KEY, BUNDLER_UTILITY_KEY, startWalletBed } from "./wallet-bed.js";
import { advance, type Fixture, minterMint, revertName, SIGNER_KEY, setupFixture } from "./fixture.js";

const EXECUTOR_KEY = BUNDLER_EXECUTOR_KEY;
const UTILITY_KEY = BUNDLER_UTILITY_KEY;
const SESSION_SECRET = "a development session secret of more than 32 characters";
/**
 * Every key and secret the server holds (decision 185's table). The session secret and the mail and payment
 * secrets are no Ethereum keys: taken as one (keccak of the secret), which is the most they could be used as.
 */
const SERVER_KEYS: Record<string, Hex> = {
  "deployer / contracts admin / paymaster admin": ANVIL_PRIVATE_KEYS[0],
  minter: ANVIL_PRIVATE_KEYS[1],
  "voucher signer": SIGNER_KEY,
  "bundler executor": EXECUTOR_KEY,
  "bundler utility": UTILITY_KEY,
  "recovery relayer (the former guardian key)": ANVIL_PRIVATE_KEYS[6],
  "sponsorship signer (decision 186)": SPONSOR_KEY,
  "resale buyer": keccak256(stringToBytes("diginoor development resale buyer")),
  "session secret (as a key)": keccak256(stringToBytes(SESSION_SECRET)),
};

let f: Fixture;
let wallets: WalletContracts;
let bundler: BundlerInstance;
let bundlerClient: BundlerClient;

beforeAll(async () => {
  f = await setupFixture();
  ({ wallets, bundler, bundlerClient } = await startWalletBed(f));
}, 120_000);

afterAll(async () => {
  await bundler?.stop();
  await f?.stop();
});

const client = () => f.publicClient as PublicClient<Transport, Chain>;

async function fan(opts: { passkey?: SoftwarePasskey; guardian?: Address } = {}) {
  const passkey = opts.passkey ?? createSoftwarePasskey();
  const account = await toPasskeyAccount({
    client: client(),
    factory: wallets.factory,
    owner: passkey.account,
    guardian: opts.guardian,
  });
  return { passkey, account, address: account.address };
}

/** The fan's account as another passkey of it sees it (e.g. the one a recovery installed). */
const asDevice = (owner: { address: Address; passkey: SoftwarePasskey }, device: SoftwarePasskey) =>
  toPasskeyAccount({
    client: client(),
    factory: wallets.factory,
    owner: device.account,
    address: owner.address,
    firstPublicKey: owner.passkey.publicKey,
  });

async function sponsored(account: SmartAccount, calls: { to: Address; data: Hex }[]) {
  for (let attempt = 0; ; attempt++) {
    try {
      const hash = await bundlerClient.sendUserOperation({
        account,
        calls,
        // The server's sponsorship (decision 186): the verifying paymaster pays for the fan's own calls,
        // setGuardian and cancelRecovery among them.
        paymaster: diginoorPaymasterFields(
          wallets.paymaster,
          sponsorWith(f.publicClient as never, wallets.paymaster),
        ),
      });
      return await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 60_000 });
    } catch (err) {
      // The development bundler's clock catches up with a chain moved ahead (decision 160).
      if (attempt > 40 || !/not valid yet|AA22/i.test(String(err))) throw err;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
}

const approveMarketplace = () => ({
  to: f.collectible,
  data: encodeFunctionData({
    abi: diginoorCollectibleAbi,
    functionName: "setApprovalForAll",
    args: [f.marketplace, true],
  }),
});
const selfCall = (address: Address, functionName: string, args: readonly unknown[] = []) => ({
  to: address,
  data: encodeFunctionData({ abi: diginoorPasskeyAccountAbi, functionName, args } as never),
});
const keyArgs = (p: SoftwarePasskey) => {
  const { qx, qy } = passkeyCoordinates(p.publicKey);
  return [qx, qy] as const;
};
const read = <T>(address: Address, functionName: string, args: readonly unknown[] = []) =>
  f.publicClient.readContract({
    address,
    abi: diginoorPasskeyAccountAbi,
    functionName,
    args,
  } as never) as Promise<T>;
const isPasskey = (address: Address, p: SoftwarePasskey) => read<boolean>(address, "isPasskey", keyArgs(p));
const pending = (address: Address) =>
  read<{ qx: Hex; qy: Hex; executableAt: number; guardian: Address }>(address, "pendingRecovery");
const ownerOf = (tokenId: bigint) =>
  f.publicClient.readContract({
    address: f.collectible,
    abi: diginoorCollectibleAbi,
    functionName: "ownerOf",
    args: [tokenId],
  });

function walletOf(key: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(key),
    chain: f.chain,
    transport: http(f.anvil.rpcUrl),
  });
}

/** A transaction's fate: "sent" (mined, succeeded), or the name of its revert. */
async function outcome(send: Promise<Hex>): Promise<string> {
  try {
    const receipt = await f.publicClient.waitForTransactionReceipt({ hash: await send });
    return receipt.status === "success" ? "sent" : "reverted";
  } catch (err) {
    return revertName(err as never) ?? "refused";
  }
}

/** Relays the guardian's signed proposal (deploying the account first when it never was, as anyone may). */
async function relayProposal(
  relayer: ReturnType<typeof walletOf>,
  target: { address: Address; firstKey: SoftwarePasskey; guardian: Address },
  newKey: SoftwarePasskey,
  signature: Hex,
) {
  const code = await f.publicClient.getCode({ address: target.address });
  if (!code || code === "0x") {
    const [qx, qy] = keyArgs(target.firstKey);
    const deployed = await outcome(
      relayer.writeContract({
        address: wallets.factory,
        abi: diginoorAccountFactoryAbi,
        functionName: "createAccount",
        args: [qx, qy, target.guardian],
      }),
    );
    expect(deployed).toBe("sent");
  }
  return outcome(
    relayer.writeContract({
      address: target.address,
      abi: diginoorPasskeyAccountAbi,
      functionName: "proposeRecoveryWithSignature",
      args: [...keyArgs(newKey), signature],
    }),
  );
}

describe("the passkey account signs (ERC-1271 with ERC-7739)", () => {
  it("a SIWE message signed by the passkey is accepted by viem's verifySiweMessage, before (ERC-6492) and after deployment; not for another account of the same passkey, nor a raw signature", async () => {
    const passkey = createSoftwarePasskey();
    const { account, address } = await fan({ passkey });
    const other = await fan({ passkey, guardian: recoveryCodeGuardian(newRecoveryCode())! });
    expect(other.address).not.toBe(address);
    const siwe = (a: Address) =>
      createSiweMessage({
        address: a,
        chainId: f.chain.id,
        domain: "diginoor.example",
        nonce: "abcdefgh12345678",
        uri: "https://diginoor.example/wallet",
        version: "1",
        issuedAt: new Date(),
      });

    // Counterfactual: the account has no code yet; viem wraps the signature in ERC-6492.
    expect(await f.publicClient.getCode({ address })).toBeUndefined();
    const message = siwe(address);
    const early = await account.signMessage({ message });
    expect(await verifySiweMessage(f.publicClient, { message, signature: early })).toBe(true);
    expect(await verifySiweMessage(f.publicClient, { message: siwe(other.address), signature: early })).toBe(
      false,
    );

    // Deployed (its first user operation).
    const first = await sponsored(account, [approveMarketplace()]);
    expect(first.success).toBe(true);
    const signature = await account.signMessage({ message });
    expect(signature).not.toBe(early);
    expect(await verifySiweMessage(f.publicClient, { message, signature })).toBe(true);
    expect(await verifySiweMessage(f.publicClient, { message: `${message}\nx`, signature })).toBe(false);
    expect(await read<Hex>(address, "isValidSignature", [hashMessage(message), signature])).toBe(
      "0x1626ba7e",
    );

    // The same passkey's signature for this account is no signature of the other (ERC-7739 binds the domain).
    expect((await sponsored(other.account, [approveMarketplace()])).success).toBe(true);
    expect(await read<Hex>(other.address, "isValidSignature", [hashMessage(message), signature])).not.toBe(
      "0x1626ba7e",
    );

    // A raw passkey signature of the message's hash (no ERC-7739 nesting) is refused: it could be replayed
    // on any account holding the passkey.
    const raw = await passkey.account.sign({ hash: hashMessage(message) });
    const verifier = await f.publicClient.readContract({
      address: wallets.factory,
      abi: diginoorAccountFactoryAbi,
      functionName: "webAuthnVerifier",
    });
    const rawSignature = encodePasskeyAccountSignature(
      passkeySigner(verifier, passkey.publicKey),
      encodeWebAuthnSignature(raw),
    );
    expect(await read<Hex>(address, "isValidSignature", [hashMessage(message), rawSignature])).not.toBe(
      "0x1626ba7e",
    );
    expect(await verifySiweMessage(f.publicClient, { message, signature: rawSignature })).toBe(false);
  });

  it("typed data (an offer) signed by the passkey is verified by viem's verifyTypedData; changed contents are not", async () => {
    const { account, address } = await fan();
    const offer = {
      domain: {
        name: "Diginoor Offers",
        version: "1",
        chainId: f.chain.id,
        verifyingContract: f.marketplace,
      },
      types: {
        Offer: [
          { name: "tokenId", type: "uint256" },
          { name: "priceWei", type: "uint256" },
          { name: "buyer", type: "address" },
        ],
      },
      primaryType: "Offer",
      message: { tokenId: 7n, priceWei: parseEther("0.01"), buyer: address },
    } as const;
    const before = await account.signTypedData(offer);
    expect(await verifyTypedData(f.publicClient, { ...offer, address, signature: before })).toBe(true);
    await sponsored(account, [selfCall(address, "addPasskey", keyArgs(createSoftwarePasskey()))]);
    const signature = await account.signTypedData(offer);
    expect(await verifyTypedData(f.publicClient, { ...offer, address, signature })).toBe(true);
    expect(
      await verifyTypedData(f.publicClient, {
        ...offer,
        message: { ...offer.message, priceWei: 1n },
        address,
        signature,
      }),
    ).toBe(false);
  });
});

describe("recovery only the fan controls", () => {
  it("a fan with no device left recovers with their recovery code: a relayed proposal, 7 days, then the new passkey signs and the old one cannot; the signature cannot be replayed", async () => {
    const code = newRecoveryCode();
    const guardian = recoveryCodeGuardian(code)!;
    const owner = await fan({ guardian });
    const { tokenId } = await minterMint(f, owner.address);
    // The wallet was never used (counterfactual): all the fan has left is the code. New device, new passkey.
    const newKey = createSoftwarePasskey();
    const signature = await signRecoveryWithCode({
      code,
      account: owner.address,
      chainId: f.chain.id,
      newPublicKey: newKey.publicKey,
      nonce: 0n,
    });
    const relayer = walletOf(ANVIL_PRIVATE_KEYS[6]);
    const target = { address: owner.address, firstKey: owner.passkey, guardian };
    expect(await relayProposal(relayer, target, newKey, signature)).toBe("sent");
    expect(await read<Address>(owner.address, "guardian")).toBe(guardian);
    const p = await pending(owner.address);
    expect(p.guardian).toBe(guardian);
    expect(p.qx).toBe(keyArgs(newKey)[0]);

    // Too early; then the fan's old passkey (had it been found again) could cancel.
    expect(
      await outcome(
        relayer.writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "completeRecovery",
        }),
      ),
    ).toBe("RecoveryNotReady");
    // The same signature again (anyone can read it on chain) is refused: each one counts once.
    expect(await relayProposal(relayer, target, newKey, signature)).toBe("InvalidGuardianSignature");
    // A signature by any other key is refused.
    const forged = await privateKeyToAccount(ANVIL_PRIVATE_KEYS[6]).signTypedData(
      recoveryTypedData({
        account: owner.address,
        chainId: f.chain.id,
        publicKey: newKey.publicKey,
        nonce: 1n,
      }),
    );
    expect(await relayProposal(relayer, target, createSoftwarePasskey(), forged)).toBe(
      "InvalidGuardianSignature",
    );

    await advance(f, 7 * 86_400 + 60);
    expect(
      await outcome(
        relayer.writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "completeRecovery",
        }),
      ),
    ).toBe("sent");
    expect(await isPasskey(owner.address, newKey)).toBe(true);
    expect(await isPasskey(owner.address, owner.passkey)).toBe(false);
    const recovered = await asDevice(owner, newKey);
    const listed = await sponsored(recovered, [
      approveMarketplace(),
      {
        to: f.marketplace,
        data: encodeFunctionData({
          abi: diginoorMarketplaceAbi,
          functionName: "list",
          args: [tokenId, parseEther("0.02")],
        }),
      },
    ]);
    expect(listed.success).toBe(true);
    await expect(sponsored(owner.account, [approveMarketplace()])).rejects.toThrow(/AA24|signature/i);
  });

  it("replacing or removing the guardian cancels its pending recovery: the removed guardian's proposal never completes", async () => {
    const named = privateKeyToAccount(ANVIL_PRIVATE_KEYS[5]);
    const owner = await fan({ guardian: named.address });
    await f.testClient.setBalance({ address: named.address, value: parseEther("1") });
    const g = walletOf(ANVIL_PRIVATE_KEYS[5]);
    await sponsored(owner.account, [approveMarketplace()]);
    const hostile = createSoftwarePasskey();
    const propose = () =>
      outcome(
        g.writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "proposeRecovery",
          args: keyArgs(hostile),
        }),
      );
    const complete = () =>
      outcome(
        g.writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "completeRecovery",
        }),
      );

    // Replaced by a new recovery code's key.
    expect(await propose()).toBe("sent");
    const code = newRecoveryCode();
    const replaced = await sponsored(owner.account, [
      selfCall(owner.address, "setGuardian", [recoveryCodeGuardian(code)!]),
    ]);
    expect(replaced.success).toBe(true);
    expect((await pending(owner.address)).executableAt).toBe(0);
    await advance(f, 8 * 86_400);
    expect(await complete()).toBe("NoPendingRecovery");
    expect(await propose()).toBe("NotGuardian");

    // Named again, proposing, then removed (setGuardian(0)).
    await sponsored(owner.account, [selfCall(owner.address, "setGuardian", [named.address])]);
    expect(await propose()).toBe("sent");
    const removed = await sponsored(owner.account, [
      selfCall(owner.address, "setGuardian", ["0x0000000000000000000000000000000000000000"]),
    ]);
    expect(removed.success).toBe(true);
    await advance(f, 8 * 86_400);
    expect(await complete()).toBe("NoPendingRecovery");
    expect(await isPasskey(owner.address, hostile)).toBe(false);
    expect(await isPasskey(owner.address, owner.passkey)).toBe(true);
  });

  it("no key or secret the server holds, with 30 days of chain time, changes a fan's signers or guardian or moves a token, through any entry point", async () => {
    const code = newRecoveryCode();
    const guardian = recoveryCodeGuardian(code)!;
    const owner = await fan({ guardian });
    const { tokenId } = await minterMint(f, owner.address);
    // Deployed, marketplace approved (so a marketplace path would be open if any key could use it).
    await sponsored(owner.account, [approveMarketplace()]);
    const signersBefore = await read<readonly [readonly Hex[], readonly Hex[]]>(owner.address, "passkeys");
    for (const [name, key] of Object.entries(SERVER_KEYS)) {
      const who = privateKeyToAccount(key);
      await f.testClient.setBalance({ address: who.address, value: parseEther("1") });
      const w = walletOf(key);
      const planted = createSoftwarePasskey();
      const [px, py] = keyArgs(planted);
      const nonce = await read<bigint>(owner.address, "recoveryNonce");
      const keySigned = await who.signTypedData(
        recoveryTypedData({
          account: owner.address,
          chainId: f.chain.id,
          publicKey: planted.publicKey,
          nonce,
        }),
      );
      const onAccount = (functionName: string, args: readonly unknown[] = []) =>
        outcome(
          w.writeContract({
            address: owner.address,
            abi: diginoorPasskeyAccountAbi,
            functionName,
            args,
          } as never),
        );
      const steal = {
        to: f.collectible,
        data: encodeFunctionData({
          abi: diginoorCollectibleAbi,
          functionName: "transferFrom",
          args: [owner.address, who.address, tokenId],
        }),
      };
      const tries = [
        await onAccount("addPasskey", [px, py]),
        await onAccount("removePasskey", keyArgs(owner.passkey)),
        await onAccount("setGuardian", [who.address]),
        await onAccount("proposeRecovery", [px, py]),
        await onAccount("proposeRecoveryWithSignature", [px, py, keySigned]),
        await onAccount("initialize", [px, py, who.address]),
        await onAccount("execute", [BATCH_MODE, encodeExecutionData([steal])]),
        await onAccount("execute", [
          BATCH_MODE,
          encodeExecutionData([selfCall(owner.address, "addPasskey", [px, py])]),
        ]),
        await outcome(
          w.writeContract({
            address: f.collectible,
            abi: diginoorCollectibleAbi,
            functionName: "transferFrom",
            args: [owner.address, who.address, tokenId],
          }),
        ),
        await outcome(
          w.writeContract({
            address: wallets.factory,
            abi: diginoorAccountFactoryAbi,
            functionName: "createAccount",
            args: [...keyArgs(owner.passkey), who.address],
          }),
        ).then((r) => (r === "sent" ? "sent (another address)" : r)),
      ];
      // The one success: the factory makes a new account at another address, not the fan's.
      expect(
        tries.slice(0, -1).filter((t) => t === "sent"),
        name,
      ).toEqual([]);
      // A user operation of the fan's account signed with the key: refused by the bundler (AA24).
      const { account: _a, ...op } = await bundlerClient.prepareUserOperation({
        account: owner.account,
        calls: [steal, selfCall(owner.address, "addPasskey", [px, py])],
        paymaster: diginoorPaymasterFields(
          wallets.paymaster,
          sponsorWith(f.publicClient as never, wallets.paymaster),
        ),
      });
      {
        const opHash = getUserOperationHash({
          userOperation: { ...op, sender: owner.address } as never,
          chainId: f.chain.id,
          entryPointAddress: wallets.entryPoint,
          entryPointVersion: "0.8",
        });
        const sig = await who.sign({ hash: opHash });
        await expect(
          bundlerClient.sendUserOperation({ ...op, signature: sig } as never),
          name,
        ).rejects.toThrow();
      }
      // The account's ERC-1271 does not take the key's signature either.
      const h = hashMessage("sign in");
      expect(
        await read<Hex>(owner.address, "isValidSignature", [h, await who.sign({ hash: h })]),
        name,
      ).not.toBe("0x1626ba7e");
    }
    // 30 days of chain time, then every key tries to complete whatever may be pending.
    await f.testClient.increaseTime({ seconds: 30 * 86_400 });
    await f.testClient.mine({ blocks: 1 });
    for (const [name, key] of Object.entries(SERVER_KEYS)) {
      const r = await outcome(
        walletOf(key).writeContract({
          address: owner.address,
          abi: diginoorPasskeyAccountAbi,
          functionName: "completeRecovery",
        }),
      );
      expect(r, name).toBe("NoPendingRecovery");
    }
    expect(await read(owner.address, "passkeys")).toEqual(signersBefore);
    expect(await read<Address>(owner.address, "guardian")).toBe(guardian);
    expect(await ownerOf(tokenId)).toBe(owner.address);
  });
});
