import type { bundlerEndpoints, paymasterEndpoints } from "@diginoor/api/chain";
import type { LinkPasskeyRequest, Wallet, walletEndpoints } from "@diginoor/api/wallets";
import {
  bundlerFeesPerGas,
  diginoorPaymasterFields,
  sponsorshipRequest,
  toPasskeyAccount,
} from "@diginoor/contracts/passkey-account";
import { bufferToBase64URLString, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { type Address, custom, type Hex, hexToBytes, keccak256, stringToBytes } from "viem";
import { createBundlerClient, toWebAuthnAccount } from "viem/account-abstraction";
import { estimateFeesPerGas } from "viem/actions";
import { callApi } from "../api.ts";
import type { ChainInfo } from "./chain.ts";
import { chainReader } from "./viem-chain.ts";

/** Whether this browser can make and use passkeys (WebAuthn). */
export function passkeysSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    typeof window.PublicKeyCredential === "function" &&
    !!navigator.credentials
  );
}

const THIS_DEVICE_KEY = "diginoor.wallet.this-device-passkeys";

/**
 * Credential ids of passkeys this browser made or signed with (kept in localStorage, public data): the
 * wallet page names "this device" with them. A passkey synced from another device is recognised once it
 * signed here; nothing else tells a page which passkeys the device holds without a prompt.
 */
export function passkeysOfThisDevice(): string[] {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(THIS_DEVICE_KEY) ?? "[]");
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function rememberThisDevice(id: string | undefined) {
  if (!id || passkeysOfThisDevice().includes(id)) return;
  try {
    localStorage.setItem(THIS_DEVICE_KEY, JSON.stringify([...passkeysOfThisDevice(), id].slice(-20)));
  } catch {
    // Private mode or storage full: the page just cannot say which passkey is this device's.
  }
}

/**
 * Create a passkey on this device (WebAuthn: fingerprint, face or PIN), prove it to the server (made and
 * asserted over a fresh nonce), and link its wallet (our ERC-4337 account of the key) to the account.
 * The private key never leaves the authenticator; the server keeps the public key (decision 160).
 */
export async function createPasskeyWallet(label: string): Promise<Wallet> {
  return callApi<typeof walletEndpoints.linkPasskeyWallet>("POST /api/v1/wallets/passkey", {
    body: await createProvenPasskey(label),
  });
}

/**
 * A new passkey on this device and its proof for the server (the body of linking, of asking to add it to
 * a wallet, and of confirming a recovery): the passkey made over a fresh wallet nonce and its assertion
 * over the same nonce, both in the standard WebAuthn JSON (`@simplewebauthn/browser`; the server verifies
 * them as a WebAuthn Level 3 relying party, decision 183). Two prompts, as before: one makes the passkey,
 * the other proves this device holds it (the registration alone signs nothing).
 */
export async function createProvenPasskey(label: string): Promise<LinkPasskeyRequest> {
  const { nonce } = await callApi<typeof walletEndpoints.createWalletNonce>("POST /api/v1/wallets/nonce", {});
  const challenge = bufferToBase64URLString(stringToBytes(nonce).buffer as ArrayBuffer);
  const name = `Diginoor wallet · ${label}`;
  const rpId = window.location.hostname;
  const registration = await startRegistration({
    optionsJSON: {
      challenge,
      rp: { id: rpId, name: document.title || "Diginoor" },
      // The user handle of the passkey: a digest of its name, as before (viem's createWebAuthnCredential).
      user: {
        id: bufferToBase64URLString(hexToBytes(keccak256(stringToBytes(name))).buffer as ArrayBuffer),
        name,
        displayName: name,
      },
      // ES256 (ECDSA P-256): the only key the wallet's on-chain verifier checks.
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      authenticatorSelection: {
        residentKey: "preferred",
        requireResidentKey: false,
        userVerification: "required",
      },
      attestation: "none",
    },
  });
  rememberThisDevice(registration.id);
  const assertion = await startAuthentication({
    optionsJSON: {
      challenge,
      rpId,
      allowCredentials: [{ id: registration.id, type: "public-key" }],
      userVerification: "required",
    },
  });
  return { nonce, credentialId: registration.id, registration, assertion };
}

/** JSON-RPC to the bundler through our proxy (POST /api/v1/bundler; the session cookie signs us in). */
function bundlerTransport() {
  let id = 0;
  return custom({
    async request({ method, params }) {
      const answer = await callApi<typeof bundlerEndpoints.callBundler>("POST /api/v1/bundler", {
        body: { jsonrpc: "2.0", id: ++id, method: method as never, params: (params ?? []) as unknown[] },
      });
      // One call sent, one response back (the proxy answers arrays to batches only).
      if (Array.isArray(answer)) throw new Error("the bundler proxy answered a batch to one call");
      if ("error" in answer) {
        throw Object.assign(new Error(answer.error.message), {
          code: answer.error.code,
          data: answer.error.data,
        });
      }
      return answer.result;
    },
  });
}

export type PasskeyCall = { to: Address; data: Hex };

/**
 * Send calls from the fan's passkey wallet as one user operation: the passkey signs (the browser asks for
 * the fingerprint, face or PIN), our paymaster pays the gas, and the bundler puts it on chain. Resolves
 * with the transaction hash once it is included; throws with the bundler's reason when refused.
 */
export async function sendFromPasskeyWallet(
  chain: ChainInfo,
  wallet: Wallet,
  calls: PasskeyCall[],
): Promise<Hex> {
  if (!wallet.passkey || !chain.accountFactory || !chain.paymaster || !chain.chainId || !chain.bundlerUrl) {
    throw new Error("Passkey wallets are unavailable on this server");
  }
  // Reads (the nonce, the factory's address of the account) from the chain's RPC, as the rest of the wallet code reads;
  // the bundler proxy passes the ERC-4337 methods only.
  const client = chainReader({ ...chain, chainId: chain.chainId });
  // Any passkey of the wallet may sign (decision 171): the browser is offered every credential id and
  // answers with the one this device holds; the signature then names that passkey.
  const known = wallet.passkeys.length > 0 ? wallet.passkeys : [{ ...wallet.passkey, addedAt: "" }];
  const passkeys = known.map((p) => ({ id: p.credentialId, publicKey: p.publicKey as Hex }));
  const webAuthn = toWebAuthnAccount({
    // ox's WebAuthnP256.sign takes a list of credential ids too (allowCredentials); viem's type names one.
    credential: {
      id: passkeys.map((p) => p.id) as unknown as string,
      publicKey: wallet.passkey.publicKey as Hex,
    },
  });
  // The credential that answered is this device's: remembered so the wallet page can say so.
  const owner = {
    ...webAuthn,
    async sign(parameters: Parameters<typeof webAuthn.sign>[0]) {
      const signed = await webAuthn.sign(parameters);
      rememberThisDevice(signed.raw?.id);
      return signed;
    },
  };
  const account = await toPasskeyAccount({
    client,
    factory: chain.accountFactory as Address,
    owner,
    address: wallet.address as Address,
    passkeys,
    // Part of the never-used account's initCode (decision 185).
    guardian: (wallet.guardian ?? undefined) as Address | undefined,
  });
  const bundler = createBundlerClient({
    client,
    transport: bundlerTransport(),
    pollingInterval: 500,
    userOperation: {
      estimateFeesPerGas: ({ bundlerClient }) =>
        bundlerFeesPerGas(bundlerClient as never, () => estimateFeesPerGas(client)),
    },
  });
  // Our paymaster pays only with the server's signature over this very operation (decision 186): the
  // server checks it is this fan's wallet, an action we sponsor, and fees and gas near the bundler's.
  const paymaster = chain.paymaster as Address;
  const hash = await bundler.sendUserOperation({
    account,
    calls,
    paymaster: diginoorPaymasterFields(paymaster, async (op) => {
      const sponsorship = await callApi<typeof paymasterEndpoints.sponsorUserOperation>(
        "POST /api/v1/paymaster",
        {
          body: sponsorshipRequest(paymaster, op),
        },
      );
      return sponsorship.paymasterData as Hex;
    }),
  });
  const receipt = await bundler.waitForUserOperationReceipt({ hash, timeout: 120_000 });
  if (!receipt.success) throw new Error(receipt.reason ?? "The operation reverted on chain");
  return receipt.receipt.transactionHash;
}
