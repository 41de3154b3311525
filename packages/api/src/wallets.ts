import { z } from "zod";
import { endpoint } from "./endpoint.ts";

/** An EVM address as the API accepts it (any case); the server answers with the checksummed form. */
export const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");

/** Texts shown to users, shared by the server (error messages) and the web app. */
export const walletMessages = {
  connected: "Connected Successfully",
  connectedToast: "Wallet Connected",
  /** Spec, error catalogue: no browser wallet. */
  noBrowserWallet: "Please enable MetaMask",
  /** Spec, error catalogue: an action that needs a linked wallet. */
  walletRequired: "Please Connect Wallet to Proceed",
  /** Spec, error catalogue: the wallet is on another chain (payments). */
  wrongChainPayment: "Please Connect to Mainnet",
  /** Spec, error catalogue: the wallet is on another chain (bids). */
  wrongChainBid: "Please Connect to Matic Mainnet to Bid",
  linked: "Wallet linked to your account",
  unlinked: "Wallet unlinked",
  chainUnavailable: "Wallets are unavailable: this server runs without a blockchain",
  badMessage: "The signed message is not a valid Sign-In with Ethereum (EIP-4361) message",
  wrongDomain: (expected: string) => `The signed message is for another site; it must name ${expected}`,
  wrongUri: (expected: string) => `The signed message must name ${expected} as its URI`,
  wrongChain: (expected: number) => `The signed message is for another chain; it must be chain ${expected}`,
  wrongVersion: "The signed message must be Sign-In with Ethereum version 1",
  unknownNonce: "The signed message's nonce was not issued to you; ask for a new one",
  usedNonce: "The signed message's nonce has already been used; ask for a new one",
  expiredNonce: "The signed message's nonce has expired; ask for a new one",
  issuedInFuture: "The signed message is dated in the future; check your device's clock",
  notStandard:
    "The signed message is not in the standard Sign-In with Ethereum (EIP-4361) form: write it with a library (viem's createSiweMessage, siwe): checksummed address, times in UTC with milliseconds, no extra lines",
  tooLong: "The signed message must expire at most 10 minutes after it was issued",
  expired: "The signed message has expired; sign a new one",
  notYetValid: "The signed message is not valid yet",
  badSignature: "The signature does not match the wallet address in the message",
  linkedElsewhere: "This wallet is already linked to another account",
  alreadyLinked: "This wallet is already linked to your account",
  notLinked: "Wallet not found among your linked wallets",
  /** Unlinking a passkey wallet that holds something: only this account's passkey reaches it. */
  walletNotEmpty: (tokens: number, holdsCoin: boolean) => {
    const nfts = tokens === 1 ? "1 NFT" : `${tokens} NFTs`;
    const what = [tokens > 0 ? nfts : "", holdsCoin ? "a balance" : ""].filter(Boolean).join(" and ");
    return `This passkey wallet still holds ${what}, which only your passkey on this account reaches: send them to another wallet first, then unlink it`;
  },
  passkeyUnavailable: "Passkey wallets are unavailable: this server's chain has no account factory",
  passkeyBadKey: "The passkey's public key is not a P-256 (ES256) key",
  passkeyBadAssertion: "The passkey's answer is not a valid WebAuthn response for this site",
  passkeyWrongChallenge: "The passkey signed another challenge; ask for a new one",
  passkeyWrongOrigin: "The passkey answered another site's page (its origin is not this site's)",
  passkeyWrongRpId: "The passkey belongs to another site (its relying party id is not this site's)",
  passkeyCrossOrigin:
    "The passkey was used from a page embedded in another site (crossOrigin): open this site directly and try again",
  passkeyTopOrigin:
    "The passkey was used inside another site's frame (topOrigin): open this site directly and try again",
  passkeyNotVerified: "The passkey did not verify you (fingerprint, face or PIN): try again",
  passkeyBackupState:
    "The passkey reports a backup state it cannot have (backed up but not backup eligible, or its eligibility changed): the wallet would refuse its signatures, so use another passkey",
  passkeyCredentialMismatch:
    "The credential id does not match the passkey that was made and answered: send the credential's own id",
  passkeyCounter:
    "The passkey's signature counter did not increase: the answer is a replay or the passkey was copied",
  passkeyBadSignature: "The passkey's signature does not match its public key",
  passkeyCreated: "Your passkey wallet is ready",
  /** Paying in the chain's coin from a wallet app, when purchases go to the passkey wallet (it holds no coin). */
  passkeyReceivesPurchases:
    "Your purchases go to your passkey wallet, which holds no crypto: pay by card, or on the Wallet page choose your wallet app to receive purchases",
  /** Paying or bidding in the chain's coin with only a passkey wallet (its gas is sponsored, its payments are not). */
  recoveryUnavailable: "Recovering a passkey wallet through Diginoor is unavailable here",
  recoveryNotGuardian:
    "This recovery code is not this wallet's: check the twelve words, or the wallet has another guardian",
  recoveryMonthlyLimit:
    "This wallet was recovered too often this month: try again next month, or send the recovery to the chain yourself",
  recoveryNotPasskey: "Only a passkey wallet linked to your account can be recovered",
  recoveryMailed: (email: string) =>
    `We sent a link to ${email}. Open it on the device that will hold your new passkey (it is valid 30 minutes).`,
  recoveryBadLink:
    "This recovery link is not valid, was used already or has expired: start again from the Wallet page",
  recoveryPending: "A recovery of this wallet is already under way",
  /** Spec-like copy of the wallet page: what a proposed recovery means. */
  recoveryStarted: (when: string) =>
    `Recovery started: your new passkey takes over on ${when}, unless a passkey of this wallet cancels it before.`,
  passkeyRequestNotFound: "No such request to add a passkey to this wallet",
  passkeyRequestNotPending: "This request to add a passkey was already answered or has expired",
  passkeyNotOnChain:
    "The wallet does not have this passkey on chain yet: approve it with a passkey of the wallet first",
  passkeyKnown: "This passkey already belongs to a wallet",
  passkeyAdded: "The passkey of your other device was added to your wallet",
  passkeyNotFound: "No such passkey in this wallet",
  passkeyStillOnChain:
    "The wallet still has this passkey on chain: remove it with a passkey of the wallet first",
  passkeyRemoved: "The passkey was removed from your wallet",
  passkeyOnlyOne:
    "This is the wallet's only passkey: it cannot be removed. Add a passkey on another device first, or recover the wallet if every device is lost",
  cryptoNeedsWalletApp:
    "Paying in crypto needs a wallet app such as MetaMask: your passkey wallet holds your NFTs, not crypto. Pay by card instead",
} as const;

/**
 * Why the server refused a new passkey's WebAuthn answers (decision 183): a 400 `bad_request` with the
 * message below and `details: { reason }`, so a client can branch on the reason.
 */
export const passkeyRefusalMessages = {
  bad_response: walletMessages.passkeyBadAssertion,
  bad_key: walletMessages.passkeyBadKey,
  wrong_challenge: walletMessages.passkeyWrongChallenge,
  wrong_origin: walletMessages.passkeyWrongOrigin,
  wrong_rp_id: walletMessages.passkeyWrongRpId,
  cross_origin: walletMessages.passkeyCrossOrigin,
  top_origin: walletMessages.passkeyTopOrigin,
  not_verified: walletMessages.passkeyNotVerified,
  backup_state: walletMessages.passkeyBackupState,
  credential_mismatch: walletMessages.passkeyCredentialMismatch,
  counter: walletMessages.passkeyCounter,
  bad_signature: walletMessages.passkeyBadSignature,
} as const;
export type PasskeyRefusal = keyof typeof passkeyRefusalMessages;

/** How long a nonce may be used, and the longest a signed message may live (EIP-4361 expiration). */
export const SIWE_NONCE_TTL_SECONDS = 600;
export const SIWE_MAX_LIFETIME_SECONDS = 600;

/** Response of POST /api/v1/wallets/nonce. */
export const nonceResponseSchema = z.object({
  nonce: z.string(),
  /** What the message must say: the host of the site, its URL and the chain id. */
  domain: z.string(),
  uri: z.string(),
  chainId: z.number().int(),
  /** ISO time after which the nonce is refused. */
  expiresAt: z.string(),
});
export type NonceResponse = z.infer<typeof nonceResponseSchema>;

/** Body of POST /api/v1/wallets: the EIP-4361 message the wallet signed, and the signature. */
export const linkWalletRequestSchema = z
  .object({
    message: z.string().min(1, "is required").max(4000, "must be at most 4000 characters"),
    // 65 bytes for an ordinary key; smart-contract wallets (ERC-1271, ERC-6492) send more.
    signature: z
      .string()
      .regex(/^0x(?:[0-9a-fA-F]{2})+$/, "must be 0x-prefixed hex")
      .max(20_000, "is too long"),
  })
  .strict();
export type LinkWalletRequest = z.infer<typeof linkWalletRequestSchema>;

/** A passkey's P-256 public key as WebAuthn gives it: x || y, 64 bytes, 0x-prefixed hex. */
export const passkeyPublicKeySchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{128}$/, "must be a 64-byte P-256 public key (x || y)");

/** A WebAuthn credential id, base64url as browsers give it. */
const credentialIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,1400}$/, "must be a base64url credential id");

/** Bytes as base64url (no padding), as `PublicKeyCredential.toJSON()` writes every ArrayBuffer. */
const base64url = (max: number) =>
  z
    .string()
    .min(1, "is required")
    .max(max, "is too long")
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

/** What `PublicKeyCredential.toJSON()` names the authenticator's attachment (null when unknown). */
const attachmentSchema = z.enum(["platform", "cross-platform"]).nullish();
/**
 * The client extensions' outputs (`getClientExtensionResults()`): an object; we ask for no extension
 * and read none (credProps, which browsers may add, is its one member kept).
 */
const extensionResultsSchema = z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() });

/**
 * The answer of `navigator.credentials.create()` in its standard JSON form (WebAuthn Level 3
 * `RegistrationResponseJSON`, as `PublicKeyCredential.toJSON()` and `@simplewebauthn/browser` give it):
 * the attestation object holds the new credential's id and public key.
 */
export const registrationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(6000),
    attestationObject: base64url(24_000),
    authenticatorData: base64url(6000).optional(),
    transports: z.array(z.string().max(32)).max(16).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(2000).optional(),
  }),
  authenticatorAttachment: attachmentSchema,
  clientExtensionResults: extensionResultsSchema,
});

/**
 * The answer of `navigator.credentials.get()` in its standard JSON form (WebAuthn Level 3
 * `AuthenticationResponseJSON`): authenticator data, client data and the ECDSA signature as the
 * authenticator gives it (ASN.1 DER), each base64url.
 */
export const authenticationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(6000),
    authenticatorData: base64url(6000),
    signature: base64url(400),
    userHandle: base64url(200).nullish(),
  }),
  authenticatorAttachment: attachmentSchema,
  clientExtensionResults: extensionResultsSchema,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

/**
 * Body of POST /api/v1/wallets/passkey (and of the other requests that bring a new passkey): the new
 * passkey made over the nonce of POST /api/v1/wallets/nonce (`registration`, challenge = the nonce's UTF-8
 * bytes) and its assertion over the same nonce (`assertion`), proving the fan holds its private key. Both
 * in the standard WebAuthn JSON form; the server verifies them as a WebAuthn Level 3 relying party
 * (decision 183). `credentialId` must be the credential the registration made and the assertion answered with.
 */
export const linkPasskeyRequestSchema = z
  .object({
    nonce: z.string().min(1, "is required").max(100, "is too long"),
    credentialId: credentialIdSchema,
    registration: registrationResponseSchema.describe(
      "navigator.credentials.create()'s answer as PublicKeyCredential.toJSON() gives it (WebAuthn Level 3 RegistrationResponseJSON), challenge = the nonce's UTF-8 bytes",
    ),
    assertion: authenticationResponseSchema.describe(
      "navigator.credentials.get()'s answer for the same credential and challenge as PublicKeyCredential.toJSON() gives it (WebAuthn Level 3 AuthenticationResponseJSON; the signature ASN.1 DER)",
    ),
    /**
     * The wallet's guardian, bound into its address (decision 185): the address of the key of the fan's
     * recovery code (made and shown once in their browser; the code never reaches us), or one they named.
     * Omitted: a wallet with no guardian, which cannot be recovered once every passkey is lost.
     */
    guardian: addressSchema.optional(),
  })
  .strict();
export type LinkPasskeyRequest = z.infer<typeof linkPasskeyRequestSchema>;

export const walletSchema = z.object({
  address: z.string(),
  /** `siwe`: an external wallet linked by Sign-In with Ethereum; `passkey`: our smart account of a passkey. */
  kind: z.enum(["siwe", "passkey"]),
  /** The first passkey of a passkey wallet (its public key and credential id: the account's address is its key's). */
  passkey: z.object({ credentialId: z.string(), publicKey: z.string() }).nullable(),
  /**
   * Every passkey of a passkey wallet the server knows (the first, then those added from other devices,
   * decision 171), for signing with whichever this device holds; empty for other wallets.
   */
  passkeys: z.array(z.object({ credentialId: z.string(), publicKey: z.string(), addedAt: z.string() })),
  /** The wallet that receives this user's purchases (exactly one when any is linked). */
  receivesPurchases: z.boolean(),
  chainId: z.number().int(),
  linkedAt: z.string(),
  /** A passkey wallet's guardian, part of its address (decision 185): null for none and for other wallets. */
  guardian: z.string().nullable(),
});
export type Wallet = z.infer<typeof walletSchema>;

export const walletListResponseSchema = z.object({ items: z.array(walletSchema) });
export type WalletListResponse = z.infer<typeof walletListResponseSchema>;

export const walletParamsSchema = z.object({ address: addressSchema });

/** How long a mailed recovery link may be used, and the contract's delay before a recovery takes effect. */
export const RECOVERY_LINK_TTL_SECONDS = 1800;
export const RECOVERY_DELAY_SECONDS = 7 * 86_400;

/** Body of POST /api/v1/wallets/recovery: mail a recovery link for this passkey wallet of the signed-in fan. */
export const startWalletRecoveryRequestSchema = z.object({ address: addressSchema }).strict();

/**
 * Body of POST /api/v1/wallets/recovery/confirm, sent from the device of the new passkey: the mailed
 * link's token, and the new passkey's registration and assertion over a wallet nonce (as when linking).
 */
export const confirmWalletRecoveryRequestSchema = linkPasskeyRequestSchema
  .omit({ guardian: true })
  .extend({
    token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "must be a recovery link's token"),
    /** The wallet's guardian (the recovery code's key's address). */
    guardian: addressSchema,
    /**
     * The guardian's EIP-712 `Recovery(qx, qy, nonce)` of the new passkey (the account's `recoveryNonce()`),
     * signed in the browser with the recovery code's key: our relayer only sends it (decision 185).
     */
    guardianSignature: z.string().regex(/^0x(?:[0-9a-fA-F]{2}){65,2000}$/, "must be a hex signature"),
  })
  .strict();
export type ConfirmWalletRecoveryRequest = z.infer<typeof confirmWalletRecoveryRequestSchema>;

/**
 * A recovery of a passkey wallet (decision 160): `requested` (link mailed), `proposing` (the guardian's
 * proposal is being sent), `proposed` (on chain, takes effect at `executableAt` unless cancelled),
 * `completed`, `cancelled` (by a passkey of the wallet), `expired` (the link was not used).
 */
export const walletRecoverySchema = z.object({
  id: z.string(),
  address: z.string(),
  state: z.enum(["requested", "proposing", "proposed", "completed", "cancelled", "expired"]),
  /** ISO time from which the new passkey may take over (chain time), once proposed. */
  executableAt: z.string().nullable(),
  /** The new passkey's credential id and public key, once confirmed. */
  newPasskey: z.object({ credentialId: z.string(), publicKey: z.string() }).nullable(),
  requestedAt: z.string(),
});
export type WalletRecovery = z.infer<typeof walletRecoverySchema>;
export const walletRecoveryListSchema = z.object({ items: z.array(walletRecoverySchema) });
export const startWalletRecoveryResponseSchema = z.object({ id: z.string(), sentTo: z.string() });

/** How long a request to add another device's passkey waits for a passkey of the wallet. */
export const PASSKEY_REQUEST_TTL_SECONDS = 900;

/**
 * A request to add the passkey of another device to a passkey wallet (decision 171): made on the new
 * device, approved by a passkey the wallet already has (it adds the key on chain), or declined.
 */
export const passkeyRequestSchema = z.object({
  id: z.string(),
  address: z.string(),
  credentialId: z.string(),
  publicKey: z.string(),
  state: z.enum(["pending", "added", "declined", "expired"]),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PasskeyRequest = z.infer<typeof passkeyRequestSchema>;
export const passkeyRequestListSchema = z.object({ items: z.array(passkeyRequestSchema) });
export const passkeyRequestParamsSchema = z.object({
  address: addressSchema,
  id: z.uuid("must be a request id"),
});

/** A passkey of a passkey wallet, by its credential id (as `Wallet.passkeys` lists it). */
export const walletPasskeyParamsSchema = z.object({
  address: addressSchema,
  credentialId: credentialIdSchema,
});

/** Body of PATCH /api/v1/wallets/:address: make this wallet the one that receives purchases. */
export const updateWalletRequestSchema = z
  .object({ receivesPurchases: z.literal(true, { error: "must be true" }) })
  .strict();

/** Body of POST /api/v1/quotes. */
export const quoteRequestSchema = z
  .object({ nftId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an NFT id") })
  .strict();

/** Integer amounts as decimal strings (wei does not fit in a JSON number). */
const decimalString = z.string().regex(/^\d+$/);

/**
 * A stored price quote: `priceWei` of the chain's native token for `usdCents`, computed from `rate`
 * (USD micro-dollars, 1e-6 USD, per one whole native token), refused after `expiresAt`.
 */
export const quoteResponseSchema = z.object({
  quoteId: z.string(),
  nftId: z.string(),
  chainId: z.number().int(),
  /** Native token symbol (ETH on the local chain, POL on Polygon). */
  symbol: z.string(),
  priceWei: decimalString,
  usdCents: z.number().int(),
  rate: decimalString,
  /** The same price in Indian rupees, in paise (for display). */
  inrPaise: z.number().int(),
  expiresAt: z.string(),
});
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;

export const quoteParamsSchema = z.object({ quoteId: z.uuid("must be a quote id") });

/** Response of GET /api/v1/rates: the current rates, integers as decimal strings. */
export const ratesResponseSchema = z.object({
  /** USD micro-dollars (1e-6 USD) per one whole token, by symbol (ETH, POL). */
  usdMicrosPerToken: z.record(z.string(), decimalString),
  /** INR micro-rupees per one USD. */
  inrMicrosPerUsd: decimalString,
});
export type RatesResponse = z.infer<typeof ratesResponseSchema>;

export const quoteMessages = {
  notForSale: "This NFT is sold at auction; place a bid instead",
  soldOut: "This NFT is sold out",
  noPrice: "This NFT has no price yet",
  expired: "This price quote has expired; ask for a new one",
  notFound: "Quote not found",
} as const;

const WEI_PER_TOKEN = 10n ** 18n;
const MICROS_PER_CENT = 10_000n;

/** US cents worth `wei` at `usdMicrosPerToken` (USD micro-dollars per token), rounded down. */
export function weiToUsdCents(wei: bigint, usdMicrosPerToken: bigint): bigint {
  return (wei * usdMicrosPerToken) / (MICROS_PER_CENT * WEI_PER_TOKEN);
}

/** Wei of a token worth `usdCents` at `usdMicrosPerToken`, rounded up (the seller never gets less). */
export function usdCentsToWei(usdCents: bigint, usdMicrosPerToken: bigint): bigint {
  if (usdCents <= 0n || usdMicrosPerToken <= 0n) throw new RangeError("amounts must be positive");
  const numerator = usdCents * MICROS_PER_CENT * WEI_PER_TOKEN;
  return (numerator + usdMicrosPerToken - 1n) / usdMicrosPerToken;
}

/**
 * The chain guard's message when the wallet is on another chain. On Polygon mainnet these are the
 * spec's texts; elsewhere (a local or test chain) they name the chain instead of "Mainnet".
 */
export function wrongChainMessage(action: "pay" | "bid", chainId: number, chainName: string): string {
  if (chainId === 137)
    return action === "bid" ? walletMessages.wrongChainBid : walletMessages.wrongChainPayment;
  return action === "bid" ? `Please Connect to ${chainName} to Bid` : `Please Connect to ${chainName}`;
}

/** Display name of the configured chain. */
export function chainNameOf(chainId: number): string {
  if (chainId === 137) return "Polygon Mainnet";
  if (chainId === 80002) return "Polygon Amoy";
  if (chainId === 31337) return "Local chain";
  return `Chain ${chainId}`;
}

/** An address (or transaction hash) as pages and mails show it: `0x1234…abcd`; the full one goes in a title. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** Polygon PoS mainnet and its Amoy test network pay in POL; other chains (anvil) in ETH. */
export function nativeSymbolOf(chainId: number): "POL" | "ETH" {
  return chainId === 137 || chainId === 80002 ? "POL" : "ETH";
}

/** Linking wallets by Sign-In with Ethereum (decision 120); signed-in users only. */
export const walletEndpoints = {
  createWalletNonce: endpoint({
    operationId: "createWalletNonce",
    method: "POST",
    path: "/api/v1/wallets/nonce",
    summary: "A single-use nonce for a Sign-In with Ethereum message (valid 10 minutes)",
    tags: ["wallets"],
    success: { status: 201, schema: nonceResponseSchema },
    errors: ["unavailable"],
  }),
  linkWallet: endpoint({
    operationId: "linkWallet",
    method: "POST",
    path: "/api/v1/wallets",
    summary: "Link the wallet that signed this EIP-4361 message to the signed-in account",
    tags: ["wallets"],
    body: linkWalletRequestSchema,
    success: { status: 201, schema: walletSchema },
    errors: ["conflict", "unavailable"],
  }),
  linkPasskeyWallet: endpoint({
    operationId: "linkPasskeyWallet",
    method: "POST",
    path: "/api/v1/wallets/passkey",
    summary:
      "Link the passkey wallet (our ERC-4337 account of this passkey, deployed on first use) to the signed-in account",
    tags: ["wallets"],
    body: linkPasskeyRequestSchema,
    success: { status: 201, schema: walletSchema },
    errors: ["conflict", "unavailable"],
  }),
  startWalletRecovery: endpoint({
    operationId: "startWalletRecovery",
    method: "POST",
    path: "/api/v1/wallets/recovery",
    summary:
      "Lost every passkey: mail a link (valid 30 minutes) to the account's address to recover this passkey wallet with a new passkey",
    tags: ["wallets"],
    body: startWalletRecoveryRequestSchema,
    success: { status: 202, schema: startWalletRecoveryResponseSchema },
    errors: ["not_found", "conflict", "unavailable"],
  }),
  confirmWalletRecovery: endpoint({
    operationId: "confirmWalletRecovery",
    method: "POST",
    path: "/api/v1/wallets/recovery/confirm",
    summary:
      "From the mailed link, with a new passkey: our guardian proposes it on chain; it takes over 7 days later unless a passkey of the wallet cancels",
    tags: ["wallets"],
    body: confirmWalletRecoveryRequestSchema,
    success: { status: 200, schema: walletRecoverySchema },
    errors: ["conflict", "unavailable"],
  }),
  listWalletRecoveries: endpoint({
    operationId: "listWalletRecoveries",
    method: "GET",
    path: "/api/v1/wallets/recovery",
    summary: "The signed-in user's recoveries of passkey wallets, newest first",
    tags: ["wallets"],
    success: { status: 200, schema: walletRecoveryListSchema },
  }),
  requestWalletPasskey: endpoint({
    operationId: "requestWalletPasskey",
    method: "POST",
    path: "/api/v1/wallets/{address}/passkey-requests",
    summary:
      "From another device: ask to add this new passkey to one of the signed-in user's passkey wallets (a passkey of the wallet approves it on chain)",
    tags: ["wallets"],
    params: walletParamsSchema,
    body: linkPasskeyRequestSchema,
    success: { status: 201, schema: passkeyRequestSchema },
    errors: ["not_found", "conflict", "unavailable"],
  }),
  listWalletPasskeyRequests: endpoint({
    operationId: "listWalletPasskeyRequests",
    method: "GET",
    path: "/api/v1/wallets/{address}/passkey-requests",
    summary:
      "Requests to add a passkey to this passkey wallet, newest first (pending ones and the last day's)",
    tags: ["wallets"],
    params: walletParamsSchema,
    success: { status: 200, schema: passkeyRequestListSchema },
    errors: ["not_found"],
  }),
  confirmWalletPasskey: endpoint({
    operationId: "confirmWalletPasskey",
    method: "POST",
    path: "/api/v1/wallets/{address}/passkey-requests/{id}/added",
    summary:
      "After a passkey of the wallet added the requested passkey on chain: the server checks the account and records it",
    tags: ["wallets"],
    params: passkeyRequestParamsSchema,
    success: { status: 200, schema: passkeyRequestSchema },
    errors: ["not_found", "conflict", "unavailable"],
  }),
  declineWalletPasskey: endpoint({
    operationId: "declineWalletPasskey",
    method: "DELETE",
    path: "/api/v1/wallets/{address}/passkey-requests/{id}",
    summary: "Decline a pending request to add a passkey to this wallet",
    tags: ["wallets"],
    params: passkeyRequestParamsSchema,
    success: { status: 204 },
    errors: ["not_found", "conflict"],
  }),
  removedWalletPasskey: endpoint({
    operationId: "removedWalletPasskey",
    method: "POST",
    path: "/api/v1/wallets/{address}/passkeys/{credentialId}/removed",
    summary:
      "After a passkey of the wallet removed this passkey on chain (the account's removePasskey): the server checks the account no longer has it and forgets it",
    tags: ["wallets"],
    params: walletPasskeyParamsSchema,
    success: { status: 204 },
    errors: ["not_found", "conflict", "unavailable"],
  }),
  listWallets: endpoint({
    operationId: "listWallets",
    method: "GET",
    path: "/api/v1/wallets",
    summary: "The signed-in user's linked wallets and which one receives purchases",
    tags: ["wallets"],
    success: { status: 200, schema: walletListResponseSchema },
  }),
  updateWallet: endpoint({
    operationId: "updateWallet",
    method: "PATCH",
    path: "/api/v1/wallets/{address}",
    summary: "Make this linked wallet the one that receives purchases",
    tags: ["wallets"],
    params: walletParamsSchema,
    body: updateWalletRequestSchema,
    success: { status: 200, schema: walletSchema },
    errors: ["not_found"],
  }),
  unlinkWallet: endpoint({
    operationId: "unlinkWallet",
    method: "DELETE",
    path: "/api/v1/wallets/{address}",
    summary: "Unlink one of the signed-in user's wallets",
    tags: ["wallets"],
    params: walletParamsSchema,
    success: { status: 204 },
    // wallet_not_empty: a passkey wallet holding tokens or coin (details: { tokens, balanceWei }).
    errors: ["not_found", "wallet_not_empty"],
  }),
};

/** Exchange rates and price quotes in the chain's native token (decision 121). */
export const quoteEndpoints = {
  getRates: endpoint({
    operationId: "getRates",
    method: "GET",
    path: "/api/v1/rates",
    summary: "Current exchange rates: USD per native token and INR per USD (micro-units)",
    tags: ["quotes"],
    success: { status: 200, schema: ratesResponseSchema },
  }),
  createQuote: endpoint({
    operationId: "createQuote",
    method: "POST",
    path: "/api/v1/quotes",
    summary: "Quote a fixed-price NFT in the chain's native token (held for QUOTE_TTL_SECONDS)",
    tags: ["quotes"],
    body: quoteRequestSchema,
    success: { status: 201, schema: quoteResponseSchema },
    errors: ["not_found", "conflict", "unavailable"],
  }),
  getQuote: endpoint({
    operationId: "getQuote",
    method: "GET",
    path: "/api/v1/quotes/{quoteId}",
    summary: "One of the signed-in user's quotes while it holds (410 once expired)",
    tags: ["quotes"],
    params: quoteParamsSchema,
    success: { status: 200, schema: quoteResponseSchema },
    errors: ["not_found", "gone"],
  }),
};
