import { z } from "zod";
import { endpoint } from "./endpoint.ts";

/**
 * Shapes of the on-chain read API (tokens, activity, accounts' tokens, metadata), served from the
 * indexer's tables. Amounts are wei as decimal strings; addresses are checksummed; times are ISO 8601.
 */

const UINT256_MAX = 2n ** 256n - 1n;
/**
 * A token id as ERC-721 has it: a uint256, written in decimal the one way `tokenURI` writes it. Above
 * 2^256 − 1 it is not a token id at all (400, not 404); a leading zero (`01`) is refused too (400): it
 * would be a second URL of token 1, cached and indexed apart, and a reader that sent it has a bug to
 * hear about, not a token to be told is missing.
 */
export const tokenIdSchema = z
  .string()
  .regex(/^(?:0|[1-9]\d{0,77})$/, "must be a token id: a whole number without leading zeros")
  // (zod runs this check after a failed pattern too: only digits go to BigInt)
  .refine((s) => !/^\d+$/.test(s) || BigInt(s) <= UINT256_MAX, "must be a token id: at most 2^256 − 1");

/** A token id in a path. */
export const tokenIdParamSchema = z.object({ tokenId: tokenIdSchema });

/** An EVM address in a path (any case); the server compares checksummed addresses. */
export const addressParamSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an address (0x followed by 40 hex digits)"),
});

const wei = z.string().regex(/^\d+$/);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

export const tokenListingSchema = z.object({ seller: address, priceWei: wei });

export const tokenAuctionSchema = z.object({
  seller: address,
  reserveWei: wei,
  highestBidWei: wei.nullable(),
  highestBidder: address.nullable(),
  /** When bidding closes; null until the first bid starts the clock. */
  endsAt: z.string().nullable(),
  settled: z.boolean(),
});

export const tokenSchema = z.object({
  tokenId: z.string(),
  /** The catalogue NFT (its public id) this token is an edition of; null if the catalogue has no such NFT. */
  nftId: z.string().nullable(),
  edition: z.number().int(),
  /** The current holder on chain (the marketplace while the token is escrowed in an auction). */
  owner: address,
  listing: tokenListingSchema.nullable(),
  auction: tokenAuctionSchema.nullable(),
  /** Removed from our marketplace by the studio (the terms' suspension or voiding); still on chain. */
  hidden: z.boolean(),
});
export type Token = z.infer<typeof tokenSchema>;

/** A token with what an NFT card shows of its catalogue NFT (null if the catalogue has no such NFT). */
export const marketTokenSchema = tokenSchema.extend({
  nft: z
    .object({
      title: z.string(),
      imageUrl: z.string(),
      tier: z.string(),
      tierLabel: z.string(),
      film: z.string(),
    })
    .nullable(),
});
export type MarketToken = z.infer<typeof marketTokenSchema>;

export const accountTokensSchema = z.object({
  /** Tokens the address holds, and tokens it has put up for auction (escrowed by the marketplace). */
  items: z.array(marketTokenSchema),
});
export type AccountTokens = z.infer<typeof accountTokensSchema>;

export const activityKindSchema = z.enum(["mint", "transfer", "bid", "sale"]);

export const activityItemSchema = z.object({
  kind: activityKindSchema,
  tokenId: z.string(),
  txHash,
  blockNumber: z.string(),
  /** Block time. */
  at: z.string(),
  from: address.nullable(),
  to: address.nullable(),
  amountWei: wei.nullable(),
  /** Sales: primary (voucher purchase), listing (resale) or auction (settlement). */
  saleKind: z.enum(["primary", "listing", "auction"]).nullable(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const nftActivitySchema = z.object({
  /** Newest first. */
  items: z.array(activityItemSchema),
});
export type NftActivity = z.infer<typeof nftActivitySchema>;

/** Query of GET /api/v1/nfts/:id/activity. */
export const nftActivityQuerySchema = z
  .object({
    limit: z
      .string()
      .regex(/^\d{1,4}$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1).max(200))
      .default(50),
  })
  .strict();

/** ERC-721 metadata JSON (OpenSea-style), the target of the collectible's `tokenURI`. */
export const tokenMetadataSchema = z.object({
  name: z.string(),
  description: z.string(),
  image: z.string(),
  animation_url: z.string().optional(),
  external_url: z.string(),
  attributes: z.array(
    z.object({
      trait_type: z.string(),
      value: z.union([z.string(), z.number()]),
      display_type: z.string().optional(),
    }),
  ),
});
export type TokenMetadata = z.infer<typeof tokenMetadataSchema>;

/**
 * The collection's metadata (ERC-7572 `contractURI()`, OpenSea's contract-level metadata): what a marketplace
 * shows of the collection. Royalties are per token (ERC-2981 `royaltyInfo`, paid to each token's production
 * house); `seller_fee_basis_points` is the rate every token is minted with.
 */
export const collectionMetadataSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  description: z.string(),
  image: z.string(),
  external_link: z.string(),
  seller_fee_basis_points: z.number().int(),
});
export type CollectionMetadata = z.infer<typeof collectionMetadataSchema>;

/** GET /api/v1/chain: the chain and contract addresses the web app's wallet code uses. */
export const chainInfoSchema = z.object({
  enabled: z.boolean(),
  chainId: z.number().int().nullable(),
  /** Public RPC endpoint for wallets; only given for the local development chain. */
  rpcUrl: z.string().nullable(),
  collectible: z.string().nullable(),
  marketplace: z.string().nullable(),
  /** The chain's name and native token (ETH on the local chain, POL on Polygon). */
  chainName: z.string().nullable(),
  nativeSymbol: z.string().nullable(),
  /** Public WalletConnect project id; null hides WalletConnect in the wallet page. */
  walletConnectProjectId: z.string().nullable(),
  /** Passkey wallets (decision 160): ERC-4337 EntryPoint v0.8, our account factory and paymaster; null when absent. */
  entryPoint: z.string().nullable(),
  accountFactory: z.string().nullable(),
  paymaster: z.string().nullable(),
  /** Where the web app sends user operations (our bundler proxy, /api/v1/bundler); null without a bundler. */
  bundlerUrl: z.string().nullable(),
});
export type ChainInfo = z.infer<typeof chainInfoSchema>;

export const chainEndpoints = {
  getChain: endpoint({
    operationId: "getChain",
    method: "GET",
    path: "/api/v1/chain",
    summary: "The chain and contract addresses the marketplace uses",
    tags: ["chain"],
    success: { status: 200, schema: chainInfoSchema },
  }),
};

/**
 * The block explorer of a chain we know (Etherscan-style paths: /address/, /tx/, /nft/<contract>/<id>);
 * null for the local development chain and chains we do not know (the server's CHAIN_EXPLORER_URL
 * names one for those).
 */
export function defaultExplorerUrl(chainId: number): string | null {
  if (chainId === 137) return "https://polygonscan.com";
  if (chainId === 80002) return "https://amoy.polygonscan.com";
  return null;
}

/**
 * "Where it lives" (issue 25): everything a holder needs to find a minted token without us, read from
 * the chain and the indexer. The owner's handle only when the owner's wallet is linked to an account
 * whose public profile shows this token.
 */
export const tokenLocationSchema = z.object({
  tokenId: z.string(),
  standard: z.literal("ERC-721"),
  chainId: z.number().int(),
  chainName: z.string(),
  /** The collectible contract (checksummed). */
  contract: address,
  /** The current holder on chain (the marketplace while the token is escrowed in an auction). */
  owner: address,
  ownerHandle: z.string().nullable(),
  /** The contract's tokenURI for this token, as the chain answers it; null when the chain did not answer. */
  tokenUri: z.string().nullable(),
  /** Whether tokenURI points at an IPFS snapshot (after the exit) rather than our server. */
  onIpfs: z.boolean(),
  /** Block explorer pages; null on a chain without an explorer (the local development chain). */
  explorer: z.object({ token: z.string(), contract: z.string(), owner: z.string() }).nullable(),
});
export type TokenLocation = z.infer<typeof tokenLocationSchema>;

export const tokenLocationEndpoints = {
  getTokenLocation: endpoint({
    operationId: "getTokenLocation",
    method: "GET",
    path: "/api/v1/tokens/{tokenId}/location",
    summary:
      "Where a minted token lives: chain, contract, token id, owner, tokenURI and explorer links (for wallets and other marketplaces)",
    tags: ["chain"],
    params: tokenIdParamSchema,
    success: { status: 200, schema: tokenLocationSchema },
    errors: ["not_found", "unavailable"],
  }),
};

/** The ERC-4337 methods the bundler proxy passes on (decision 160). */
export const BUNDLER_METHODS = [
  "eth_chainId",
  "eth_supportedEntryPoints",
  "eth_estimateUserOperationGas",
  "eth_sendUserOperation",
  "eth_getUserOperationReceipt",
  "eth_getUserOperationByHash",
  "pimlico_getUserOperationGasPrice",
] as const;

/** A JSON-RPC 2.0 id: a string, a number or null (a call without one is a notification). */
export const jsonRpcIdSchema = z.union([z.string().nullable(), z.number().nullable()]);

/**
 * One JSON-RPC 2.0 call to the bundler proxy. Documentation: the proxy reads the body itself (it must answer
 * a body that is not JSON, or not a call, with a JSON-RPC error object), so nothing is refused with a 400.
 */
export const bundlerCallSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: jsonRpcIdSchema.optional().describe("Absent: a notification, answered 204 and not executed"),
  method: z.enum(BUNDLER_METHODS),
  params: z.array(z.unknown()).max(4).optional(),
});

/** The body of POST /api/v1/bundler: one call, or a batch (an array of calls; each answered -32005). */
export const bundlerRequestSchema = z.union([bundlerCallSchema, z.array(bundlerCallSchema).min(1)]);

/** A JSON-RPC 2.0 error object: the spec's codes (-32700 parse error, -32600 invalid request, -32601
 * method not found, -32602 invalid params, -32603 internal error, -32005 limit exceeded) or the bundler's. */
export const jsonRpcErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/** A JSON-RPC 2.0 response: the call's id (null when it could not be read), then a result or an error. */
export const bundlerCallResponseSchema = z.union([
  z.object({ jsonrpc: z.literal("2.0"), id: jsonRpcIdSchema, result: z.unknown() }).strict(),
  z.object({ jsonrpc: z.literal("2.0"), id: jsonRpcIdSchema, error: jsonRpcErrorSchema }).strict(),
]);

/** The proxy's answer: one response, or for a batch an array of them (none for notifications). */
export const bundlerResponseSchema = z.union([
  bundlerCallResponseSchema,
  z.array(bundlerCallResponseSchema).min(1),
]);
export type BundlerResponse = z.infer<typeof bundlerResponseSchema>;

export const bundlerEndpoints = {
  callBundler: endpoint({
    operationId: "callBundler",
    method: "POST",
    path: "/api/v1/bundler",
    summary:
      "ERC-4337 bundler JSON-RPC 2.0 for passkey wallets (the methods a wallet needs; signed-in users). Every call is answered with a JSON-RPC response (200), errors as JSON-RPC error objects with the call's id; a body of notifications only gets 204",
    tags: ["chain"],
    body: bundlerRequestSchema,
    success: { status: 200, schema: bundlerResponseSchema },
    noContent: "Only notifications (calls without an id): not executed, nothing to answer",
    errors: ["unavailable"],
  }),
};

const hexData = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex bytes")
  .max(40_000);
const hexQuantity = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, "must be a 0x-prefixed hex number");
const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address");

/**
 * A passkey wallet's user operation (EntryPoint v0.8, the bundler's JSON form) to be sponsored by our
 * paymaster (decision 186): everything but the paymaster's data; `signature` is the account's estimation
 * stub, used only to check the gas against the bundler's estimate.
 */
export const sponsorshipRequestSchema = z
  .object({
    sender: hexAddress,
    nonce: hexQuantity,
    factory: hexAddress.optional(),
    factoryData: hexData.optional(),
    callData: hexData,
    callGasLimit: hexQuantity,
    verificationGasLimit: hexQuantity,
    preVerificationGas: hexQuantity,
    maxFeePerGas: hexQuantity,
    maxPriorityFeePerGas: hexQuantity,
    paymaster: hexAddress,
    paymasterVerificationGasLimit: hexQuantity,
    paymasterPostOpGasLimit: hexQuantity,
    signature: hexData,
  })
  .strict();
export type SponsorshipRequest = z.infer<typeof sponsorshipRequestSchema>;

export const sponsorshipSchema = z.object({
  /** DiginoorPaymaster's paymasterData: validAfter (6 bytes) || validUntil (6 bytes) || the server's signature. */
  paymasterData: z.string(),
  /** Unix time (the chain's clock) after which the sponsorship is void. */
  validUntil: z.number().int(),
});
export type Sponsorship = z.infer<typeof sponsorshipSchema>;

export const paymasterEndpoints = {
  sponsorUserOperation: endpoint({
    operationId: "sponsorUserOperation",
    method: "POST",
    path: "/api/v1/paymaster",
    summary:
      "Our paymaster's signature for a user operation of the caller's passkey wallet, when it is an action we sponsor within the fan's and the day's budget",
    tags: ["chain"],
    body: sponsorshipRequestSchema,
    success: { status: 200, schema: sponsorshipSchema },
    errors: ["bad_request", "forbidden", "rate_limited", "unavailable"],
  }),
};

export const marketSchema = z.object({ items: z.array(marketTokenSchema) });
export type Market = z.infer<typeof marketSchema>;

export const marketEndpoints = {
  listMarket: endpoint({
    operationId: "listMarket",
    method: "GET",
    path: "/api/v1/market",
    summary:
      "Tokens for sale on the chain (live listings and open auctions, resales and primary auctions), newest first",
    tags: ["chain"],
    success: { status: 200, schema: marketSchema },
  }),
};

/** Each token's page and the ERC-721 metadata, read from the indexer's tables. */
export const tokenEndpoints = {
  getToken: endpoint({
    operationId: "getToken",
    method: "GET",
    path: "/api/v1/tokens/{tokenId}",
    summary: "A token: its NFT and edition, owner, live listing and current auction (wei as decimal strings)",
    tags: ["chain"],
    params: tokenIdParamSchema,
    success: { status: 200, schema: tokenSchema },
    errors: ["not_found"],
  }),
  listAccountTokens: endpoint({
    operationId: "listAccountTokens",
    method: "GET",
    path: "/api/v1/accounts/{address}/tokens",
    summary: "Tokens an address holds or has put up for auction",
    tags: ["chain"],
    params: addressParamSchema,
    success: { status: 200, schema: accountTokensSchema },
  }),
  listNftActivity: endpoint({
    operationId: "listNftActivity",
    method: "GET",
    path: "/api/v1/nfts/{id}/activity",
    summary: "Mints, transfers, bids and sales of an NFT's tokens, newest first",
    tags: ["chain"],
    params: z.object({ id: z.string().max(200) }),
    query: nftActivityQuerySchema,
    success: { status: 200, schema: nftActivitySchema },
    errors: ["not_found"],
  }),
  getTokenMetadata: endpoint({
    operationId: "getTokenMetadata",
    method: "GET",
    path: "/api/v1/metadata/{tokenId}",
    summary: "ERC-721 metadata of a minted token (readable from any origin: CORS *)",
    tags: ["chain"],
    params: tokenIdParamSchema,
    conditional: true,
    success: { status: 200, schema: tokenMetadataSchema },
    errors: ["not_found"],
  }),
  getCollectionMetadata: endpoint({
    operationId: "getCollectionMetadata",
    method: "GET",
    path: "/api/v1/metadata/contract",
    summary:
      "The collection's metadata, what the collectible's contractURI() names (ERC-7572; readable from any origin: CORS *)",
    tags: ["chain"],
    conditional: true,
    success: { status: 200, schema: collectionMetadataSchema },
    errors: ["unavailable"],
  }),
};
